// What an agent's own grant for shell commands or files lets through, said in our words and judged
// by our own analysis, whichever agent wrote it: a grant is "no broader than ours" only when it can
// be shown (an exact command our exact rule would allow, one file that is not protected); anything
// else it lets through, or that is not understood here, is marked. Lives in dist/shell.js with the
// command rules it reads. Pure: no `vscode` import.
import type { CommandChecker } from '../permissionRules';
import { commandPlaces } from '../agentFolder';
import { exactRuleKey, NEVER_PREFIX_GROUPS } from '../shell/commandRules';
import { commandName } from '../shell/dangerousArguments';
import { KNOWN_TOOL_EXAMPLES } from '../shell/knownToolExamples';
import { KNOWN_TOOLS, knownPrefixFor } from '../shell/knownTools';
import { placeOf, protectedMentions, type PathContext } from '../toolPaths';
import { hasInvisible } from '../../visibleText';
import { leavesSandbox } from '../runnerConfinement';
import type { GrantMeaning } from './agentGrant';

export const NOT_UNDERSTOOD = 'not understood';

export const code = (text: string) => `\`${text}\``;
export const notUnderstood = (rule: string): GrantMeaning => ({ meaning: `${code(rule)}: not understood here`, broader: NOT_UNDERSTOOD });
export const ANY_COMMAND: GrantMeaning = { meaning: 'any shell command', broader: 'our rules never allow every command' };

/** How a shell pattern is written: Claude Code's `npm:*` is a word prefix; OpenCode's `?` matches one character. */
export interface PatternSyntax {
  colonPrefix: boolean;
  /** Said of an exact command: where it runs (the agent's grant holds outside any sandbox of ours). */
  outside: string;
}

/** `npm *` ends at a word (and so does Claude Code's legacy `npm:*`): its prefix; `ls*` is any text that starts so, no word prefix. */
export function wordPrefixOf(pattern: string, colonPrefix: boolean): string | undefined {
  return (colonPrefix ? /^(.*?)(?::\*| \*)$/s : /^(.*?) \*$/s).exec(pattern.trim())?.[1]?.trim();
}

/** A shell pattern (`npm *`, `ls*`, `git status`, `*`): what it lets through. */
export function shellPatternMeaning(rule: string, pattern: string | undefined, syntax: PatternSyntax, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  const text = pattern?.trim();
  if (hasInvisible(rule)) return notUnderstood(rule);
  if (text === undefined || text === '' || text === '*' || (syntax.colonPrefix && text === ':*')) return ANY_COMMAND;
  const wordPrefix = wordPrefixOf(text, syntax.colonPrefix);
  if (wordPrefix !== undefined) return /[*?]/.test(wordPrefix) || wordPrefix === '' ? notUnderstood(rule) : prefixMeaning(wordPrefix, checker, context);
  if (text.endsWith('*')) {
    const start = text.slice(0, -1);
    if (/[*?]/.test(start)) return notUnderstood(rule);
    return { meaning: `any command whose text starts with ${code(start)} (also ${code(`${start}x…`)})`, broader: 'our rules never match a command by the start of its text' };
  }
  if (/[*?]/.test(text) || !checker) return notUnderstood(rule);
  return exactMeaning(text, syntax.outside, checker, context);
}

/** Exactly this command: no broader when our exact rule for it would allow it. */
function exactMeaning(text: string, outside: string, checker: CommandChecker, context: PathContext): GrantMeaning {
  if (protectedMentions(text, context).length > 0) return { meaning: `exactly ${code(text)}`, broader: 'it names protected configuration: our rules always ask for it' };
  const decision = decideUnder(text, exactRuleKey(text), checker, context);
  // The agent's grant holds outside any sandbox, where our rule for a runner covers nothing.
  const leaves = decision.decision === 'allow' ? leavesSandbox('unsandboxed', decision.parts) : undefined;
  if (leaves) return { meaning: `exactly ${code(text)}, ${outside}`, broader: leaves };
  if (decision.decision === 'allow') return { meaning: `exactly ${code(text)}: our exact rule «${text}» allows the same` };
  return { meaning: `exactly ${code(text)}`, broader: `our rules ask for it even under the same exact rule: ${decision.reason}` };
}

const NEVER_PREFIX = new Map(NEVER_PREFIX_GROUPS.flatMap(([why, names]) => names.map((name) => [name.toLowerCase(), why] as const)));

/** What a broad prefix also runs, for the sentence (the marking does not depend on it). */
const ALSO_RUNS: Readonly<Record<string, readonly string[]>> = {
  npm: ['npm exec', 'npm config set'],
  npx: ['npx <any package>'],
  yarn: ['yarn dlx', 'yarn config set'],
  pnpm: ['pnpm dlx', 'pnpm config set'],
  git: ['git push', 'git config'],
};

/** Every command that starts with these words: always broader than a rule of ours. */
export function prefixMeaning(prefix: string, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  const words = prefix.split(/\s+/);
  const never = NEVER_PREFIX.get(commandName(words[0]!).toLowerCase());
  if (never) return { meaning: `any command that starts with ${code(prefix)}: ${words[0]} ${never}, so anything`, broader: 'our rules never offer a rule for it' };
  if (knownPrefixFor(words) === prefix) {
    // The lines our own «prefix …» rule still asks for, checked here with our analysis.
    const examples = examplesFor(prefix).filter((line) => asksUnder(line, prefix, checker, context));
    const including = examples.length > 0 ? `, including ${examples.slice(0, 2).map(code).join(' and ')}` : '';
    return {
      meaning: `any ${code(prefix)} command, with any options and paths${including}`,
      broader: `our «${prefix} …» rule covers only the options it knows and files inside the workspace, and asks for the rest`,
    };
  }
  const also = ALSO_RUNS[prefix] ?? [];
  const narrower = Object.keys(KNOWN_TOOLS)
    .filter((key) => key.startsWith(`${prefix} `))
    .slice(0, 3)
    .map((key) => `«${key} …»`);
  return {
    meaning: `any ${code(prefix)} command${also.length > 0 ? `, including ${also.map(code).join(' and ')}` : ', with any arguments'}`,
    broader: `our rules ask for these: they offer no rule for ${code(prefix)} as a whole${narrower.length > 0 ? `, only narrower ones (${narrower.join(', ')})` : ''}`,
  };
}

/** The everyday lines our rule for this prefix asks for (knownToolExamples.ts), by the prefix's tool. */
function examplesFor(prefix: string): readonly string[] {
  const words = prefix.split(' ');
  const key = [prefix, words.slice(0, 2).join(' '), words[0]!].find((k) => KNOWN_TOOL_EXAMPLES[k] !== undefined);
  return (key ? KNOWN_TOOL_EXAMPLES[key]!.asks : []).filter((line) => line === prefix || line.startsWith(`${prefix} `));
}

function asksUnder(line: string, prefix: string, checker: CommandChecker | undefined, context: PathContext): boolean {
  return checker !== undefined && decideUnder(line, prefix, checker, context).decision !== 'allow';
}

/** How our analysis decides `line` with `ruleKey` as the only rule, allowed. */
function decideUnder(line: string, ruleKey: string, checker: CommandChecker, context: PathContext) {
  return checker.decide(checker.analyse(line, checker.parse(line), commandPlaces(context)), { [ruleKey]: true });
}

const PROTECTED_SET = 'protected configuration (.vscode/, .claude/, .git/, .github/workflows/, ~/.ssh/ …), which our rules always ask for';

/**
 * Reading or editing the files a path pattern names; `path` is the pattern as a path (absolute, `~/…`
 * or relative to the context's folder), undefined when the agent's syntax cannot be placed here.
 */
export function pathMeaning(rule: string, verb: string, pattern: string | undefined, path: string | undefined, context: PathContext): GrantMeaning {
  if (pattern === undefined || pattern === '' || pattern === '*' || pattern === '**') return { meaning: `${verb} any file`, broader: `it covers ${PROTECTED_SET}` };
  if (/[*?[\]{}]/.test(pattern))
    return { meaning: `${verb} files matching ${code(pattern)}`, broader: `it may cover ${PROTECTED_SET}; only a single file can be shown no broader` };
  if (path === undefined) return notUnderstood(rule);
  const place = placeOf(path, context, context.folder ?? context.workspaceFolders[0]);
  if (place.place === 'protected') return { meaning: `${verb} ${code(pattern)}`, broader: `it is ${place.what}: our rules always ask for it` };
  if (!place.resolved) return notUnderstood(rule);
  const outside = place.place === 'outside' ? ' (outside the workspace)' : '';
  return { meaning: `${verb} ${code(place.resolved)} only${outside}: as our rule for that one file` };
}
