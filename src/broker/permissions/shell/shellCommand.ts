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
  /**
   * The command name and its arguments exactly as bash passes them to the program: quotes, escapes,
   * `$'…'` escapes (a NUL ends its piece, as in bash) and line continuations resolved. A word that is
   * not static text (it holds $VAR, $(…), `…`, ${…}, $((…)), $"…", a glob character outside quotes, ~,
   * or bytes that are not UTF-8) is kept as written.
   */
  words: string[];
  /** Leading VAR=value assignments, as written. */
  assignments: string[];
  /** Files this sub-command writes through redirections (>, >>, &>, &>>, >|, >&, <>, 2>, 3<>, …): the file name bash opens when static, else as written; /dev/null and fd duplications (2>&1) are not writes. */
  writes: string[];
  /** Files this sub-command reads through input redirections (<, <>, 0<, 3<>, …; a group's or loop's input counts for each command in it): the file name bash opens when static, else as written. Here-documents and here-strings are not files. */
  reads: string[];
  /** True when any word (the command name included) or redirection operand is not static text. */
  dynamic: boolean;
  /**
   * Where `dynamic` comes only from plain unquoted glob words among the arguments (`src/*.ts`,
   * `--include=*.ts`: letters, digits, `. / _ - @ % + , : = !` and `* ? [ ] ^`, nothing quoted
   * or escaped): their indices in `words`. Bash expands them against the files when it runs; a
   * caller that can list the files may do the same (commandRules.ts).
   */
  globs?: number[];
  /**
   * Set when a folder change earlier in the line moves where it runs: the operands of the plain
   * `cd dir` commands before it in an `a && b` chain (each ran, or it would not run), in order; or
   * `unknown` (which command) when a change may or may not apply to it (a `cd` before `;` or `||`,
   * in a pipeline, with an option, `pushd`, `source`, a command named by a variable, a `cd` in a
   * loop or function body). Absent: it runs in the line's own folder.
   */
  cd?: FolderChange;
}
export type FolderChange = { into: string[] } | { unknown: string };
export type ParsedCommandLine = { ok: true; commands: SubCommand[] } | { ok: false; reason: string };
export interface ShellParser {
  parse(line: string): ParsedCommandLine;
}

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
  return { parse: remembering((line) => parseCommandLine(parser, line)) };
}

/** How many lines a parser keeps the result of: agents run the same lines again and again (git status, npm test). */
const RECENT_LINES = 64;

/** `parse` with its last results kept by line (a pure function of it), frozen: no caller changes what the next one reads. */
function remembering(parse: (line: string) => ParsedCommandLine): (line: string) => ParsedCommandLine {
  const recent = new Map<string, ParsedCommandLine>();
  return (line) => {
    const parsed = recent.get(line) ?? deepFreeze(parse(line));
    // Last used goes last: the first key is the one to forget.
    recent.delete(line);
    recent.set(line, parsed);
    if (recent.size > RECENT_LINES) recent.delete(recent.keys().next().value!);
    return parsed;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function parseCommandLine(parser: Parser, line: string): ParsedCommandLine {
  if (line.trim() === '') return { ok: false, reason: 'the command line is empty' };
  if (line.length > MAX_COMMAND_LINE_LENGTH) return { ok: false, reason: `the command line is longer than ${MAX_COMMAND_LINE_LENGTH} characters` };
  let tree = parser.parse(line);
  if (!tree) return { ok: false, reason: 'the shell parser gave no result' };
  // The grammar has no `<>` (open read-write): parse again with `>|` (same length, so same offsets) at the
  // `<` tokens that start one, and let the walk read those `>|` back as `<>`.
  const readWrite = tree.rootNode.hasError ? readWriteOperators(tree.rootNode, line) : new Set<number>();
  if (readWrite.size > 0) {
    tree.delete();
    let spliced = line;
    for (const at of readWrite) spliced = `${spliced.slice(0, at)}>|${spliced.slice(at + 2)}`;
    tree = parser.parse(spliced);
    if (!tree) return { ok: false, reason: 'the shell parser gave no result' };
  }
  try {
    if (tree.rootNode.hasError) return { ok: false, reason: 'the command line has a shell syntax error' };
    const walker = new CommandWalker(line, readWrite);
    walker.statement(tree.rootNode);
    walker.checkCoverage(tree.rootNode);
    if (readWrite.size > 0) throw new Refusal('a `<>` the parser did not read as a redirection');
    const commands = walker.commands.sort((a, b) => a.start - b.start).map((c) => c.command);
    // A loop or a function may run its `cd` before any of its commands, once or many times.
    if (walker.repeatedCd) for (const command of commands) command.cd = { unknown: 'a folder change inside a loop or function body' };
    if (commands.length === 0) return { ok: false, reason: 'the command line runs no command' };
    return { ok: true, commands };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    throw error;
  } finally {
    tree.delete();
  }
}

/** Where `<>` operators start: `<` tokens followed by `>` (bash reads `<>` as one operator wherever `<` is one). */
function readWriteOperators(root: Node, line: string): Set<number> {
  const found = new Set<number>();
  const visit = (node: Node): void => {
    if (node.childCount === 0 && node.type === '<' && line.startsWith('<>', node.startIndex)) found.add(node.startIndex);
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return found;
}

/** Thrown inside the walk for anything the code does not understand; becomes `{ ok: false }`. */
class Refusal extends Error {}

/** Nodes that hold commands to run. Any other node type in a statement position is refused. */
const STATEMENTS = new Set([
  'program',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'negated_command',
  'redirected_statement',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'do_group',
  'case_statement',
  'case_item',
  'function_definition',
  'command',
  'declaration_command',
  'unset_command',
  'test_command',
  'variable_assignment',
  'variable_assignments',
]);

/** Nodes that are data (words, expansions, expressions); walked only for the commands nested inside them. */
const DATA = new Set([
  'word',
  'number',
  'string',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'arithmetic_expansion',
  'command_substitution',
  'process_substitution',
  'brace_expression',
  'array',
  'variable_name',
  'special_variable_name',
  'subscript',
  'extglob_pattern',
  'regex',
  'test_operator',
  'unary_expression',
  'binary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'ternary_expression',
  'variable_assignment',
  'comment',
  'heredoc_start',
  'heredoc_end',
]);

/** Case terminators are only valid inside a `case`; tree-sitter silently accepts a stray one. */
const CASE_TERMINATORS = new Set([';;', ';&', ';;&']);

const DECLARATIONS = new Set(['export', 'declare', 'local', 'readonly', 'typeset']);

/** Commands after which the folder is not known: they change it, or may run something that does. */
const FOLDER_CHANGERS = new Set(['cd', 'pushd', 'popd', 'builtin', 'command', 'eval', 'exec', 'source', '.']);
/** `cd dir` looks for dir in CDPATH's folders first. */
const CDPATH = /CDPATH/;
/** Bodies that may run more than once, or later than written. */
const REPEATING = new Set(['while_statement', 'for_statement', 'c_style_for_statement', 'function_definition']);

/** The operands of `a && b && …`, the left-nested lists flattened (bash's lists group to the left). */
function andOperands(node: Node): Node[] {
  const operands: Node[] = [];
  for (const child of node.children) {
    if (!child || child.type === 'comment') continue;
    if (!child.isNamed) {
      if (child.type !== '&&') throw new Refusal(`unexpected \`${child.type}\` in a list`);
      continue;
    }
    if (child.type === 'list' && child.children.some((c) => c?.type === '&&')) operands.push(...andOperands(child));
    else operands.push(child);
  }
  return operands;
}

/** The folder of `cd dir` as written plainly (one static operand, no option, nothing else), else undefined. */
export function plainCdTarget(command: SubCommand): string | undefined {
  const [name, target, ...rest] = command.words;
  if (name !== 'cd' || target === undefined || rest.length > 0 || target === '' || target.startsWith('-')) return undefined;
  return command.dynamic || command.assignments.length > 0 || command.writes.length > 0 || command.reads.length > 0 ? undefined : target;
}

/** A resolved word: `value` is the text the shell would see when `isStatic`, else the word as written. */
interface Resolved {
  value: string;
  isStatic: boolean;
  /** A plain unquoted glob (SubCommand.globs): not static, its text as written is the pattern. */
  glob?: true;
}

/** A glob word whose text is the pattern itself: no quote, escape, expansion, `~` or braces. */
const PLAIN_GLOB = /^[\w./@%+,:=!^*?[\]-]+$/;

/** What a redirection adds to the command it belongs to. */
interface RedirectEffect {
  writes: string[];
  reads: string[];
  dynamic: boolean;
}

class CommandWalker {
  readonly commands: { start: number; command: SubCommand }[] = [];
  /** Where the commands walked from here run, from the line's folder (SubCommand.cd). */
  private folder: FolderChange = { into: [] };
  /** How many loop or function bodies are open around the walk. */
  private repeating = 0;
  /** A command that changes the folder ran inside a loop or function body. */
  repeatedCd = false;

  /** `readWrite`: where the line has `<>`, which the tree holds as `>|`; each is taken out when its redirection is read. */
  constructor(
    private readonly line: string,
    private readonly readWrite: Set<number>,
  ) {}

  /** Walks a node that holds commands. */
  statement(node: Node): void {
    if (node.type === 'comment') return;
    if (!STATEMENTS.has(node.type)) throw new Refusal(`unsupported shell syntax: ${node.type}`);
    switch (node.type) {
      case 'command':
        return this.command(node, { writes: [], reads: [], dynamic: false }, node.endIndex);
      case 'redirected_statement':
        return this.redirectedStatement(node);
      case 'variable_assignment':
      case 'variable_assignments':
        return this.standaloneAssignment(node);
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node);
      case 'test_command':
        return this.testCommand(node);
      case 'list':
        if (node.children.some((c) => c?.type === '&&') && !node.children.some((c) => c?.type === '||')) return this.andChain(node);
    }
    const repeats = REPEATING.has(node.type);
    if (repeats) this.repeating++;
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
    if (repeats) this.repeating--;
  }

  /**
   * `a && b && …`: each operand runs only if those before it succeeded, so a plain `cd dir` among
   * them moves the folder for the rest of the chain. After the chain it may or may not have moved.
   */
  private andChain(node: Node): void {
    let moved: string | undefined;
    for (const operand of andOperands(node)) {
      const before = this.folder;
      const count = this.commands.length;
      if (STATEMENTS.has(operand.type)) this.statement(operand);
      else this.data(operand);
      const walked = this.commands.length === count + 1 ? this.commands[count]!.command : undefined;
      const target = operand.type === 'command' && walked ? plainCdTarget(walked) : undefined;
      if (target !== undefined && 'into' in before && this.repeating === 0) {
        this.folder = { into: [...before.into, target] };
        moved = walked!.text;
      }
    }
    if (moved !== undefined) this.folder = { unknown: `\`${moved}\`` };
  }

  /** The command as walked, with where it runs; a command that may change the folder leaves the rest of the line's folder unknown. */
  private push(start: number, command: SubCommand, changesFolder: boolean): void {
    if (!('into' in this.folder) || this.folder.into.length > 0) command.cd = 'into' in this.folder ? { into: [...this.folder.into] } : { ...this.folder };
    this.commands.push({ start, command });
    if (changesFolder) {
      this.folder = { unknown: `\`${command.text}\`` };
      if (this.repeating > 0) this.repeatedCd = true;
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
    // Each word as the nodes it is made of: the grammar splits some words that bash reads as one (`'a'\b`).
    const words: Node[][] = [];
    const effect: RedirectEffect = { writes: [...inherited.writes], reads: [...inherited.reads], dynamic: inherited.dynamic };
    let name: Node | undefined;
    // Where the last word, assignment or redirection ended, and whether it was a word.
    let previous: { end: number; word: boolean } | undefined;
    // The grammar reads `$"…"` (a locale-translated string) as a `$` token before a string; the word stays dynamic.
    let translated = false;
    for (const child of node.children) {
      if (!child || child.type === 'comment') continue;
      if (!child.isNamed && child.type !== '$') throw new Refusal(`unexpected \`${child.type}\` in a command`);
      const touches = previous?.end === child.startIndex;
      if (translated && !(touches && this.line.startsWith('"', child.startIndex))) throw new Refusal('a `$` before something other than a string');
      if (isRedirect(child.type)) {
        this.redirect(child, effect);
        previous = { end: child.endIndex, word: false };
        continue;
      }
      // For bash, text that touches an assignment or a redirection target is part of it.
      if (touches && !previous!.word) throw new Refusal('a word run together with the assignment or redirection before it');
      if (child.type === 'variable_assignment' && !name) {
        this.data(child);
        assignments.push(child.text);
        previous = { end: child.endIndex, word: false };
        continue;
      }
      let word = child;
      if (child.type === 'command_name') {
        const inner = child.namedChild(0);
        if (!inner || child.childCount !== 1) throw new Refusal('an unusual command name');
        name = child;
        word = inner;
      } else if (!name) {
        throw new Refusal(`unexpected ${child.type} before the command name`);
      }
      if (word.isNamed) this.data(word);
      translated = word.type === '$';
      if (touches) words[words.length - 1]!.push(word);
      else words.push([word]);
      previous = { end: child.endIndex, word: true };
    }
    if (translated) throw new Refusal('a `$` at the end of a command');
    if (!name) throw new Refusal('a redirection or assignment without a command');
    const resolved = this.dropRedirectPrefixes(words, [...node.children, node.nextSibling]).map(resolveWord);
    const globs = resolved.flatMap((w, i) => (w.glob && i > 0 ? [i] : []));
    const onlyGlobs = !effect.dynamic && globs.length > 0 && resolved.every((w, i) => w.isStatic || globs.includes(i));
    this.push(
      node.startIndex,
      {
        text: this.line.slice(name.startIndex, node.endIndex),
        source: this.line.slice(node.startIndex, sourceEnd),
        words: resolved.map((w) => w.value),
        assignments,
        writes: effect.writes,
        reads: effect.reads,
        dynamic: effect.dynamic || resolved.some((w) => !w.isStatic),
        ...(onlyGlobs ? { globs } : {}),
      },
      // A command named by a variable may be `cd`.
      resolved[0] !== undefined && (!resolved[0].isStatic || FOLDER_CHANGERS.has(resolved[0].value)),
    );
  }

  /**
   * Takes out words that bash reads as part of the redirection they touch: digits are its file
   * descriptor (the grammar misses some, as in `0<f` or `0>| f`). `{name}>f` (bash opens a new
   * descriptor and sets the variable) is refused, as is a descriptor where the command name should be.
   */
  private dropRedirectPrefixes(words: Node[][], siblings: (Node | null)[]): Node[][] {
    return words.filter((word, index) => {
      const end = word[word.length - 1]!.endIndex;
      // `2&>f` gives `2` as an argument: only `<` and `>` take a descriptor.
      if (!'<>'.includes(this.line[end] ?? '-') || !siblings.some((s) => s !== null && s.startIndex === end && isRedirect(s.type))) return true;
      const text = this.line.slice(word[0]!.startIndex, end);
      if (/^\{.*\}$/s.test(text)) throw new Refusal('a {variable} file descriptor redirection');
      if (!/^\d+$/.test(text)) return true;
      if (index === 0) throw new Refusal('a file descriptor where the command name should be');
      return false;
    });
  }

  /** `body > file`: the redirections belong to the command, or in a pipeline to its last command (as in bash). */
  private redirectedStatement(node: Node): void {
    const body = node.childForFieldName('body');
    if (!body) throw new Refusal('a redirection without a command');
    const effect: RedirectEffect = { writes: [], reads: [], dynamic: false };
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
        for (const child of body.children)
          if (child && !child.isNamed && child.type !== '|' && child.type !== '|&') throw new Refusal(`unexpected \`${child.type}\` in a pipeline`);
        return this.command(last, effect, node.endIndex);
      }
    }
    // A group's redirection would apply to every command in it; exact rules could not show that.
    if (effect.writes.length > 0) throw new Refusal('a file write on a group of commands');
    // A group's or loop's input (`while read l; do …; done < f`) is read by each command in it.
    const before = this.commands.length;
    this.statement(body);
    for (const { command } of this.commands.slice(before)) {
      command.reads.push(...effect.reads);
      if (effect.dynamic) command.dynamic = true;
    }
  }

  /** Collects a redirection's file writes, walks its operands, and the commands a here-document line carries on with. */
  private redirect(node: Node, effect: RedirectEffect): void {
    if (node.type === 'herestring_redirect') {
      if (node.children.filter((c) => c !== null && !c.isNamed).length !== 1) effect.dynamic = true;
      for (const child of node.namedChildren) {
        if (!child) continue;
        this.data(child);
        if (!resolveWord([child]).isStatic) effect.dynamic = true;
      }
      return;
    }
    if (node.type === 'heredoc_redirect') return this.heredoc(node, effect);
    const tokens = node.children.filter((c): c is Node => c !== null && !c.isNamed);
    if (tokens.length !== 1) throw new Refusal('an unusual redirection');
    const operator = tokens[0]!.type === '>|' && this.readWrite.delete(tokens[0]!.startIndex) ? '<>' : tokens[0]!.type;
    const targets = node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'file_descriptor');
    for (const target of targets) this.data(target);
    // tree-sitter puts words that follow a redirection target (`echo > f hi`) into the redirection; pieces
    // that touch (`> 'a'\b`, split by the grammar) are one word for bash.
    if (targets.some((t, i) => i > 0 && t.startIndex !== targets[i - 1]!.endIndex)) throw new Refusal('words after a redirection target');
    const target = targets[0];
    if (operator === '>&-' || operator === '<&-') {
      if (target) throw new Refusal('words after a redirection target');
      return;
    }
    if (!target) throw new Refusal('a redirection without a target');
    const resolved = resolveWord(targets);
    if (!resolved.isStatic) effect.dynamic = true;
    // Paths as bash opens them, so that path checks see the real file; as written when only known at run time.
    const path = resolved.value;
    switch (operator) {
      case '<':
        effect.reads.push(path);
        return;
      case '<>':
        effect.reads.push(path);
        break;
      case '>&':
      case '<&':
        if (resolved.isStatic && /^(\d+|-)$/.test(resolved.value)) return;
        if (operator === '<&') throw new Refusal('an unusual input duplication');
        break;
      case '>':
      case '>>':
      case '>|':
      case '&>':
      case '&>>':
        break;
      default:
        throw new Refusal(`unsupported redirection ${operator}`);
    }
    if (resolved.isStatic && NOT_WRITES.has(resolved.value)) return;
    effect.writes.push(path);
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
        case 'heredoc_start':
        case 'heredoc_end':
        case 'comment':
          continue;
        case 'heredoc_body':
          if (!quoted) this.heredocBody(child);
          continue;
        case 'file_redirect':
        case 'herestring_redirect':
          this.redirect(child, effect);
          continue;
        default:
          this.statement(child);
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
      if (end !== undefined) {
        i = end - 1;
        continue;
      }
      const char = text[i];
      if (char === '\\') {
        i++;
        continue;
      }
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
    this.push(
      node.startIndex,
      {
        text: node.text,
        source: node.text,
        words: [],
        assignments: parts.map((p) => p.text),
        writes: [],
        reads: [],
        dynamic: parts.some((p) => !resolveWord([p]).isStatic),
      },
      CDPATH.test(node.text),
    );
  }

  /** `export A=1`, `local x`, `unset y`: the keyword is the first word, so rules see it. */
  private declaration(node: Node): void {
    const keyword = node.child(0);
    if (!keyword || keyword.isNamed || !(DECLARATIONS.has(keyword.type) || keyword.type === 'unset')) throw new Refusal(`unsupported declaration ${node.type}`);
    if (node.children.slice(1).some((c) => c !== null && !c.isNamed)) throw new Refusal(`an unusual ${keyword.type} command`);
    const groups: Node[][] = [];
    let end = keyword.endIndex;
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      this.data(child);
      // The grammar splits some words that bash reads as one (`'a'\b`).
      if (child.startIndex === end) {
        if (groups.length === 0) throw new Refusal(`a word run together with \`${keyword.type}\``);
        groups[groups.length - 1]!.push(child);
      } else {
        groups.push([child]);
      }
      end = child.endIndex;
    }
    const words: Resolved[] = [{ value: keyword.type, isStatic: true }, ...groups.map(resolveWord)];
    this.push(
      node.startIndex,
      { text: node.text, source: node.text, words: words.map((w) => w.value), assignments: [], writes: [], reads: [], dynamic: words.some((w) => !w.isStatic) },
      CDPATH.test(node.text),
    );
  }

  /** `[[ … ]]`, `[ … ]`, `(( … ))`: a sub-command whose only word is the opening bracket (bash can run code from `[[ x -eq y ]]` operands). */
  private testCommand(node: Node): void {
    const opener = node.child(0);
    if (!opener || opener.isNamed || !['[[', '[', '(('].includes(opener.type)) throw new Refusal('an unusual test command');
    for (const child of node.namedChildren) if (child) this.data(child);
    this.push(node.startIndex, { text: node.text, source: node.text, words: [opener.type], assignments: [], writes: [], reads: [], dynamic: hasExpansion(node) }, false);
  }

  /**
   * Every character of the line must belong to some token of the tree: tree-sitter skips text it
   * cannot place without always flagging it, and a skipped character could be something bash runs.
   * Between tokens only bash's blanks (space, tab, newline) and line continuations may stand.
   */
  checkCoverage(root: Node): void {
    const ranges: [number, number][] = [];
    const collect = (node: Node): void => {
      // The grammar's `$'…'` token can run past the quote that ends it for bash (`$'a\\' … '`).
      if (node.type === 'ansi_c_string' && ansiCBody(node.text) === undefined) throw new Refusal("a $'…' string the parser read differently from bash");
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
        // `\` then CR is an escaped CR for bash, not a line continuation.
        const gap = this.line.slice(covered, start).replace(/\\\n/g, '');
        if (gap.trim() !== '') throw new Refusal(`the parser skipped \`${gap.trim().slice(0, 20)}\``);
        // CR, form feed, vertical tab, no-break space: the grammar splits words there, bash does not.
        if (/[^ \t\n]/.test(gap)) throw new Refusal('a character between words that bash does not read as a blank');
        // `a\<newline>b` is one word `ab` for bash; the grammar makes two tokens of it.
        if (gap === '' && covered > 0 && start < this.line.length && !/[ \t\n]/.test(this.line[covered - 1]! + this.line[start]!)) {
          throw new Refusal('a line continuation inside a word');
        }
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

/** What the shell makes of one word (the nodes it is made of, next to each other), when that can be known without running anything. */
function resolveWord(nodes: readonly Node[]): Resolved {
  const text = nodes.map((node) => node.text).join('');
  const dynamic: Resolved = { value: text, isStatic: false };
  // A lone UTF-16 surrogate has no bytes of its own: what bash gets depends on who encodes the line.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text)) return dynamic;
  const parts: LiteralPart[] = [];
  for (const node of nodes) {
    const piece = literalParts(node);
    if (!piece) return dynamic;
    parts.push(...piece);
  }
  // Globs, ~ and brace expansion only act outside quotes; quoted parts stand in as a neutral letter.
  const unquoted = parts.map((p) => (p.quoted ? 'q'.repeat(Math.max(1, p.text.length)) : p.text)).join('');
  // `~` expands at the start of a word and after `=` or `:` (assignment-like words); `HEAD~1` stays as is.
  if (/[*?[]/.test(unquoted) && PLAIN_GLOB.test(text)) return { ...dynamic, glob: true };
  if (/[*?[]/.test(unquoted) || /(^|[=:])~/.test(unquoted) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(unquoted)) return dynamic;
  return { value: parts.map((p) => p.text).join(''), isStatic: true };
}

interface LiteralPart {
  text: string;
  quoted: boolean;
}

/** The literal pieces of a word, or undefined when some piece is an expansion or unknown. */
function literalParts(node: Node): LiteralPart[] | undefined {
  switch (node.type) {
    case 'word':
      return unquotedWord(node.text);
    case 'number':
    case 'variable_name':
      return /^[\w.+-]+$/.test(node.text) ? [{ text: node.text, quoted: false }] : undefined;
    case 'raw_string':
      return [{ text: node.text.slice(1, -1), quoted: true }];
    case 'ansi_c_string': {
      const body = ansiCBody(node.text);
      const text = body === undefined ? undefined : ansiC(body);
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
    default:
      return undefined;
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
      if (next === '\n') {
        i++;
        continue;
      }
      if ('$`"\\'.includes(next)) {
        out += next;
        i++;
        continue;
      }
    }
    out += char;
  }
  return out;
}

/** The text between `$'` and `'`, or undefined when bash would end the string elsewhere (an unescaped `'` inside, or a `\` before the last quote). */
function ansiCBody(text: string): string | undefined {
  if (!text.startsWith("$'") || !text.endsWith("'") || text.length < 3) return undefined;
  const body = text.slice(2, -1);
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "'" || (body[i] === '\\' && i + 1 === body.length)) return undefined;
    if (body[i] === '\\') i++;
  }
  return body;
}

/** One-letter `$'…'` escapes and the byte each gives. */
const ANSI_C_SIMPLE: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, a: 0x07, b: 0x08, e: 0x1b, E: 0x1b, f: 0x0c, v: 0x0b, '\\': 0x5c, "'": 0x27, '"': 0x22, '?': 0x3f };

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A `$'…'` body as bash 5.2 decodes it in a UTF-8 locale (ansicstr in lib/sh/strtrans.c): escapes
 * give bytes; the piece ends at its first NUL (`\0`, `\x0`, `\c@`, `\u0000`…) because bash keeps
 * words as C strings; unknown escapes (`\q`, `\x` without digits, `\c` at the end) keep their
 * backslash. Undefined when the bytes are not UTF-8 (a lone `\xff`) or bash's result is unsure.
 */
function ansiC(body: string): string | undefined {
  const bytes: number[] = [];
  const literal = (text: string) => bytes.push(...utf8.encode(text));
  let i = 0;
  // Reads up to `max` hex digits at i (or all of them when max is Infinity); returns their count and value.
  const hexDigits = (max: number): { count: number; value: number } => {
    const digits = /^[0-9a-fA-F]*/.exec(body.slice(i))![0].slice(0, max);
    i += digits.length;
    return { count: digits.length, value: digits === '' ? 0 : parseInt(digits, 16) };
  };
  while (i < body.length) {
    const char = String.fromCodePoint(body.codePointAt(i)!);
    if (char !== '\\' || i + 1 >= body.length) {
      literal(char);
      i += char.length;
      continue;
    }
    const escape = String.fromCodePoint(body.codePointAt(i + 1)!);
    i += 1 + escape.length;
    const simple = ANSI_C_SIMPLE[escape];
    if (simple !== undefined) {
      bytes.push(simple);
      continue;
    }
    if (/[0-7]/.test(escape)) {
      // The first digit and up to two more.
      const more = /^[0-7]{0,2}/.exec(body.slice(i))![0];
      i += more.length;
      bytes.push(parseInt(escape + more, 8) & 0xff);
    } else if (escape === 'x') {
      if (body[i] === '{') {
        // `\x{HHH…}`: every hex digit up to `}`; bash keeps the low byte.
        i++;
        const { count, value } = hexDigits(Infinity);
        if (count > 6) return undefined;
        if (body[i] === '}') i++;
        bytes.push(value & 0xff);
      } else {
        const { count, value } = hexDigits(2);
        if (count === 0) literal('\\x');
        else bytes.push(value);
      }
    } else if (escape === 'u' || escape === 'U') {
      const { count, value } = hexDigits(escape === 'u' ? 4 : 8);
      if (count === 0) literal(`\\${escape}`);
      else if (value <= 0x7f) bytes.push(value);
      // Surrogates and values past U+10FFFF have no UTF-8 form; bash writes bytes of its own for them.
      else if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
      else literal(String.fromCodePoint(value));
    } else if (escape === 'c') {
      if (i >= body.length) {
        literal('\\c');
        continue;
      }
      const control = body[i]!;
      // bash takes one byte after \c; a multibyte character would leave a broken one behind.
      if (control.charCodeAt(0) > 0x7f) return undefined;
      i++;
      // POSIX: `\c\\` is control-backslash and takes both backslashes.
      if (control === '\\' && body[i] === '\\') i++;
      bytes.push(control === '?' ? 0x7f : control.charCodeAt(0) & 0x1f);
    } else {
      literal(`\\${escape}`);
    }
  }
  const end = bytes.indexOf(0);
  try {
    return strictUtf8.decode(new Uint8Array(end === -1 ? bytes : bytes.slice(0, end)));
  } catch {
    return undefined;
  }
}
