// Decides a shell command line against "Always allow" rules in the shape of VS Code's
// `chat.tools.terminal.autoApprove` setting, and proposes the rules the user may add. Stricter than
// VS Code: an unparsable line always asks, and a prefix rule never allows a sub-command that could
// do more than its prefix shows (see `notCoverable`). Pure: no `vscode` import.
import { commandName, findDangerousArgument } from './dangerousArguments';
import type { ParsedCommandLine, SubCommand } from './shellCommand';

export type CommandRuleValue = boolean | { approve: boolean; matchCommandLine?: boolean };
export type CommandRules = Record<string, CommandRuleValue>;

export interface PartDecision {
  command: SubCommand;
  allowedBy?: string;
  deniedBy?: string;
  /** why a prefix rule could not cover it (a dangerous argument, a leading assignment, a file write, a dynamic word, a never-prefix command) */
  notCoverable?: string;
}
export interface CommandDecision {
  decision: 'allow' | 'deny' | 'ask';
  parts: PartDecision[];
  /** rule keys that decided */
  rules: string[];
  reason: string;
}
export interface OfferedRule { key: string; value: CommandRuleValue; label: string; description: string; kind: 'exact' | 'prefix' | 'line' }

/** Commands no prefix rule may allow, each group with the reason shown to the user. */
const NEVER_PREFIX_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['runs a shell, which can run anything', ['sh', 'bash', 'zsh', 'fish', 'ksh', 'mksh', 'csh', 'tcsh', 'dash', 'ash', 'busybox', 'pwsh', 'powershell', 'cmd', 'nu', 'xonsh', 'elvish']],
  ['runs whatever program it is given', ['python', 'pypy', 'pypy3', 'node', 'nodejs', 'deno', 'bun', 'ruby', 'irb', 'perl', 'php', 'lua', 'luajit', 'Rscript', 'osascript', 'tclsh', 'wish', 'java', 'jshell', 'groovy', 'scala', 'kotlin', 'expect', 'gdb', 'lldb', 'vi', 'vim', 'nvim', 'ex', 'view', 'emacs']],
  ['runs or redefines other commands', ['eval', 'exec', 'source', '.', 'builtin', 'command', 'coproc', 'trap', 'alias', 'unalias', 'shopt', 'set', 'enable', 'hash', 'let', 'fc']],
  ['changes the shell state that later commands run in', ['export', 'declare', 'local', 'readonly', 'typeset', 'unset', 'read', 'mapfile', 'readarray', 'cd', 'pushd', 'popd']],
  ['runs a command as another user', ['sudo', 'su', 'doas', 'pkexec', 'run0', 'runuser', 'sg', 'newgrp']],
  ['runs the command given in its arguments', ['env', 'timeout', 'nice', 'nohup', 'stdbuf', 'xargs', 'parallel', 'watch', 'setsid', 'flock', 'time', 'ionice', 'chrt', 'taskset', 'unbuffer', 'script', 'strace', 'ltrace', 'valgrind', 'nsenter', 'unshare', 'chroot', 'firejail', 'fakeroot', 'proot', 'entr', 'caffeinate', 'systemd-run', 'ssh-agent']],
  ['downloads or opens network connections', ['curl', 'wget', 'aria2c', 'axel', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'ftp', 'tftp', 'lftp']],
  ['is a test whose operands bash may evaluate as code', ['[[', '[', '((']],
];
const NEVER_PREFIX = new Map(NEVER_PREFIX_GROUPS.flatMap(([why, names]) => names.map((name) => [name, why] as const)));

/** Shells and interpreters: an exact rule for one without a program operand would allow any program piped in. */
const READS_PROGRAM = new Set([...NEVER_PREFIX_GROUPS[0]![1], ...NEVER_PREFIX_GROUPS[1]![1]]);
/** Commands driven by their input (`… | xargs rm`): no exact rule of their own, only inside an exact line. */
const INPUT_DRIVEN = new Set(['xargs', 'parallel']);
/** Commands that run the command in their arguments (`sudo bash`, `timeout 5 sh`). */
const RUNS_ARGUMENTS = new Set([...NEVER_PREFIX_GROUPS[4]![1], ...NEVER_PREFIX_GROUPS[5]![1]]);

/** Tools whose first argument is a sub-command: the offered prefix is `tool sub`, never `tool` alone. */
export const MULTI_PURPOSE_TOOLS: ReadonlySet<string> = new Set([
  'git', 'npm', 'npx', 'pnpm', 'yarn', 'docker', 'podman', 'kubectl', 'helm', 'cargo', 'rustup', 'dotnet', 'mvn', 'gradle',
  'go', 'pip', 'uv', 'poetry', 'conda', 'brew', 'apt', 'apt-get', 'dnf', 'yum', 'pacman', 'snap', 'gh', 'az', 'aws',
  'gcloud', 'terraform', 'make', 'just', 'systemctl', 'composer', 'gem', 'bundle', 'dart', 'flutter', 'swift',
]);
/** `tool sub name`: the script or package name is part of the prefix (`npm run build`, not `npm run`). */
const NAMED_SUBS: Record<string, ReadonlySet<string>> = {
  npm: new Set(['run', 'run-script', 'exec', 'x']),
  pnpm: new Set(['run', 'exec', 'dlx']),
  yarn: new Set(['run', 'exec', 'dlx']),
};
export const NEVER_PREFIX_COMMANDS: ReadonlySet<string> = new Set(NEVER_PREFIX.keys());

// ----- rule keys -----

interface RegexKey { regex: RegExp; literal?: string }

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
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
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

/** Why no prefix-style rule may allow this sub-command, or undefined when one may. */
function notCoverableReason(command: SubCommand): string | undefined {
  const name = command.words[0];
  if (command.assignments.length > 0) return `it sets ${command.assignments.join(' ')} for the command`;
  if (name === undefined) return 'it only sets variables';
  if (command.writes.length > 0) return `it writes to ${command.writes.join(', ')}`;
  if (command.dynamic) return 'part of it is only known when it runs (a variable, $(…), a glob or ~)';
  const never = NEVER_PREFIX.get(commandName(name));
  if (never) return `\`${commandName(name)}\` ${never}`;
  const danger = findDangerousArgument(command.words);
  if (danger) return danger.why;
  return undefined;
}

function denies(key: string, command: SubCommand): boolean {
  const regex = regexKey(key);
  if (regex === null) return false;
  if (regex) return regex.regex.test(command.text) || regex.regex.test(command.source);
  const baseWords = command.words.length > 0 ? [commandName(command.words[0]!), ...command.words.slice(1)] : [];
  return plainKeyMatches(key, command.text) || plainKeyMatches(key, command.source) || keyWordsMatch(key, command.words) || keyWordsMatch(key, baseWords);
}

/** Whether an allow rule (not matchCommandLine) allows this sub-command. */
function allows(key: string, command: SubCommand, notCoverable: string | undefined): boolean {
  const regex = regexKey(key);
  if (regex === null) return false;
  if (regex?.literal !== undefined) return command.source === regex.literal;
  if (notCoverable !== undefined) return false;
  if (regex) return regex.regex.test(command.text);
  const quoted = /["'\\$`]/.test(key);
  return plainKeyMatches(key, command.text) && (quoted || keyWordsMatch(key, command.words));
}

// ----- the decision -----

export function decideCommandLine(line: string, parsed: ParsedCommandLine, rules: CommandRules): CommandDecision {
  if (!parsed.ok) return { decision: 'ask', parts: [], rules: [], reason: `The command line could not be checked: ${parsed.reason}.` };
  const entries = Object.entries(rules).flatMap(([key, raw]) => {
    const value = ruleValue(raw);
    return value ? [{ key, ...value }] : [];
  });
  const parts: PartDecision[] = parsed.commands.map((command) => {
    const part: PartDecision = { command };
    const notCoverable = notCoverableReason(command);
    if (notCoverable !== undefined) part.notCoverable = notCoverable;
    const denied = entries.find((r) => !r.approve && !r.matchCommandLine && denies(r.key, command));
    if (denied) part.deniedBy = denied.key;
    const allowed = entries.find((r) => r.approve && !r.matchCommandLine && allows(r.key, command, notCoverable));
    if (allowed) part.allowedBy = allowed.key;
    return part;
  });

  const lineDenials = entries.filter((r) => !r.approve && r.matchCommandLine && lineMatches(r.key, line) !== 'no').map((r) => r.key);
  const partDenials = parts.filter((p) => p.deniedBy !== undefined);
  if (lineDenials.length > 0 || partDenials.length > 0) {
    const keys = unique([...lineDenials, ...partDenials.map((p) => p.deniedBy!)]);
    const what = partDenials[0] ? `\`${partDenials[0].command.text}\`` : 'the command line';
    return { decision: 'deny', parts, rules: keys, reason: `${what} is denied by the rule \`${keys[0]}\`.` };
  }

  // A line rule that is not one exact line still must not cover parts a prefix could not.
  const everyPartCoverable = parts.every((p) => p.notCoverable === undefined);
  const lineRule = entries.find((r) => r.approve && r.matchCommandLine && (lineMatches(r.key, line) === 'exact' || (lineMatches(r.key, line) === 'pattern' && everyPartCoverable)));
  if (lineRule) return { decision: 'allow', parts, rules: [lineRule.key], reason: `The command line is allowed by the rule \`${lineRule.key}\`.` };

  const unallowed = parts.filter((p) => p.allowedBy === undefined);
  if (unallowed.length === 0) {
    return { decision: 'allow', parts, rules: unique(parts.map((p) => p.allowedBy!)), reason: parts.length === 1 ? 'The command is allowed by a rule.' : 'Every part of the command line is allowed by a rule.' };
  }
  const first = unallowed[0]!;
  const why = first.notCoverable ? ` (a prefix rule cannot cover it: ${first.notCoverable})` : '';
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

/** Whether this one rule alone would allow the line (for previews of the commands a rule would have covered). */
export function ruleCovers(key: string, value: CommandRuleValue, line: string, parsed: ParsedCommandLine): boolean {
  return decideCommandLine(line, parsed, { [key]: value }).decision === 'allow';
}

// ----- offered rules -----

/** The prefix a rule may offer for this sub-command, or undefined where no prefix is safe. */
function prefixFor(command: SubCommand): string | undefined {
  const [first, second, third] = command.words;
  if (first === undefined || notCoverableReason(command) !== undefined) return undefined;
  if (!/^[\w.+-]+$/.test(first)) return undefined;
  const name = commandName(first);
  if (!MULTI_PURPOSE_TOOLS.has(name)) return first;
  // A sub-command is a plain name (`test`, `@scope/pkg`); `-x` and `+toolchain` are options before it.
  const isSub = (word: string | undefined): word is string => word !== undefined && /^[A-Za-z0-9@][\w@.:+/-]*$/.test(word);
  if (!isSub(second)) return undefined;
  if (NAMED_SUBS[name]?.has(second)) return isSub(third) ? `${first} ${second} ${third}` : undefined;
  return `${first} ${second}`;
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

export function offeredRules(line: string, parsed: ParsedCommandLine, rules: CommandRules): OfferedRule[] {
  if (!parsed.ok) return [];
  const decision = decideCommandLine(line, parsed, rules);
  if (decision.decision !== 'ask') return [];
  const chained = parsed.commands.length > 1;
  const lineKey = exactRuleKey(line);
  const offered: OfferedRule[] = [];
  const add = (rule: OfferedRule, command: SubCommand): void => {
    if (offered.some((o) => o.key === rule.key)) return;
    // Offer nothing that would not allow the very sub-command it was made for.
    if (!allows(rule.key, command, notCoverableReason(command))) return;
    offered.push(rule);
  };
  for (const part of decision.parts) {
    if (part.allowedBy !== undefined) continue;
    const { command } = part;
    // Where a part is the whole line (`echo $(date)`), the line rule below stands for it.
    if (canOfferExact(command) && !(chained && command.source === line)) {
      add({ key: exactRuleKey(command.source), value: true, label: command.source, description: `Allows exactly \`${command.source}\`, nothing added or changed.`, kind: 'exact' }, command);
    }
    const prefix = prefixFor(command);
    if (prefix !== undefined) {
      add({ key: prefix, value: true, label: `${prefix} …`, description: `Allows \`${prefix}\` with any further arguments, except ones that run other programs or write files.`, kind: 'prefix' }, command);
    }
  }
  if (chained) {
    offered.push({ key: lineKey, value: { approve: true, matchCommandLine: true }, label: line, description: 'Allows exactly this whole command line, every part as shown.', kind: 'line' });
  }
  return offered;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
