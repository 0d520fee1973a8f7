// The tables in README.md and docs/ that restate code, generated from that code so nothing keeps
// them true by hand. Each sits in its file between `<!-- name:start -->` and `<!-- name:end -->`;
// docTables.test.ts fails when one is stale and rewrites them all when AGENT_QUESTIONS_UPDATE_DOCS=1
// (or AGENT_QUESTIONS_UPDATE_README=1). Doc-only code, so it lives with the tests, not in src/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_MAX_QUESTIONS, GET_ANSWERS_MAX_IDS, GET_ANSWERS_MAX_WAIT_SECONDS, LIMITS, QUESTION_KINDS } from '../../../src/broker/contract/schemas';
import { NEVER_PREFIX_GROUPS } from '../../../src/broker/permissions/shell/commandRules';
import { DANGEROUS_ARGUMENTS } from '../../../src/broker/permissions/shell/dangerousArguments';
import { KNOWN_TOOL_EXAMPLES } from '../../../src/broker/permissions/shell/knownToolExamples';
import { knownPrefixFor, knownToolsMarkdown } from '../../../src/broker/permissions/shell/knownTools';
import { agentConfigs } from '../../../src/agents/configRegistry';
import { CLAUDE_MCP_ADD_JSON_ARGS, claudeCodeHookSettings, claudeCodeMcpJson } from '../../../src/agents/claudeCode/claudeCodeConfig';
import { codexConfigToml } from '../../../src/agents/codex/codexConfig';
import { CREDENTIAL_NAMES, CREDENTIAL_SUFFIXES, DENIED_ENV_VAR_PREFIXES, DENIED_ENV_VARS, RESERVED_ENV_VAR_PREFIX, TRUST_WORDS } from '../../../src/broker/secrets/envVarPolicy';
import { ROOT } from '../helpers/repoRoot';

export { ROOT };

/** One generated table: its marker name, the file (relative to the repository) and what goes between the markers. */
export interface DocTable {
  name: string;
  file: string;
  generate: () => string;
}

const code = (text: string | number): string => `\`${text}\``;
const codes = (items: readonly (string | number)[]): string => items.map(code).join(' ');
/** A table cell: one line, its pipes escaped (GitHub's tables split on them, even inside code). */
const cell = (text: string): string => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const thousands = (n: number): string => n.toLocaleString('en-US');

// ----- the ask_user and get_answers contract (src/broker/contract/schemas.ts) -----

type LimitKey = keyof typeof LIMITS;

/** Each row of the ask_user field table, with the LIMITS it states (a limit no row states fails the test). */
export const ASK_USER_FIELD_ROWS: readonly { field: string; limits: readonly LimitKey[]; rule: () => string; notAField?: true }[] = [
  { field: 'questions', limits: ['minQuestions', 'maxQuestions'], rule: () => `${LIMITS.minQuestions} to ${LIMITS.maxQuestions} (${API_MAX_QUESTIONS} through the extension API)` },
  { field: 'id', limits: ['idMax'], rule: () => `snake_case, at most ${LIMITS.idMax} characters, unique within the call; answers are keyed by it` },
  { field: 'header', limits: ['headerMax'], rule: () => `at most ${LIMITS.headerMax} characters (a chip label)` },
  { field: 'question', limits: ['questionMax'], rule: () => `at most ${LIMITS.questionMax} characters, plain text` },
  {
    field: 'detail',
    limits: ['detailMax'],
    rule: () => `optional markdown under the question (code, a table, the trade-off in detail), at most ${thousands(LIMITS.detailMax)} characters`,
  },
  { field: 'kind', limits: [], rule: () => `${QUESTION_KINDS.map(code).join(' · ')}; defaults to \`single\` with \`options\`, else \`text\`` },
  {
    field: 'options',
    limits: ['minOptions', 'maxOptions', 'labelMax', 'descriptionMax'],
    rule: () =>
      `${LIMITS.minOptions} to ${LIMITS.maxOptions} for \`single\`/\`multi\` (\`label\` ≤ ${LIMITS.labelMax}, \`description\` ≤ ${LIMITS.descriptionMax}); at most one \`recommended\` on \`single\` (it is preselected)`,
  },
  {
    field: 'options[].preview',
    limits: ['previewMax'],
    rule: () =>
      `optional markdown, at most ${thousands(LIMITS.previewMax)} characters, shown while the user is on that option (single and multi): use it when choosing needs a picture of the consequence — a code sketch of the API shape, a small table, an ASCII diagram of the architecture`,
  },
  { field: 'allowOther', limits: [], rule: () => 'the "Other…" free-text answer; default `true` on `single`/`multi`, not allowed on `text`/`secret`' },
  { field: 'placeholder', limits: ['placeholderMax'], rule: () => `optional hint text for a \`text\` answer, at most ${LIMITS.placeholderMax} characters` },
  {
    field: 'envVar',
    limits: [],
    rule: () =>
      `required on \`secret\` (\`^[A-Z_][A-Z0-9_]*$\`); not a name that changes how programs run (\`PATH\`, \`LD_*\`, \`NODE_OPTIONS\`, … see [secret names](security.md#secret-names)) nor one starting \`${RESERVED_ENV_VAR_PREFIX}\`; a name that is not a credential name (\`…_API_KEY\`, \`…_TOKEN\`, \`DATABASE_URL\`, …) is stored only after the user confirms it in the panel`,
  },
  { field: 'context', limits: ['contextMax'], rule: () => `optional markdown, at most ${thousands(LIMITS.contextMax)} characters` },
  {
    field: 'wait',
    limits: [],
    rule: () => 'optional, default `true`; `false` returns at once with the request id (see [Ask and keep working](#ask-and-keep-working-wait-false-and-get_answers))',
  },
  {
    field: 'together',
    notAField: true,
    limits: ['markdownTotalMax'],
    rule: () =>
      `\`context\`, every \`detail\` and every \`preview\` at most ${thousands(LIMITS.markdownTotalMax)} characters (about ${thousands(LIMITS.markdownTotalMax / 4)} tokens); the whole input stays under about 16,000 characters`,
  },
  {
    field: 'the answer',
    notAField: true,
    limits: ['imagesPerAnswer', 'imageMaxBytes', 'batchNoteMax'],
    rule: () =>
      `the user may attach up to ${LIMITS.imagesPerAnswer} images to an answer, ${LIMITS.imageMaxBytes / (1024 * 1024)} MB each, and write a note of up to ${thousands(LIMITS.batchNoteMax)} characters on the whole batch`,
  },
];

function askUserFields(): string {
  return ['| field | rule |', '| --- | --- |', ...ASK_USER_FIELD_ROWS.map((row) => `| ${row.notAField ? row.field : code(row.field)} | ${cell(row.rule())} |`)].join('\n');
}

function getAnswersFields(): string {
  return [
    '| field | rule |',
    '| --- | --- |',
    `| \`ids\` | 1 to ${GET_ANSWERS_MAX_IDS} request ids \`ask_user\` returned with status \`waiting\` |`,
    `| \`waitSeconds\` | \`0\` (default): look and return at once; more (up to ${thousands(GET_ANSWERS_MAX_WAIT_SECONDS)}): block until every id is settled or the time passes |`,
  ].join('\n');
}

// ----- shell commands (src/broker/permissions/shell/) -----

function neverPrefix(): string {
  return NEVER_PREFIX_GROUPS.map(([why, names]) => `- *${why}*: ${codes(names)}`).join('\n');
}

/** One row per known tool: the rule its first covered example offers, what it covers, what it asks. */
function knownToolExamples(): string {
  const rows = Object.entries(KNOWN_TOOL_EXAMPLES).map(([tool, { covers, asks }]) => {
    const rule = knownPrefixFor(covers[0]?.split(' ') ?? []) ?? tool;
    const lines = (items: readonly string[]) => cell(items.map(code).join(' · '));
    return `| \`${rule} …\` | ${lines(covers)} | ${lines(asks)} |`;
  });
  return ['| rule | covers | asks |', '| --- | --- | --- |', ...rows].join('\n');
}

function dangerousArguments(): string {
  const groups = new Map<string, string[]>();
  for (const entry of DANGEROUS_ARGUMENTS) {
    const key = entry.sub === undefined ? entry.command : `${entry.command} ${entry.sub}`;
    groups.set(key, [...(groups.get(key) ?? []), entry.why]);
  }
  const rows = [...groups].map(([command, whys]) => `- \`${command}\`: ${whys.join('; ')}`);
  return [`${DANGEROUS_ARGUMENTS.length} entries, by command:`, '', ...rows].join('\n');
}

// ----- secret names (src/broker/secrets/envVarPolicy.ts) -----

function secretNames(): string {
  return [
    `- **Refused**: ${codes(DENIED_ENV_VARS)};`,
    `  every name starting ${DENIED_ENV_VAR_PREFIXES.map(code).join(', ')}; and every name starting ${code(RESERVED_ENV_VAR_PREFIX)}, reserved for Agent Questions itself.`,
    `- **Credential names**, stored without asking: a name ending ${CREDENTIAL_SUFFIXES.map(code).join(', ')} (after at least one character), and the names ${CREDENTIAL_NAMES.map(code).join(', ')}.`,
    `- **Not a connection string**: a \`…_URL\` or \`…_URI\` name with one of the words ${codes(TRUST_WORDS)} says where programs fetch packages or send their requests, and is confirmed like any other name.`,
  ].join('\n');
}

// ----- commands and settings (package.json "contributes", package.nls.json) -----

interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    keybindings?: { command: string; key: string; mac?: string }[];
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
    views: Record<string, { id: string; name: string }[]>;
    configuration: { properties: Record<string, Setting> };
  };
}
interface Setting {
  type: string;
  default: unknown;
  scope?: string;
  enum?: string[];
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  markdownDescription?: string;
  description?: string;
  order?: number;
}

function manifest(): { json: Manifest; english: (value: string) => string } {
  const json = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return { json, english: (value) => value.replace(/^%([^%]+)%$/, (_, key: string) => nls[key] ?? value) };
}

const keyLabel = (key: string): string =>
  key
    .split('+')
    .map((part) => (part.length === 1 ? part.toUpperCase() : part[0]!.toUpperCase() + part.slice(1)))
    .join('+');

function commands(): string {
  const { json, english } = manifest();
  const { contributes } = json;
  const viewNames = new Map(
    Object.values(contributes.views)
      .flat()
      .map((view) => [view.id, english(view.name)]),
  );
  const hidden = new Set((contributes.menus['commandPalette'] ?? []).filter((item) => item.when === 'false').map((item) => item.command));
  const places = (id: string): string[] => {
    const found: string[] = hidden.has(id) ? [] : ['palette'];
    for (const [menu, items] of Object.entries(contributes.menus)) {
      for (const item of items.filter((i) => i.command === id)) {
        const view = viewNames.get(/\bview == ([\w.]+)/.exec(item.when ?? '')?.[1] ?? '') ?? '?';
        const title = item.group?.startsWith('navigation') ? `the ${view} view's title bar` : `the ${view} view's … menu`;
        const place = menu === 'view/title' ? title : menu === 'view/item/context' ? `a ${view} item` : undefined;
        if (place && !found.includes(place)) found.push(place);
      }
    }
    return found;
  };
  const rows = contributes.commands.map(({ command, title }) => {
    const binding = contributes.keybindings?.find((k) => k.command === command);
    const key = binding ? `${keyLabel(binding.key)}${binding.mac ? ` (${keyLabel(binding.mac)} on macOS)` : ''}` : '';
    return `| ${cell(english(title))} | \`${command}\` | ${places(command).join(', ')} | ${key} |`;
  });
  return ['| command (category "Agent Questions") | id | where | default key |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** A setting's markdown as a table cell: VS Code's `#setting.id#` links become the plain id. */
const settingText = (text: string): string => cell(text.replace(/`#([\w.]+)#`/g, '`$1`').replace(/#([\w.]+)#/g, '`$1`'));

function settings(): string {
  const { json, english } = manifest();
  const entries = Object.entries(json.contributes.configuration.properties).sort(([, a], [, b]) => (a.order ?? 0) - (b.order ?? 0));
  const rows = entries.map(([id, setting]) => {
    const fallback = setting.type === 'string' && setting.default === '' ? '`""`' : code(typeof setting.default === 'string' ? setting.default : JSON.stringify(setting.default));
    const parts = [english(setting.markdownDescription ?? setting.description ?? '')];
    if (setting.enum) parts.push(setting.enum.map((value, i) => `\`${value}\`${setting.enumDescriptions?.[i] ? `: ${english(setting.enumDescriptions[i]!)}` : '.'}`).join(' '));
    if (setting.maximum !== undefined) parts.push(`From ${setting.minimum ?? 0} to ${setting.maximum}.`);
    else if (setting.minimum !== undefined && setting.minimum > 0) parts.push(`At least ${setting.minimum}.`);
    const where = setting.scope === 'machine' || setting.scope === 'application' ? `${setting.scope}: user settings only` : 'user or workspace';
    return `| \`${id}\` | ${fallback} | ${where} | ${settingText(parts.join(' '))} |`;
  });
  return ['| setting | default | counts from | what it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

// ----- what "Connect an External Agent…" hands out (src/extension/agentConfigs.ts) -----

const fenced = (language: string, text: string): string => `\`\`\`${language}\n${text}\n\`\`\``;
/** The fixed port docs/agents.md tells Codex users to set. */
const CODEX_EXAMPLE_URL = 'http://127.0.0.1:7357/mcp';

function openCodeJson(): string {
  const openCode = agentConfigs(CODEX_EXAMPLE_URL).find((config) => config.agent === 'OpenCode');
  return fenced('json', openCode!.files!.find((file) => file.path === 'opencode.json')!.text);
}

/** Every generated table, where it lives. */
export const DOC_TABLES: readonly DocTable[] = [
  { name: 'commands', file: 'README.md', generate: commands },
  { name: 'settings', file: 'README.md', generate: settings },
  { name: 'ask-user-fields', file: 'docs/api.md', generate: askUserFields },
  { name: 'get-answers-fields', file: 'docs/api.md', generate: getAnswersFields },
  { name: 'known-tools', file: 'docs/permissions.md', generate: knownToolsMarkdown },
  { name: 'known-tool-examples', file: 'docs/permissions.md', generate: knownToolExamples },
  { name: 'never-prefix', file: 'docs/permissions.md', generate: neverPrefix },
  { name: 'dangerous-arguments', file: 'docs/permissions.md', generate: dangerousArguments },
  { name: 'secret-names', file: 'docs/security.md', generate: secretNames },
  { name: 'claude-code-mcp-json', file: 'docs/agents.md', generate: () => fenced('json', claudeCodeMcpJson()) },
  // As the shell needs it: the JSON in single quotes, so Claude Code expands the variables itself.
  {
    name: 'claude-code-mcp-add',
    file: 'docs/agents.md',
    generate: () => fenced('sh', `claude ${CLAUDE_MCP_ADD_JSON_ARGS.map((arg) => (/^[\w.-]+$/.test(arg) ? arg : `'${arg}'`)).join(' ')}`),
  },
  { name: 'claude-code-settings', file: 'docs/agents.md', generate: () => fenced('json', claudeCodeHookSettings()) },
  { name: 'codex-config', file: 'docs/agents.md', generate: () => fenced('toml', codexConfigToml(CODEX_EXAMPLE_URL)) },
  { name: 'opencode-json', file: 'docs/agents.md', generate: openCodeJson },
];

const markers = (name: string): RegExp => new RegExp(`(<!-- ${name}:start -->\\n)([\\s\\S]*?)(<!-- ${name}:end -->)`);

/** What the file holds between the table's markers, or undefined when it has no markers. */
export function currentTable(text: string, name: string): string | undefined {
  return markers(name).exec(text)?.[2];
}

/** The file's text with the table's markers enclosing `body`. */
export function withTable(text: string, name: string, body: string): string {
  return text.replace(markers(name), (_, start: string, _old: string, end: string) => `${start}${body}\n${end}`);
}
