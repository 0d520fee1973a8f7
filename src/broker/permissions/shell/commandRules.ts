// Decides a shell command line against "Always allow" rules in the shape of VS Code's
// `chat.tools.terminal.autoApprove` setting, and proposes the rules the user may add. Stricter than
// VS Code: an unparsable line always asks, and a prefix rule never allows a sub-command that could
// do more than its prefix shows (see `notCoverable`). Rules the prompt offered are read in the
// positive model: a prefix covers a later command only when the tool is in knownTools.ts and every
// argument is one it models, every path inside the workspace; rules the user wrote by hand keep
// VS Code's meaning (a prefix covers what follows) under the dangerous-argument table. Pure: no `vscode` import.
import { commandEffects, effectsSummary } from './commandEffects';
import { commandName, findDangerousArgument } from './dangerousArguments';
import { CODE_RUNNERS, EDITORS, SHELLS } from './programLists';
import { canonicalWords, knownPrefixFor, NPX_LOCAL, specForPrefix, unknownArgument } from './knownTools';
import { runnerFor } from './runners';
import { workspaceCodeOf, type WorkspaceFiles } from './runnerCode';
import { plainCdTarget, type ParsedCommandLine, type SubCommand } from './shellCommand';

/**
 * Where a path resolves: the workspace, outside it, or the protected set (what it is, for the
 * reason; `readable` when only writing it is protected). A relative path is against `from`
 * (absolute, resolved; '' places none), else the folder the line runs in.
 */
export type PathClass = (path: string, from?: string) => { place: 'workspace' | 'outside' | 'protected'; resolved: string; what?: string; readable?: true };

export interface CommandContext {
  /** Rule keys written by hand (the user's settings, VS Code's terminal rules): VS Code's meaning. Every other key is read in the positive model. */
  handWritten?: ReadonlySet<string>;
  /** Where paths resolve; without it, only plain relative paths that stay below the folder count as inside. */
  classify?: PathClass;
  /**
   * The repository git uses when run in a folder (absolute, resolved): its top, and whether that is
   * a workspace folder; undefined when none is found. Without it, git is taken to use the workspace's.
   */
  repository?: (folder: string) => { top: string; isWorkspaceFolder: boolean } | undefined;
  /** The workspace's files (what a runner runs, what a tsconfig writes); without it only the command line is read. */
  files?: WorkspaceFiles;
  /** The paths bash may give for a plain glob run in a folder (PathContext.expandGlob). Without it, globs are asked. */
  expandGlob?: (pattern: string, folder: string) => string[] | undefined;
  /** Whether `npx <name>` run in a folder finds the tool installed in the workspace (node_modules/.bin up to the workspace folder). */
  hasLocalBin?: (name: string, folder: string) => boolean;
}

export type CommandRuleValue = boolean | { approve: boolean; matchCommandLine?: boolean };
export type CommandRules = Record<string, CommandRuleValue>;

export interface PartDecision {
  command: SubCommand;
  allowedBy?: string;
  deniedBy?: string;
  /** why a prefix rule could not cover it (a dangerous argument, a leading assignment, a file write, a dynamic word, a never-prefix command) */
  notCoverable?: string;
  /** why a remembered prefix for its tool did not cover it (an option or path outside the model) */
  notCovered?: string;
  /** why no rule at all may allow it: a write outside the workspace, into protected files, or to a place only known when it runs; it runs outside the workspace folders; git would use another repository */
  alwaysAsk?: string;
  /** a plain `cd dir` into the workspace: it needs no rule, the parts after it are checked in dir */
  movesOnly?: boolean;
}
export interface CommandDecision {
  decision: 'allow' | 'deny' | 'ask';
  parts: PartDecision[];
  /** rule keys that decided */
  rules: string[];
  reason: string;
}
export interface OfferedRule {
  key: string;
  value: CommandRuleValue;
  label: string;
  description: string;
  kind: 'exact' | 'prefix' | 'line';
}

/** Commands no prefix rule may allow, each group with the reason shown to the user. */
export const NEVER_PREFIX_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['runs a shell, which can run anything', SHELLS],
  ['runs whatever program it is given', [...CODE_RUNNERS, ...EDITORS]],
  ['runs or redefines other commands', ['eval', 'exec', 'source', '.', 'builtin', 'command', 'coproc', 'trap', 'alias', 'unalias', 'shopt', 'set', 'enable', 'hash', 'let', 'fc']],
  ['changes the shell state that later commands run in', ['export', 'declare', 'local', 'readonly', 'typeset', 'unset', 'read', 'mapfile', 'readarray', 'cd', 'pushd', 'popd']],
  ['runs a command as another user', ['sudo', 'su', 'doas', 'pkexec', 'run0', 'runuser', 'sg', 'newgrp']],
  [
    'runs the command given in its arguments',
    [
      'env',
      'timeout',
      'nice',
      'nohup',
      'stdbuf',
      'xargs',
      'parallel',
      'watch',
      'setsid',
      'flock',
      'time',
      'ionice',
      'chrt',
      'taskset',
      'unbuffer',
      'script',
      'strace',
      'ltrace',
      'valgrind',
      'nsenter',
      'unshare',
      'chroot',
      'firejail',
      'fakeroot',
      'proot',
      'entr',
      'caffeinate',
      'systemd-run',
      'ssh-agent',
    ],
  ],
  ['downloads or opens network connections', ['curl', 'wget', 'aria2c', 'axel', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'tftp', 'lftp']],
  ['is a test whose operands bash may evaluate as code', ['[[', '[', '((']],
];
const NEVER_PREFIX = new Map(NEVER_PREFIX_GROUPS.flatMap(([why, names]) => names.map((name) => [name.toLowerCase(), why] as const)));

/** Shells and interpreters: an exact rule for one without a program operand would allow any program piped in. */
const READS_PROGRAM = new Set([...NEVER_PREFIX_GROUPS[0]![1], ...NEVER_PREFIX_GROUPS[1]![1]].map((name) => name.toLowerCase()));
/** Commands driven by their input (`… | xargs rm`): no exact rule of their own, only inside an exact line. */
const INPUT_DRIVEN = new Set(['xargs', 'parallel']);
/** Commands that run the command in their arguments (`sudo bash`, `timeout 5 sh`). */
const RUNS_ARGUMENTS = new Set([...NEVER_PREFIX_GROUPS[4]![1], ...NEVER_PREFIX_GROUPS[5]![1]]);

export const NEVER_PREFIX_COMMANDS: ReadonlySet<string> = new Set(NEVER_PREFIX.keys());

// ----- rule keys -----

interface RegexKey {
  regex: RegExp;
  literal?: string;
}

const regexCache = new Map<string, RegexKey | null>();

/** `/pattern/flags` → the compiled pattern (without `g`/`y`) and, for `^literal$`, the literal; null when the key is not a valid regex. */
function regexKey(key: string): RegexKey | null | undefined {
  const close = key.lastIndexOf('/');
  if (!key.startsWith('/') || close < 1) return undefined;
  const flags = key.slice(close + 1);
  if (!/^[dgimsuyv]*$/.test(flags)) return undefined;
  const cached = regexCache.get(key);
  if (cached !== undefined) return cached;
  const source = key.slice(1, close);
  let compiled: RegexKey | null;
  try {
    const regex = new RegExp(source, flags.replace(/[gy]/g, ''));
    const literal = /[im]/.test(flags) ? undefined : exactLiteral(source);
    compiled = literal === undefined ? { regex } : { regex, literal };
  } catch {
    compiled = null;
  }
  if (regexCache.size > 1000) regexCache.clear();
  regexCache.set(key, compiled);
  return compiled;
}

const REGEX_SPECIAL = '\\^$.*+?()[]{}|/';

/** The text `/^text$/` stands for, when the pattern is only escaped literal characters between the anchors. */
function exactLiteral(source: string): string | undefined {
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$') || source.length < 2) return undefined;
  const body = source.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '\\') {
      const next = body[++i];
      if (next === undefined) return undefined;
      if (REGEX_SPECIAL.includes(next) || next === '-') out += next;
      else if (next === 'n') out += '\n';
      else if (next === 'r') out += '\r';
      else if (next === 't') out += '\t';
      else return undefined;
    } else if ('^$.*+?()[]{}|'.includes(char)) {
      return undefined;
    } else {
      out += char;
    }
  }
  return out;
}

function escapeRegex(text: string): string {
  return text
    .replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
}

/** The key of an exact rule for this text: `/^text$/`. */
export function exactRuleKey(text: string): string {
  return `/^${escapeRegex(text)}$/`;
}

/** `"npm test"` matches `npm test` and `npm test …`, never `npm tests`. */
function plainKeyMatches(key: string, text: string): boolean {
  const trimmed = key.trim();
  if (!trimmed || !text.startsWith(trimmed)) return false;
  return text.length === trimmed.length || /\s/.test(text[trimmed.length]!);
}

/** The key's words start the sub-command's words (so a quoted or escaped spelling cannot slip past). */
function keyWordsMatch(key: string, words: readonly string[]): boolean {
  const keyWords = key.trim().split(/\s+/);
  return keyWords.every((word, i) => words[i] === word);
}

function ruleValue(value: unknown): { approve: boolean; matchCommandLine: boolean } | undefined {
  if (typeof value === 'boolean') return { approve: value, matchCommandLine: false };
  if (value && typeof value === 'object' && typeof (value as { approve?: unknown }).approve === 'boolean') {
    const v = value as { approve: boolean; matchCommandLine?: unknown };
    return { approve: v.approve, matchCommandLine: v.matchCommandLine === true };
  }
  return undefined;
}

// ----- one sub-command -----

const NETWORK_DEVICE = /^\/dev\/(tcp|udp)\//;
const NETWORK_IN_TEXT = /\/dev\/(tcp|udp)\/\S*/;

/** Why no prefix-style rule may allow this sub-command, or undefined when one may. */
function notCoverableReason(command: SubCommand): string | undefined {
  const name = command.words[0];
  if (command.assignments.length > 0) return `it sets ${command.assignments.join(' ')} for the command`;
  if (name === undefined) return 'it only sets variables';
  if (command.writes.length > 0) return `it writes to ${command.writes.join(', ')}`;
  if (command.dynamic) return 'part of it is only known when it runs (a variable, $(…), a glob or ~)';
  // bash opens /dev/tcp/host/port and /dev/udp/… in any redirection, reading or writing.
  const network = command.reads.find((r) => NETWORK_DEVICE.test(r)) ?? NETWORK_IN_TEXT.exec(command.source)?.[0];
  if (network) return `it opens a network connection (${network})`;
  // Another spelling of a modelled tool (`python -m pytest`) is judged as that tool.
  const words = canonicalWords(command.words);
  const never = NEVER_PREFIX.get(commandName(words[0]!));
  if (never) return `\`${commandName(words[0]!)}\` ${never}`;
  const danger = findDangerousArgument(words);
  if (danger) return danger.why;
  return undefined;
}

function denies(key: string, command: SubCommand): boolean {
  const regex = regexKey(key);
  if (regex === null) return false;
  if (regex) return regex.regex.test(command.text) || regex.regex.test(command.source);
  const baseWords = command.words.length > 0 ? [commandName(command.words[0]!), ...command.words.slice(1)] : [];
  return (
    plainKeyMatches(key, command.text) ||
    plainKeyMatches(key, command.source) ||
    keyWordsMatch(key, command.words) ||
    keyWordsMatch(key, baseWords) ||
    keyWordsMatch(key, canonicalWords(command.words))
  );
}

/** What the positive model needs to know about where a sub-command runs. */
interface Coverage {
  handWritten: boolean;
  /** Why paths cannot be placed (a `cd` earlier in the line), if so. */
  cwdUnknown?: string;
  /** Places paths from the folder the sub-command runs in. */
  classify: PathClass;
  /** git: the repository's top (absolute), which `:/x`, `:(top)x` and `HEAD:x` name paths from. */
  gitTop?: string;
  files?: WorkspaceFiles;
}

/** Whether an allow rule (not matchCommandLine) allows this sub-command. */
function allows(key: string, command: SubCommand, notCoverable: string | undefined, coverage: Coverage): boolean {
  return allowProblem(key, command, notCoverable, coverage) === undefined;
}

/** Why an allow rule does not allow this sub-command (undefined: it does). */
function allowProblem(key: string, command: SubCommand, notCoverable: string | undefined, coverage: Coverage): string | undefined {
  const regex = regexKey(key);
  if (regex === null) return 'the rule is not a valid pattern';
  if (regex?.literal !== undefined) return command.source === regex.literal ? undefined : 'not this exact text';
  if (notCoverable !== undefined) return notCoverable;
  if (regex) return regex.regex.test(command.text) ? undefined : 'the pattern does not match';
  if (coverage.handWritten) {
    const quoted = /["'\\$`]/.test(key);
    return plainKeyMatches(key, command.text) && (quoted || keyWordsMatch(key, command.words)) ? undefined : 'the prefix does not match';
  }
  return positiveProblem(key, command, coverage);
}

/** The positive model: a remembered prefix covers only a modelled tool's known arguments, paths inside the workspace. */
function positiveProblem(key: string, command: SubCommand, coverage: Coverage): string | undefined {
  const keyWords = key.trim().split(/\s+/);
  const words = canonicalWords(command.words);
  if (!keyWords.every((word, i) => words[i] === word)) return 'the prefix does not match';
  const modelled = specForPrefix(key);
  // A remembered prefix for a tool the table does not model (from an earlier build) covers only itself.
  if (!modelled) return words.length === keyWords.length ? undefined : `\`${keyWords[0]}\` is not a tool whose arguments are modelled, so the rule covers only \`${key}\` itself`;
  const checkPath = (path: string): string | undefined => {
    if (coverage.cwdUnknown) return `\`${path}\` is relative to a folder changed earlier in the line (${coverage.cwdUnknown})`;
    const place = coverage.classify(path);
    if (place.place === 'outside') return `\`${path}\` is outside the workspace`;
    // Files guarded only against writes (package.json, AGENTS.md) may be read under a rule; writes are judged by writeProblem.
    if (place.place === 'protected' && !place.readable) return `\`${path}\` is ${place.what ?? 'protected configuration'}`;
    return undefined;
  };
  for (const input of command.reads) {
    const problem = checkPath(input);
    if (problem) return `it reads ${problem.slice(0)}`;
  }
  return gitTopPathProblem(words.slice(modelled.words), coverage) ?? unknownArgument(modelled.spec, words.slice(modelled.words), checkPath);
}

/**
 * The path a git argument names from the repository's top: pathspec magic (`:/x`, `:(top)x`; the
 * other magic, `:!x`, `:(glob)x`, from the folder git runs in), an index path (`:x`, `:1:x`) or
 * `<rev>:<path>` (`./` and `../` paths from the folder). Undefined for any other argument.
 */
export function gitPathOf(word: string): { path: string; fromTop: boolean } | undefined {
  const fromFolder = (path: string) => /^\.\.?(\/|$)/.test(path);
  const long = /^:\(([^)]*)\)(.*)$/s.exec(word);
  if (long) return { path: long[2]!, fromTop: long[1]!.split(',').includes('top') };
  const short = /^:([/!^]+)(.*)$/s.exec(word);
  if (short) return { path: short[2]!, fromTop: short[1]!.includes('/') };
  const index = /^:(?:[0-3]:)?(.*)$/s.exec(word) ?? /^[\w.^~@{}/-]+:(.*)$/s.exec(word);
  return index ? { path: index[1]!, fromTop: !fromFolder(index[1]!) } : undefined;
}

/** Why a git argument that names a path from the repository's top (gitPathOf) is not in the workspace. */
function gitTopPathProblem(args: readonly string[], coverage: Coverage): string | undefined {
  if (coverage.gitTop === undefined) return undefined;
  for (const word of args) {
    const named = word.startsWith('-') ? undefined : gitPathOf(word);
    if (!named) continue;
    const place = coverage.classify(named.path || '.', named.fromTop ? coverage.gitTop : undefined);
    if (place.place !== 'workspace')
      return `\`${word}\` names \`${place.resolved || named.path}\`, ${place.place === 'protected' ? (place.what ?? 'protected configuration') : 'outside the workspace'}`;
  }
  return undefined;
}

/**
 * Why a sub-command's file writes keep every rule from allowing it: a destination outside the
 * workspace or protected, one known only when it runs (a tar or unzip extraction, a patch, cp -r,
 * `> "$(mktemp)"`), or a deletion outside the workspace (commandEffects.ts reads them).
 */
function writeProblem(command: SubCommand, coverage: Coverage): string | undefined {
  const classify: PathClass = coverage.cwdUnknown ? (path) => (/^[\\/]/.test(path) ? coverage.classify(path) : { place: 'outside', resolved: path }) : coverage.classify;
  // After a cd the files are another folder's: the command line alone is read.
  const effects = commandEffects([command], classify, coverage.cwdUnknown ? undefined : coverage.files);
  const bad = effects.writes.find((w) => w.place !== 'workspace');
  if (bad)
    return `it writes to \`${bad.path}\`, ${bad.place === 'outside' ? (coverage.cwdUnknown ? `relative to a folder changed earlier in the line (${coverage.cwdUnknown})` : 'outside the workspace') : (bad.what ?? 'protected configuration')}`;
  return effects.unknownWrites[0] ?? effects.unsafeDeletes[0];
}

/** Without a classifier: a relative path that never climbs above its folder is inside; anything else is outside. */
function lexicalPlace(path: string, from?: string): ReturnType<PathClass> {
  const relative = !/^([\\/~]|[a-zA-Z]:)/.test(path);
  if (from !== undefined && relative) return from === '' ? { place: 'outside', resolved: '' } : lexicalPlace(`${from}/${path}`);
  let depth = 0;
  for (const part of path.split(/[\\/]+/)) {
    if (part === '..') depth--;
    else if (part !== '.' && part !== '') depth++;
    if (depth < 0) break;
  }
  if (!relative || depth < 0) return { place: 'outside', resolved: path };
  if (/(^|[\\/])\.(git|vscode|claude|codex|opencode)([\\/]|$)/i.test(path)) return { place: 'protected', resolved: path, what: 'agent or editor configuration' };
  return { place: 'workspace', resolved: path };
}

// ----- the decision -----

/** Commands that read nothing from the folder they run in (but the paths they are given): they may be covered anywhere. */
const FOLDER_FREE = new Set(['echo', 'printf', 'pwd', 'true', 'false', 'which', 'sleep']);

/** Where one sub-command runs. */
interface PartFolder {
  /** The folder, resolved, when a `cd` earlier in the line moved it ('' when it cannot be placed); undefined: the line's own. */
  from?: string;
  /** Where it runs, resolved ('' when not known). */
  resolved: string;
  /** Why its relative paths cannot be placed: a folder change earlier in the line that may or may not apply. */
  cwdUnknown?: string;
  /** Why it runs outside the workspace folders, if so. */
  outside?: string;
  /** A plain `cd dir` into the workspace: it only moves the folder for what follows, which is checked there; no rule needed. */
  movesOnly?: boolean;
}

/** Where each sub-command runs: the line's folder (the agent's), moved by plain `cd dir` in `&&` chains (SubCommand.cd). */
function partFolders(commands: readonly SubCommand[], classify: PathClass): PartFolder[] {
  const line = classify('.');
  return commands.map((command) => {
    const change = command.cd;
    let folder: PartFolder;
    if (change && 'unknown' in change) {
      folder = { resolved: '', cwdUnknown: change.unknown };
    } else {
      let place = line;
      let from: string | undefined;
      for (const target of change?.into ?? []) {
        place = classify(target, from);
        from = place.resolved;
      }
      const where = place.resolved ? `\`${place.resolved}\`` : 'a folder that cannot be placed';
      const moved = from !== undefined ? ', a folder changed earlier in the line,' : '';
      const outside =
        place.place === 'workspace'
          ? undefined
          : from === undefined && !place.resolved
            ? 'the agent did not say which folder it runs in'
            : `it runs in ${where}${moved} ${place.place === 'protected' ? `which is ${place.what ?? 'protected configuration'}` : 'outside the workspace folders'}`;
      folder = { ...(from !== undefined ? { from } : {}), resolved: place.resolved, ...(outside ? { outside } : {}) };
    }
    const target = plainCdTarget(command);
    if (target !== undefined && !(folder.cwdUnknown && !/^[\\/]/.test(target)) && classify(target, folder.from).place === 'workspace') folder.movesOnly = true;
    return folder;
  });
}

/**
 * The sub-command as bash and npx run it, when that can be told here. A plain glob (SubCommand.globs)
 * stands for the word as written (what bash passes when nothing matches) and every file it may
 * match, when the folder it lists and each match are in the workspace (or only write-protected);
 * only in a part alone in its line (plain `cd`s aside), as another part could change the files
 * before bash expands them. `npx <tool>` with the tool installed in the workspace is that tool
 * (plain npx downloads a missing one), so its prompt offers «<tool> …». Otherwise the command as parsed.
 */
function asRun(command: SubCommand, folder: PartFolder, alone: boolean, context: CommandContext): SubCommand {
  const where = folder.cwdUnknown ? '' : folder.resolved;
  if (!where) return command;
  let run = command;
  if (command.globs && alone && context.expandGlob) {
    const words = expandGlobs(command, where, coverageFor('', context, folder).classify, context.expandGlob);
    if (words) run = { ...command, words, dynamic: false, globs: undefined };
  }
  const [first, tool] = run.words;
  if (first === 'npx' && tool !== undefined && NPX_LOCAL.has(tool) && !run.dynamic && context.hasLocalBin?.(tool, where)) run = { ...run, words: run.words.slice(1) };
  return run;
}

/** The words with each glob followed by its matches, or undefined when one cannot be listed or may name a file outside the workspace or protected. */
function expandGlobs(command: SubCommand, where: string, classify: PathClass, expand: NonNullable<CommandContext['expandGlob']>): string[] | undefined {
  const words: string[] = [];
  for (const [index, word] of command.words.entries()) {
    if (!command.globs!.includes(index)) {
      words.push(word);
      continue;
    }
    const matches = expand(word, where);
    if (matches === undefined) return undefined;
    for (const path of [word, ...matches]) {
      const place = classify(path);
      if (place.place === 'outside' || (place.place === 'protected' && !place.readable)) return undefined;
    }
    words.push(word, ...matches);
  }
  return words;
}

/** Each sub-command as it runs (asRun), where `folders` are their folders. */
function partsAsRun(commands: readonly SubCommand[], folders: readonly PartFolder[], context: CommandContext): SubCommand[] {
  return commands.map((command, index) =>
    asRun(
      command,
      folders[index]!,
      folders.every((other, j) => j === index || other.movesOnly),
      context,
    ),
  );
}

/**
 * Why git, run as this sub-command, may work on a repository that is not a workspace folder (its
 * configuration and hooks run code: a shipped bare repository's core.fsmonitor, a parent
 * repository's hooks). `-C dir` moves where git starts looking; `--git-dir`, `--work-tree` and
 * `--bare` choose the repository themselves.
 */
function gitRepositoryProblem(command: SubCommand, folder: PartFolder, context: CommandContext): { problem: string } | { top: string } | undefined {
  if (!context.repository || commandName(command.words[0] ?? '') !== 'git') return undefined;
  const classify = context.classify ?? lexicalPlace;
  let start = folder.cwdUnknown ? '' : folder.resolved;
  const words = command.words;
  for (let i = 1; i < words.length && words[i]!.startsWith('-'); i++) {
    const word = words[i]!;
    if (/^--(git-dir|work-tree|bare)(=|$)/.test(word)) return { problem: `git \`${word}\` chooses the repository itself` };
    if (word === '-C') start = start && words[i + 1] !== undefined ? classify(words[++i]!, start).resolved : '';
    else if (word === '-c') i++;
  }
  if (!start) return { problem: 'git runs in a folder that is not known here, so which repository it uses (and what its configuration runs) is not known' };
  const repository = context.repository(start);
  if (!repository) return { problem: `git finds no repository from \`${start}\`` };
  if (!repository.isWorkspaceFolder)
    return { problem: `git uses the repository at \`${repository.top}\`, which is not a workspace folder (its configuration and hooks can run code)` };
  return { top: repository.top };
}

function coverageFor(key: string, context: CommandContext, folder: PartFolder | undefined, gitTop?: string): Coverage {
  const classify = context.classify ?? lexicalPlace;
  return {
    handWritten: context.handWritten?.has(key) ?? false,
    classify: folder?.from === undefined ? classify : (path, from) => classify(path, from ?? folder.from),
    ...(folder?.cwdUnknown ? { cwdUnknown: folder.cwdUnknown } : {}),
    ...(gitTop !== undefined ? { gitTop } : {}),
    ...(context.files ? { files: context.files } : {}),
  };
}

/** What one sub-command is before any rule is read: where it runs, what runs, and what no rule may allow. */
export interface PartFacts {
  command: SubCommand;
  /** The sub-command as it runs (globs expanded, npx's local tool): what rules are checked against. */
  run: SubCommand;
  folder: PartFolder;
  /** git: the repository's top, which `:/x` and `HEAD:x` name paths from. */
  gitTop?: string;
  notCoverable?: string;
  alwaysAsk?: string;
}

/**
 * A command line read once: its parts with their facts, and the card's one line. The decision, the
 * offered rules, their previews and Check a Command all read this; none parses or places again.
 */
export interface LineAnalysis {
  line: string;
  parsed: ParsedCommandLine;
  context: CommandContext;
  parts: PartFacts[];
  /** What the line does, in one line (commandEffects.ts), for the card and Check a Command. */
  summary: string;
  /** Whether the card says it runs this workspace's code (a runner: `npm test` runs package.json's test script). */
  runsWorkspaceCode: boolean;
}

export function analyseCommandLine(line: string, parsed: ParsedCommandLine, context: CommandContext = {}): LineAnalysis {
  const classify = context.classify ?? lexicalPlace;
  if (!parsed.ok) return { line, parsed, context, parts: [], summary: `Not analysed: ${parsed.reason}.`, runsWorkspaceCode: false };
  const folders = partFolders(parsed.commands, classify);
  const runs = partsAsRun(parsed.commands, folders, context);
  const parts = parsed.commands.map((command, index): PartFacts => {
    const folder = folders[index]!;
    const run = runs[index]!;
    const git = gitRepositoryProblem(run, folder, context);
    // Legacy contexts (no repository lookup) take the folder git runs in as its top.
    const gitTop = git && 'top' in git ? git.top : commandName(command.words[0] ?? '') === 'git' && !folder.cwdUnknown ? folder.resolved : undefined;
    const notCoverable = notCoverableReason(run);
    // Outside the workspace folders, a command that reads its folder (`ls`, `grep -r x`, `git status`, `npm test`) is never covered.
    const alwaysAsk =
      writeProblem(run, coverageFor('', context, folder, gitTop)) ??
      (git && 'problem' in git ? git.problem : undefined) ??
      (folder.outside && !folder.movesOnly && !FOLDER_FREE.has(commandName(command.words[0] ?? '')) ? folder.outside : undefined);
    return {
      command,
      run,
      folder,
      ...(gitTop !== undefined ? { gitTop } : {}),
      ...(notCoverable !== undefined ? { notCoverable } : {}),
      ...(alwaysAsk !== undefined ? { alwaysAsk } : {}),
    };
  });
  // Where the line runs, when that is not a workspace folder: its relative paths are read from there.
  const here = classify('.');
  const where = here.place === 'workspace' ? '' : here.resolved ? `Runs in \`${here.resolved}\`, outside the workspace folders. ` : 'Runs in a folder the agent did not name. ';
  const effects = commandEffects(parsed.commands, classify, context.files);
  return { line, parsed, context, parts, summary: where + effectsSummary(effects), runsWorkspaceCode: effects.workspaceCode.length > 0 };
}

/** A line against rules, from scratch (tests, previews of a rule over recent commands). */
export function decideCommandLine(line: string, parsed: ParsedCommandLine, rules: CommandRules, context: CommandContext = {}): CommandDecision {
  return decideAnalysed(analyseCommandLine(line, parsed, context), rules);
}

/** An analysed line against rules: deny from any rule, then allow (an exact line, or every part covered), else ask. */
export function decideAnalysed(analysis: LineAnalysis, rules: CommandRules): CommandDecision {
  const { line, parsed, context } = analysis;
  if (!parsed.ok) return { decision: 'ask', parts: [], rules: [], reason: `The command line could not be checked: ${parsed.reason}.` };
  const entries = Object.entries(rules).flatMap(([key, raw]) => {
    const value = ruleValue(raw);
    return value ? [{ key, ...value }] : [];
  });
  const parts: PartDecision[] = analysis.parts.map((facts) => {
    const { command, run, folder, notCoverable } = facts;
    const part: PartDecision = { command };
    const coverage = (key: string) => coverageFor(key, context, folder, facts.gitTop);
    if (notCoverable !== undefined) part.notCoverable = notCoverable;
    // What is checked is what runs (globs expanded, npx's local tool); deny rules match either.
    const denied = entries.find((r) => !r.approve && !r.matchCommandLine && (denies(r.key, command) || denies(r.key, run)));
    if (denied) part.deniedBy = denied.key;
    const allowed = entries.find((r) => r.approve && !r.matchCommandLine && allows(r.key, run, notCoverable, coverage(r.key)));
    if (allowed) part.allowedBy = allowed.key;
    else if (!part.notCoverable) {
      const why = entries
        .filter((r) => r.approve && !r.matchCommandLine && !regexKey(r.key))
        .map((r) => allowProblem(r.key, run, undefined, coverage(r.key)))
        .find((p) => p !== undefined && p !== 'the prefix does not match');
      if (why) part.notCovered = why;
    }
    if (folder.movesOnly) part.movesOnly = true;
    if (facts.alwaysAsk) {
      part.alwaysAsk = facts.alwaysAsk;
      delete part.allowedBy;
      delete part.movesOnly;
    }
    return part;
  });

  const lineDenials = entries.filter((r) => !r.approve && r.matchCommandLine && lineMatches(r.key, line) !== 'no').map((r) => r.key);
  const partDenials = parts.filter((p) => p.deniedBy !== undefined);
  if (lineDenials.length > 0 || partDenials.length > 0) {
    const keys = unique([...lineDenials, ...partDenials.map((p) => p.deniedBy!)]);
    const what = partDenials[0] ? `\`${partDenials[0].command.text}\`` : 'the command line';
    return { decision: 'deny', parts, rules: keys, reason: `${what} is denied by the rule \`${keys[0]}\`.` };
  }

  const unsafe = parts.find((p) => p.alwaysAsk !== undefined);
  if (unsafe) return { decision: 'ask', parts, rules: [], reason: `\`${unsafe.command.text}\` is always asked: ${unsafe.alwaysAsk}.` };

  // A line rule that is not one exact line still must not cover parts a prefix could not.
  const everyPartCoverable = parts.every((p) => p.notCoverable === undefined);
  const lineRule = entries.find((r) => r.approve && r.matchCommandLine && (lineMatches(r.key, line) === 'exact' || (lineMatches(r.key, line) === 'pattern' && everyPartCoverable)));
  if (lineRule) return { decision: 'allow', parts, rules: [lineRule.key], reason: `The command line is allowed by the rule \`${lineRule.key}\`.` };

  const unallowed = parts.filter((p) => p.allowedBy === undefined && !p.movesOnly);
  if (unallowed.length === 0 && parts.some((p) => p.allowedBy !== undefined)) {
    return {
      decision: 'allow',
      parts,
      rules: unique(parts.flatMap((p) => (p.allowedBy !== undefined ? [p.allowedBy] : []))),
      reason: parts.length === 1 ? 'The command is allowed by a rule.' : 'Every part of the command line is allowed by a rule.',
    };
  }
  const first = unallowed[0] ?? parts[0]!;
  if (unallowed.length === 0) return { decision: 'ask', parts, rules: [], reason: 'The command line only changes folder; no rule allows it alone.' };
  const why = first.notCoverable ? ` (a prefix rule cannot cover it: ${first.notCoverable})` : first.notCovered ? ` (${first.notCovered})` : '';
  return { decision: 'ask', parts, rules: [], reason: `\`${first.command.text}\` is not allowed by any rule${why}.` };
}

/** How a matchCommandLine rule key matches the whole line: an exact line, a pattern or plain prefix, or not at all. */
function lineMatches(key: string, line: string): 'exact' | 'pattern' | 'no' {
  const regex = regexKey(key);
  if (regex === null) return 'no';
  if (regex?.literal !== undefined) return regex.literal === line ? 'exact' : 'no';
  if (regex) return regex.regex.test(line) ? 'pattern' : 'no';
  return plainKeyMatches(key, line) ? 'pattern' : 'no';
}

// ----- offered rules -----

/** The prefix a rule may offer for this sub-command: only for a tool whose arguments are modelled, named in lower case. */
function prefixFor(command: SubCommand): string | undefined {
  if (command.words[0] === undefined || notCoverableReason(command) !== undefined) return undefined;
  return knownPrefixFor(command.words);
}

/**
 * Whether this sub-command may take the program it runs from its input (`sh`, `python3 -`, `xargs rm`,
 * `sudo -u x bash`): an exact rule for it would allow whatever another allowed command pipes into it.
 */
function mayRunItsInput(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i++) {
    const name = commandName(words[i]!);
    if (INPUT_DRIVEN.has(name)) return true;
    if (READS_PROGRAM.has(name)) {
      const rest = words.slice(i + 1);
      return rest.includes('-') || rest.includes('-s') || rest.every((w) => w.startsWith('-'));
    }
    // Past the first word, keep looking only behind wrappers such as sudo, env or timeout.
    if (i === 0 && !RUNS_ARGUMENTS.has(name)) return false;
  }
  return false;
}

function canOfferExact(command: SubCommand): boolean {
  const first = command.words[0];
  if (first === undefined) return true;
  // A command name only known when it runs (`$CMD x`) makes even the exact text mean anything.
  if (/[$`*?~{]/.test(first) || (first.includes('[') && first !== '[' && first !== '[[')) return false;
  return !mayRunItsInput(command.words);
}

/** The rules a prompt offers for a line, from scratch (tests). */
export function offeredRules(line: string, parsed: ParsedCommandLine, rules: CommandRules, context: CommandContext = {}): OfferedRule[] {
  const analysis = analyseCommandLine(line, parsed, context);
  return offersFor(analysis, decideAnalysed(analysis, rules));
}

/** The rules a prompt offers for an analysed line it asks about: for each part no rule allows, its exact text and its tool's prefix; for a chain, the exact line. */
export function offersFor(analysis: LineAnalysis, decision: CommandDecision): OfferedRule[] {
  const { line, parsed } = analysis;
  // An offered rule is remembered: it is read in the positive model, whatever the user wrote by hand.
  const { handWritten: _handWritten, ...context } = analysis.context;
  // A write no rule may allow (outside the workspace, protected, unknown) is asked every time: nothing to offer.
  if (!parsed.ok || decision.decision !== 'ask' || decision.parts.some((p) => p.alwaysAsk !== undefined)) return [];
  const chained = parsed.commands.length > 1;
  const lineKey = exactRuleKey(line);
  const offered: OfferedRule[] = [];
  let folder: PartFolder | undefined;
  const add = (rule: OfferedRule, command: SubCommand): void => {
    if (offered.some((o) => o.key === rule.key)) return;
    // Offer nothing that would not allow the very sub-command it was made for (as it runs).
    if (!allows(rule.key, command, notCoverableReason(command), coverageFor(rule.key, context, folder))) return;
    offered.push(rule);
  };
  for (const [index, part] of decision.parts.entries()) {
    const { command } = part;
    const { run } = analysis.parts[index]!;
    folder = analysis.parts[index]!.folder;
    if (part.allowedBy !== undefined) continue;
    // The workspace's files are read where the line runs, not after a `cd` moved it.
    const runsCode = runsWorkspaceCode(run, folder.cwdUnknown === undefined && folder.from === undefined ? context.files : undefined);
    // Where a part is the whole line (`echo $(date)`), the line rule below stands for it.
    if (canOfferExact(command) && !(chained && command.source === line)) {
      add(
        {
          key: exactRuleKey(command.source),
          value: true,
          label: command.source,
          description: `Allows exactly \`${command.source}\`, nothing added or changed.${runsCode}`,
          kind: 'exact',
        },
        run,
      );
    }
    const prefix = prefixFor(run);
    if (prefix !== undefined) {
      add(
        {
          key: prefix,
          value: true,
          label: `${prefix} …`,
          description: `Allows \`${prefix}\` with the options it is known to take and files inside the workspace; anything else is asked.${runsCode}`,
          kind: 'prefix',
        },
        run,
      );
    }
  }
  if (chained) {
    offered.push({
      key: lineKey,
      value: { approve: true, matchCommandLine: true },
      label: line,
      description: 'Allows exactly this whole command line, every part as shown.',
      kind: 'line',
    });
  }
  return offered;
}

/** For a runner (runners.ts), what an offered rule allows it to run, named as the files allow; else ''. */
function runsWorkspaceCode(command: SubCommand, files: WorkspaceFiles | undefined): string {
  const [first, ...args] = command.words;
  if (first === undefined) return '';
  const name = commandName(first);
  const code = workspaceCodeOf(
    name,
    args.find((a) => !a.startsWith('-')),
    args,
    files,
  );
  if (code === undefined && !runnerFor(name)) return '';
  return ` It runs this workspace's code: ${code ?? runnerFor(name)!.runs}: whatever that code does, now and after every edit.`;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
