// Codex's own grants, read from the texts of its files: the `prefix_rule(…)` lines of its rules files
// ($CODEX_HOME/rules/*.rules, where "don't ask again" in its prompt appends
// `prefix_rule(pattern=["npm", "test"], decision="allow")`, and a trusted project's .codex/rules/),
// and the `approval_policy` and `sandbox_mode` of its config.toml that skip its prompts. Read as an
// allowlist: a statement that is not a prefix rule is kept, to be shown as not understood. Pure: the
// caller reads the files; a file that cannot be read gives a problem for that file, never a throw.
import { readEachFile, type AgentGrant, type GrantFile, type GrantFileProblem, type GrantPlace } from './agentGrant';

/** The user's files ($CODEX_HOME, ~/.codex by default) or a workspace folder's .codex/. */
export type CodexScope = 'user' | 'project';

/** A rules file (Starlark) or a config.toml. */
export type CodexFile = GrantFile<CodexScope> & { kind: 'rules' | 'config' };

export type CodexGrant = AgentGrant & {
  agent: 'Codex';
  scope: CodexScope;
  /** A prefix rule's tokens, each with its alternatives; absent for what is not a prefix rule. */
  pattern?: string[][];
  /** For `approval_policy` and `sandbox_mode`: both as set beside it (same table), when set. */
  approvalPolicy?: string;
  sandboxMode?: string;
};

const DECISIONS: Readonly<Record<string, CodexGrant['list']>> = { allow: 'allow', prompt: 'ask', forbidden: 'deny' };

export function readCodexGrants(files: readonly CodexFile[]): { grants: CodexGrant[]; problems: GrantFileProblem[] } {
  return readEachFile('Codex', files, (file, problem): Array<Omit<CodexGrant, keyof GrantPlace<'Codex', CodexScope>>> => {
    if (file.kind === 'config') return configGrants(file.text);
    try {
      return parseStarlarkCalls(file.text).map(ruleGrant);
    } catch (error) {
      problem(`${error instanceof Error ? error.message : String(error)}: Codex cannot load the file either; its rules are not shown`);
      return [];
    }
  });
}

function ruleGrant(call: Call): Pick<CodexGrant, 'list' | 'key' | 'rule' | 'pattern'> {
  const rule = call.source.replace(/\s+/g, ' ');
  const notRead = { list: 'allow' as const, key: call.name, rule };
  if (call.name !== 'prefix_rule') return notRead;
  const pattern = call.args.get('pattern');
  const decision = call.args.get('decision') ?? 'allow';
  const tokens =
    Array.isArray(pattern) && pattern.length > 0
      ? pattern.map((token) =>
          typeof token === 'string' ? [token] : Array.isArray(token) && token.length > 0 && token.every((t) => typeof t === 'string') ? (token as string[]) : undefined,
        )
      : [];
  const list = typeof decision === 'string' ? DECISIONS[decision] : undefined;
  if (tokens.length === 0 || tokens.includes(undefined) || !list) return notRead;
  return { list, key: call.name, rule, pattern: tokens as string[][] };
}

/** `approval_policy = "never"` and `sandbox_mode = "danger-full-access"`, at the top or in a `[profiles.<name>]` table. */
function configGrants(text: string): Array<Pick<CodexGrant, 'list' | 'key' | 'rule' | 'approvalPolicy' | 'sandboxMode'>> {
  const tables = new Map<string, Map<string, { line: string; value: string | undefined }>>();
  let table = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    // A `[table]` header, or an `[[array of tables]]` one (never a place of these keys).
    const header = /^\[(\[)?\s*([^[\]]+?)\s*\](\])?\s*(#.*)?$/.exec(line);
    if (header && !header[1] === !header[3]) {
      table = header[1] ? '[[' : header[2]!.replace(/["']/g, '');
      continue;
    }
    const entry = /^(approval_policy|sandbox_mode)\s*=\s*(.*)$/.exec(line);
    if (!entry || !(table === '' || /^profiles\.[^.]+$/.test(table))) continue;
    // A plain string is understood; anything else (a granular table …) is kept to be shown as not understood.
    const value = /^(?:"([^"\\]*)"|'([^']*)')\s*(#.*)?$/.exec(entry[2]!);
    if (!tables.has(table)) tables.set(table, new Map());
    tables.get(table)!.set(entry[1]!, { line: line.replace(/\s*#.*$/, ''), value: value ? (value[1] ?? value[2]) : undefined });
  }
  return [...tables].flatMap(([name, keys]) => {
    const approval = keys.get('approval_policy');
    const sandbox = keys.get('sandbox_mode');
    const beside = { ...(approval?.value ? { approvalPolicy: approval.value } : {}), ...(sandbox?.value ? { sandboxMode: sandbox.value } : {}) };
    const key = (k: string) => (name ? `${name}.${k}` : k);
    return [
      // Only what skips Codex's prompts, or is not understood: "on-request", "untrusted" or a sandbox that confines are Codex asking.
      ...(approval && (approval.value === undefined || approval.value === 'never')
        ? [{ list: 'defaultMode' as const, key: key('approval_policy'), rule: approval.line, ...beside }]
        : []),
      ...(sandbox && (sandbox.value === undefined || sandbox.value === 'danger-full-access')
        ? [{ list: 'defaultMode' as const, key: key('sandbox_mode'), rule: sandbox.line, ...beside }]
        : []),
    ];
  });
}

type Value = string | number | boolean | null | Value[];
interface Call {
  name: string;
  args: Map<string, Value>;
  source: string;
}

/** The top-level calls of a rules file (`name(key = value, …)`), in Starlark's subset Codex writes and documents. */
export function parseStarlarkCalls(text: string): Call[] {
  const tokens = tokenize(text);
  let at = 0;
  const fail = (why: string): never => {
    const token = tokens[Math.min(at, tokens.length - 1)];
    throw new Error(`not read at line ${token ? lineOf(text, token.start) : 1} (${why})`);
  };
  const next = () => tokens[at++] ?? fail('the text ends early');
  const expect = (text: string) => {
    if (next().text !== text) fail(`expected ${text}`);
  };
  const value = (): Value => {
    const token = next();
    if (token.kind === 'string') return token.value!;
    if (token.kind === 'number') return Number(token.text);
    if (token.text === 'True' || token.text === 'False') return token.text === 'True';
    if (token.text === 'None') return null;
    if (token.text !== '[') return fail(`a value was expected, not ${token.text}`);
    const items: Value[] = [];
    while (tokens[at]?.text !== ']') {
      items.push(value());
      if (tokens[at]?.text === ',') at++;
      else if (tokens[at]?.text !== ']') fail('expected , or ]');
    }
    at++;
    return items;
  };
  const calls: Call[] = [];
  while (at < tokens.length) {
    const name = next();
    if (name.kind !== 'name') fail(`a call was expected, not ${name.text}`);
    expect('(');
    const args = new Map<string, Value>();
    while (tokens[at]?.text !== ')') {
      const key = next();
      if (key.kind !== 'name' || tokens[at]?.text !== '=') fail('only key = value arguments are read');
      at++;
      args.set(key.text, value());
      if (tokens[at]?.text === ',') at++;
      else if (tokens[at]?.text !== ')') fail('expected , or )');
    }
    const end = next();
    calls.push({ name: name.text, args, source: text.slice(name.start, end.start + 1) });
  }
  return calls;
}

interface Token {
  kind: 'name' | 'string' | 'number' | 'punct';
  text: string;
  value?: string;
  start: number;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const triple = /"""|'''/.exec(text);
  if (triple) throw new Error(`not read at line ${lineOf(text, triple.index)} (triple-quoted strings are not in the subset read here)`);
  const pattern = /\s+|#[^\n]*|([A-Za-z_]\w*)|(\d+)|([()[\],=])|"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|(.)/gy;
  for (let match = pattern.exec(text); match && match[0] !== ''; match = pattern.exec(text)) {
    const [whole, name, number, punct, double, single, other] = match;
    if (other !== undefined) throw new Error(`not read at line ${lineOf(text, match.index)} (${JSON.stringify(whole.slice(0, 10))} is not in the subset read here)`);
    if (name !== undefined) tokens.push({ kind: 'name', text: name, start: match.index });
    else if (number !== undefined) tokens.push({ kind: 'number', text: number, start: match.index });
    else if (punct !== undefined) tokens.push({ kind: 'punct', text: punct, start: match.index });
    else if (double !== undefined || single !== undefined) tokens.push({ kind: 'string', text: whole, value: unescape(double ?? single!), start: match.index });
  }
  return tokens;
}

/** Starlark's string escapes, as JSON writes them (Codex writes its tokens with serde_json). */
function unescape(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) =>
    e.length > 1 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (({ n: '\n', t: '\t', r: '\r', '0': '\0' } as Record<string, string>)[e] ?? e),
  );
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
