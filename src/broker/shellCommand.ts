// Splits a bash command line into the sub-commands it would run, with tree-sitter's bash grammar
// (VS Code's own parser, @vscode/tree-sitter-wasm). Pure: no `vscode` import, so unit tests and
// any host can use it. It fails closed: anything it does not explicitly understand is `ok: false`.
import { readFile } from 'node:fs/promises';
import { Language, Parser, type Node } from '@vscode/tree-sitter-wasm';

export interface SubCommand {
  /** The sub-command as written in the line (quotes kept), without its leading assignments and redirections. */
  text: string;
  /** The whole sub-command as written: its leading assignments, all its redirections (here-documents included) and `text`. Exact rules compare against this. */
  source: string;
  /** The command name and its arguments with quotes and escapes resolved; a word that is not static text (it holds $VAR, $(…), `…`, ${…}, $((…)), a glob character outside quotes, ~) is kept as written. */
  words: string[];
  /** Leading VAR=value assignments, as written. */
  assignments: string[];
  /** Files this sub-command writes through redirections (>, >>, &>, >|, 2>, …) as written; /dev/null and fd duplications (2>&1) are not writes. */
  writes: string[];
  /** True when any word (the command name included) or redirection operand is not static text. */
  dynamic: boolean;
}
export type ParsedCommandLine = { ok: true; commands: SubCommand[] } | { ok: false; reason: string };
export interface ShellParser { parse(line: string): ParsedCommandLine }

/** Where the two files are inside the @vscode/tree-sitter-wasm package folder, and in dist/ (same file names). */
export const SHELL_WASM_FILES = { treeSitter: 'tree-sitter.wasm', bash: 'tree-sitter-bash.wasm' } as const;

/** Longer lines always ask: nobody reviews them, and parsing cost grows with them. */
export const MAX_COMMAND_LINE_LENGTH = 10_000;

let runtime: Promise<void> | undefined;
const languages = new Map<string, Promise<Language>>();

/** Loads the WASM files once (paths given, so the extension passes its dist/ folder and tests node_modules). */
export async function loadShellParser(files: { treeSitterWasm: string; bashWasm: string }): Promise<ShellParser> {
  // The tree-sitter runtime is one module-wide WASM instance: initialise it once, whoever asks first.
  runtime ??= Parser.init({ locateFile: () => files.treeSitterWasm }).catch((error: unknown) => {
    runtime = undefined;
    throw error;
  });
  await runtime;
  let language = languages.get(files.bashWasm);
  if (!language) {
    language = readFile(files.bashWasm).then((bytes) => Language.load(new Uint8Array(bytes)));
    languages.set(files.bashWasm, language);
    language.catch(() => languages.delete(files.bashWasm));
  }
  const parser = new Parser();
  parser.setLanguage(await language);
  return { parse: (line) => parseCommandLine(parser, line) };
}

function parseCommandLine(parser: Parser, line: string): ParsedCommandLine {
  if (line.trim() === '') return { ok: false, reason: 'the command line is empty' };
  if (line.length > MAX_COMMAND_LINE_LENGTH) return { ok: false, reason: `the command line is longer than ${MAX_COMMAND_LINE_LENGTH} characters` };
  const tree = parser.parse(line);
  if (!tree) return { ok: false, reason: 'the shell parser gave no result' };
  try {
    if (tree.rootNode.hasError) return { ok: false, reason: 'the command line has a shell syntax error' };
    const walker = new CommandWalker(line);
    walker.statement(tree.rootNode);
    walker.checkCoverage(tree.rootNode);
    const commands = walker.commands.sort((a, b) => a.start - b.start).map((c) => c.command);
    if (commands.length === 0) return { ok: false, reason: 'the command line runs no command' };
    return { ok: true, commands };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  } finally {
    tree.delete();
  }
}

/** Thrown inside the walk for anything the code does not understand; becomes `{ ok: false }`. */
class Refusal extends Error {}

/** Nodes that hold commands to run. Any other node type in a statement position is refused. */
const STATEMENTS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'negated_command', 'redirected_statement',
  'if_statement', 'elif_clause', 'else_clause', 'while_statement', 'for_statement', 'c_style_for_statement',
  'do_group', 'case_statement', 'case_item', 'function_definition',
  'command', 'declaration_command', 'unset_command', 'test_command', 'variable_assignment', 'variable_assignments',
]);

/** Nodes that are data (words, expansions, expressions); walked only for the commands nested inside them. */
const DATA = new Set([
  'word', 'number', 'string', 'string_content', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation',
  'simple_expansion', 'expansion', 'arithmetic_expansion', 'command_substitution', 'process_substitution',
  'brace_expression', 'array', 'variable_name', 'special_variable_name', 'subscript', 'extglob_pattern', 'regex',
  'test_operator', 'unary_expression', 'binary_expression', 'postfix_expression', 'parenthesized_expression',
  'ternary_expression', 'variable_assignment', 'comment', 'heredoc_start', 'heredoc_end',
]);

/** Case terminators are only valid inside a `case`; tree-sitter silently accepts a stray one. */
const CASE_TERMINATORS = new Set([';;', ';&', ';;&']);

const DECLARATIONS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);

/** A resolved word: `value` is the text the shell would see when `isStatic`, else the word as written. */
interface Resolved { value: string; isStatic: boolean }

/** What a redirection adds to the command it belongs to. */
interface RedirectEffect { writes: string[]; dynamic: boolean }

class CommandWalker {
  readonly commands: { start: number; command: SubCommand }[] = [];

  constructor(private readonly line: string) {}

  /** Walks a node that holds commands. */
  statement(node: Node): void {
    if (node.type === 'comment') return;
    if (!STATEMENTS.has(node.type)) throw new Refusal(`unsupported shell syntax: ${node.type}`);
    switch (node.type) {
      case 'command': return this.command(node, { writes: [], dynamic: false }, node.endIndex);
      case 'redirected_statement': return this.redirectedStatement(node);
      case 'variable_assignment':
      case 'variable_assignments': return this.standaloneAssignment(node);
      case 'declaration_command':
      case 'unset_command': return this.declaration(node);
      case 'test_command': return this.testCommand(node);
    }
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (CASE_TERMINATORS.has(child.type) && node.type !== 'case_item') throw new Refusal(`\`${child.type}\` outside a case statement`);
        if (child.type === '$') throw new Refusal('a stray `$`');
        continue;
      }
      // The header of `for ((i=0; …))` is arithmetic, not assignments to run as sub-commands.
      if (STATEMENTS.has(child.type) && !(node.type === 'c_style_for_statement' && child.type !== 'do_group' && child.type !== 'compound_statement')) this.statement(child);
      else this.data(child);
    }
  }

  /** Walks a data node for the commands nested in it (substitutions), refusing unknown node types. */
  data(node: Node): void {
    if (node.type === 'command_substitution' || node.type === 'process_substitution') {
      for (const child of node.namedChildren) if (child) this.statement(child);
      return;
    }
    if (node.type === 'heredoc_body') return;
    if (!DATA.has(node.type)) throw new Refusal(`unsupported shell syntax: ${node.type}`);
    // `${x@P}` expands x as a prompt string, which runs any $(…) held in the variable.
    if (node.type === 'expansion' && /@[A-Za-z]\}$/.test(node.text)) throw new Refusal('a ${…@…} transformation');
    for (const child of node.namedChildren) if (child) this.data(child);
  }

  private command(node: Node, inherited: RedirectEffect, sourceEnd: number): void {
    const assignments: string[] = [];
    const words: Resolved[] = [];
    const effect: RedirectEffect = { writes: [...inherited.writes], dynamic: inherited.dynamic };
    let name: Node | undefined;
    // The grammar reads `$"…"` (a locale-translated string) as a `$` token before a string.
    let translated = false;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (child.type !== '$') throw new Refusal(`unexpected \`${child.type}\` in a command`);
        translated = true;
        continue;
      }
      if (translated && child.type !== 'string') throw new Refusal('a `$` before something other than a string');
      if (translated) {
        this.data(child);
        words.push({ value: `$${child.text}`, isStatic: false });
        translated = false;
      } else if (child.type === 'variable_assignment' && !name) {
        this.data(child);
        assignments.push(child.text);
      } else if (isRedirect(child.type)) {
        this.redirect(child, effect);
      } else if (child.type === 'command_name') {
        name = child;
        const word = child.namedChild(0);
        if (!word || child.childCount !== 1) throw new Refusal('an unusual command name');
        this.data(word);
        words.push(resolveWord(word));
      } else if (child.type === 'comment') {
        continue;
      } else {
        if (!name) throw new Refusal(`unexpected ${child.type} before the command name`);
        this.data(child);
        words.push(resolveWord(child));
      }
    }
    if (translated) throw new Refusal('a `$` at the end of a command');
    if (!name) throw new Refusal('a redirection or assignment without a command');
    this.commands.push({
      start: node.startIndex,
      command: {
        text: this.line.slice(name.startIndex, node.endIndex),
        source: this.line.slice(node.startIndex, sourceEnd),
        words: words.map((w) => w.value),
        assignments,
        writes: effect.writes,
        dynamic: effect.dynamic || words.some((w) => !w.isStatic),
      },
    });
  }

  /** `body > file`: the redirections belong to the command, or in a pipeline to its last command (as in bash). */
  private redirectedStatement(node: Node): void {
    const body = node.childForFieldName('body');
    if (!body) throw new Refusal('a redirection without a command');
    const effect: RedirectEffect = { writes: [], dynamic: false };
    for (const child of node.namedChildren) {
      if (!child || child.equals(body)) continue;
      if (isRedirect(child.type)) this.redirect(child, effect);
      else if (child.type !== 'comment') throw new Refusal(`unexpected ${child.type} in a redirection`);
    }
    if (body.type === 'command') return this.command(body, effect, node.endIndex);
    if (body.type === 'pipeline') {
      const parts = body.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
      const last = parts[parts.length - 1];
      if (last?.type === 'command') {
        for (const part of parts.slice(0, -1)) this.statement(part);
        for (const child of body.children) if (child && !child.isNamed && child.type !== '|' && child.type !== '|&') throw new Refusal(`unexpected \`${child.type}\` in a pipeline`);
        return this.command(last, effect, node.endIndex);
      }
    }
    // A group's redirection would apply to every command in it; exact rules could not show that.
    if (effect.writes.length > 0) throw new Refusal('a file write on a group of commands');
    this.statement(body);
  }

  /** Collects a redirection's file writes, walks its operands, and the commands a here-document line carries on with. */
  private redirect(node: Node, effect: RedirectEffect): void {
    if (node.type === 'herestring_redirect') {
      if (node.children.filter((c) => c !== null && !c.isNamed).length !== 1) effect.dynamic = true;
      for (const child of node.namedChildren) {
        if (!child) continue;
        this.data(child);
        if (!resolveWord(child).isStatic) effect.dynamic = true;
      }
      return;
    }
    if (node.type === 'heredoc_redirect') return this.heredoc(node, effect);
    const tokens = node.children.filter((c) => c !== null && !c.isNamed);
    if (tokens.length !== 1) throw new Refusal('an unusual redirection');
    const operator = tokens[0]!.type;
    const targets = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'file_descriptor');
    for (const target of targets) this.data(target);
    // tree-sitter puts words that follow a redirection target (`echo > f hi`) into the redirection.
    if (targets.length > 1) throw new Refusal('words after a redirection target');
    const target = targets[0];
    if (operator === '>&-' || operator === '<&-') {
      if (target) throw new Refusal('words after a redirection target');
      return;
    }
    if (!target) throw new Refusal('a redirection without a target');
    const resolved = resolveWord(target);
    if (!resolved.isStatic) effect.dynamic = true;
    switch (operator) {
      case '<':
        return;
      case '>&':
      case '<&':
        if (resolved.isStatic && /^(\d+|-)$/.test(resolved.value)) return;
        if (operator === '<&') throw new Refusal('an unusual input duplication');
        break;
      case '>': case '>>': case '>|': case '&>': case '&>>':
        break;
      default:
        throw new Refusal(`unsupported redirection ${operator}`);
    }
    if (resolved.isStatic && NOT_WRITES.has(resolved.value)) return;
    effect.writes.push(target.text);
  }

  /** A here-document is data, except the $(…) an unquoted delimiter lets the shell run, and what follows `<<EOF` on its line. */
  private heredoc(node: Node, effect: RedirectEffect): void {
    const start = node.children.find((c) => c?.type === 'heredoc_start');
    const quoted = start ? /['"\\]/.test(start.text) : false;
    for (const child of node.children) {
      if (!child) continue;
      if (!child.isNamed) {
        if (!['<<', '<<-', '&&', '||', '|', '|&', ';', '&'].includes(child.type)) throw new Refusal(`unexpected \`${child.type}\` after a here-document`);
        continue;
      }
      switch (child.type) {
        case 'heredoc_start': case 'heredoc_end': case 'comment': continue;
        case 'heredoc_body': if (!quoted) this.heredocBody(child); continue;
        case 'file_redirect': case 'herestring_redirect': this.redirect(child, effect); continue;
        default: this.statement(child);
      }
    }
  }

  private heredocBody(body: Node): void {
    const text = body.text;
    // Parsed expansions are walked below; only the raw text between them is scanned here.
    const parsed = new Map<number, number>();
    for (const child of body.namedChildren) {
      if (child && child.type !== 'heredoc_content') parsed.set(child.startIndex - body.startIndex, child.endIndex - body.startIndex);
    }
    for (let i = 0; i < text.length; i++) {
      const end = parsed.get(i);
      if (end !== undefined) { i = end - 1; continue; }
      const char = text[i];
      if (char === '\\') { i++; continue; }
      // The grammar leaves some backticks and $(…) in a here-document unparsed; bash runs them.
      if (char === '`') throw new Refusal('backticks in a here-document');
      if (char === '$' && '({['.includes(text[i + 1] ?? '')) throw new Refusal('an expansion the parser did not read in a here-document');
    }
    for (const child of body.namedChildren) if (child && child.type !== 'heredoc_content') this.data(child);
  }

  /** `FOO=bar` with no command: a sub-command with no words, so that only an exact rule can allow it. */
  private standaloneAssignment(node: Node): void {
    const parts = node.type === 'variable_assignments' ? node.namedChildren.filter((c): c is Node => c !== null) : [node];
    for (const part of parts) {
      if (part.type !== 'variable_assignment') throw new Refusal(`unexpected ${part.type} in assignments`);
      this.data(part);
    }
    this.commands.push({
      start: node.startIndex,
      command: { text: node.text, source: node.text, words: [], assignments: parts.map((p) => p.text), writes: [], dynamic: parts.some((p) => !resolveWord(p).isStatic) },
    });
  }

  /** `export A=1`, `local x`, `unset y`: the keyword is the first word, so rules see it. */
  private declaration(node: Node): void {
    const keyword = node.child(0);
    if (!keyword || keyword.isNamed || !(DECLARATIONS.has(keyword.type) || keyword.type === 'unset')) throw new Refusal(`unsupported declaration ${node.type}`);
    const words: Resolved[] = [{ value: keyword.type, isStatic: true }];
    if (node.children.slice(1).some((c) => c !== null && !c.isNamed)) throw new Refusal(`an unusual ${keyword.type} command`);
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      this.data(child);
      words.push(resolveWord(child));
    }
    this.commands.push({
      start: node.startIndex,
      command: { text: node.text, source: node.text, words: words.map((w) => w.value), assignments: [], writes: [], dynamic: words.some((w) => !w.isStatic) },
    });
  }

  /** `[[ … ]]`, `[ … ]`, `(( … ))`: a sub-command whose only word is the opening bracket (bash can run code from `[[ x -eq y ]]` operands). */
  private testCommand(node: Node): void {
    const opener = node.child(0);
    if (!opener || opener.isNamed || !['[[', '[', '(('].includes(opener.type)) throw new Refusal('an unusual test command');
    for (const child of node.namedChildren) if (child) this.data(child);
    this.commands.push({
      start: node.startIndex,
      command: { text: node.text, source: node.text, words: [opener.type], assignments: [], writes: [], dynamic: hasExpansion(node) },
    });
  }

  /**
   * Every character of the line must belong to some token of the tree: tree-sitter skips text it
   * cannot place without always flagging it, and a skipped character could be something bash runs.
   */
  checkCoverage(root: Node): void {
    const ranges: [number, number][] = [];
    const collect = (node: Node): void => {
      if (node.childCount === 0 || node.type === 'heredoc_body' || node.type === 'string_content') {
        ranges.push([node.startIndex, node.endIndex]);
        return;
      }
      // A double-quoted string's plain text is not always a child token: count the whole string.
      if (node.type === 'string') ranges.push([node.startIndex, node.endIndex]);
      for (const child of node.children) if (child) collect(child);
    };
    collect(root);
    ranges.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    for (const [start, end] of [...ranges, [this.line.length, this.line.length] as [number, number]]) {
      if (start > covered) {
        const gap = this.line.slice(covered, start).replace(/\\\r?\n/g, '');
        if (gap.trim() !== '') throw new Refusal(`the parser skipped \`${gap.trim().slice(0, 20)}\``);
      }
      covered = Math.max(covered, end);
    }
  }
}

/** Redirection targets that are not files written. */
const NOT_WRITES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

function isRedirect(type: string): boolean {
  return type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect';
}

const EXPANSIONS = new Set(['simple_expansion', 'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion']);

function hasExpansion(node: Node): boolean {
  return EXPANSIONS.has(node.type) || node.namedChildren.some((c) => c !== null && hasExpansion(c));
}

/** What the shell makes of one word, when that can be known without running anything. */
function resolveWord(node: Node): Resolved {
  const dynamic: Resolved = { value: node.text, isStatic: false };
  const parts = literalParts(node);
  if (!parts) return dynamic;
  // Globs, ~ and brace expansion only act outside quotes; quoted parts stand in as a neutral letter.
  const unquoted = parts.map((p) => (p.quoted ? 'q'.repeat(Math.max(1, p.text.length)) : p.text)).join('');
  // `~` expands at the start of a word and after `=` or `:` (assignment-like words); `HEAD~1` stays as is.
  if (/[*?[]/.test(unquoted) || /(^|[=:])~/.test(unquoted) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted)) return dynamic;
  return { value: parts.map((p) => p.text).join(''), isStatic: true };
}

interface LiteralPart { text: string; quoted: boolean }

/** The literal pieces of a word, or undefined when some piece is an expansion or unknown. */
function literalParts(node: Node): LiteralPart[] | undefined {
  switch (node.type) {
    case 'word': return unquotedWord(node.text);
    case 'number': case 'variable_name': return /^[\w.+-]+$/.test(node.text) ? [{ text: node.text, quoted: false }] : undefined;
    case 'raw_string': return [{ text: node.text.slice(1, -1), quoted: true }];
    case 'ansi_c_string': {
      const text = ansiC(node.text.slice(2, -1));
      return text === undefined ? undefined : [{ text, quoted: true }];
    }
    case 'string': {
      // `$"…"` is translated through the locale; `"…$x…"` holds an expansion.
      if (!node.text.startsWith('"') || !node.text.endsWith('"') || node.text.length < 2) return undefined;
      if (node.namedChildren.some((c) => c && c.type !== 'string_content')) return undefined;
      const text = doubleQuoted(node.text.slice(1, -1));
      return text === undefined ? undefined : [{ text, quoted: true }];
    }
    case 'concatenation': {
      const parts: LiteralPart[] = [];
      for (const child of node.children) {
        const piece = child ? literalParts(child) : undefined;
        if (!piece) return undefined;
        parts.push(...piece);
      }
      return parts;
    }
    case 'variable_assignment': {
      // Only as an argument (`export A=1`, `echo a=b`): name=value.
      const nameNode = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      if (!nameNode || nameNode.type !== 'variable_name') return undefined;
      const valueParts = value ? literalParts(value) : [];
      if (!valueParts) return undefined;
      if (node.text !== `${nameNode.text}=${value?.text ?? ''}`) return undefined;
      return [{ text: `${nameNode.text}=`, quoted: true }, ...valueParts];
    }
    default: return undefined;
  }
}

/** An unquoted word: backslash escapes resolved; `$` or a backtick means an expansion the grammar left in the word. */
function unquotedWord(text: string): LiteralPart[] | undefined {
  const parts: LiteralPart[] = [];
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\') {
      const next = text[i + 1];
      if (next === undefined) return undefined;
      i++;
      if (next === '\n') continue;
      if (plain) parts.push({ text: plain, quoted: false });
      plain = '';
      parts.push({ text: next, quoted: true });
      continue;
    }
    if (char === '$' || char === '`' || char === '"' || char === "'") return undefined;
    plain += char;
  }
  if (plain) parts.push({ text: plain, quoted: false });
  return parts;
}

/** Inside "…", a backslash only escapes $ ` " \ and a newline. */
function doubleQuoted(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '$' || char === '`') return undefined;
    if (char === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      if (next === '\n') { i++; continue; }
      if ('$`"\\'.includes(next)) { out += next; i++; continue; }
    }
    out += char;
  }
  return out;
}

const ANSI_C_SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };

/** `$'…'` escapes; anything unusual (\c, \u, \U) is left undecided so the word counts as dynamic. */
function ansiC(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char !== '\\') { out += char; continue; }
    const next = text[i + 1];
    if (next === undefined) return undefined;
    const simple = ANSI_C_SIMPLE[next];
    if (simple !== undefined) { out += simple; i++; continue; }
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(text.slice(i + 1));
    if (hex) { out += String.fromCharCode(parseInt(hex[1]!, 16)); i += hex[0].length; continue; }
    const octal = /^[0-7]{1,3}/.exec(text.slice(i + 1));
    if (octal) { out += String.fromCharCode(parseInt(octal[0], 8) & 0xff); i += octal[0].length; continue; }
    return undefined;
  }
  return out;
}
