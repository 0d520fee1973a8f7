// What each of Claude Code's own grants lets through, said in our words and judged by our own
// analysis: a grant is "no broader than ours" only when it can be shown (an exact command our exact
// rule would allow, one file that is not protected, a tool that names no file); anything else that
// it lets through, or that is not understood here, is marked. Lives in dist/shell.js with the
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
import { readClaudeCodeGrants, type ClaudeCodeGrant, type ClaudeCodeSettingsFile, type GrantFileProblem } from './claudeCodeGrants';

export interface GrantMeaning {
  /** What the grant lets through, in our words. */
  meaning: string;
  /** Why it lets through what our rules would ask; absent when shown no broader, or not ours to judge. */
  broader?: string;
}

export type TranslatedGrant = ClaudeCodeGrant & GrantMeaning;

export const NOT_UNDERSTOOD = 'not understood';

/** Claude Code's grants in these files, each with what it lets through. */
export function claudeCodeLedger(
  files: readonly ClaudeCodeSettingsFile[],
  checker: CommandChecker | undefined,
  context: PathContext,
): { grants: TranslatedGrant[]; problems: GrantFileProblem[] } {
  const { grants, problems } = readClaudeCodeGrants(files);
  return { grants: grants.map((grant) => ({ ...grant, ...claudeCodeGrantMeaning(grant, checker, { ...context, ...(grant.folder ? { folder: grant.folder } : {}) }) })), problems };
}

/** Tools that read files (Claude Code's Read rules apply to all of them) and tools that edit them (its Edit rules). */
const READS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
const EDITS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Tools whose calls name no file and run nothing: our prompt offers «Every <tool> call» for them too. */
const NAMES_NO_FILE = new Set(['TodoWrite', 'WebSearch']);

const NEVER_PREFIX = new Map(NEVER_PREFIX_GROUPS.flatMap(([why, names]) => names.map((name) => [name.toLowerCase(), why] as const)));

/** What a broad prefix also runs, for the sentence (the marking does not depend on it). */
const ALSO_RUNS: Readonly<Record<string, readonly string[]>> = {
  npm: ['npm exec', 'npm config set'],
  npx: ['npx <any package>'],
  yarn: ['yarn dlx', 'yarn config set'],
  pnpm: ['pnpm dlx', 'pnpm config set'],
  git: ['git push', 'git config'],
};

const code = (text: string) => `\`${text}\``;
const notUnderstood = (grant: ClaudeCodeGrant): GrantMeaning => ({ meaning: `${code(grant.rule)}: not understood here`, broader: NOT_UNDERSTOOD });

export function claudeCodeGrantMeaning(grant: ClaudeCodeGrant, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  if (grant.list === 'deny') return { meaning: `Claude Code refuses ${code(grant.rule)} itself` };
  if (grant.list === 'ask') return { meaning: `Claude Code asks for ${code(grant.rule)} in its own prompt` };
  if (grant.list === 'defaultMode') return modeMeaning(grant);
  if (hasInvisible(grant.rule)) return notUnderstood(grant);
  if (grant.rule.startsWith('mcp__')) return { meaning: `the MCP tool ${code(grant.rule)}: not ours to judge` };
  const parsed = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(grant.rule.trim());
  if (!parsed) return notUnderstood(grant);
  const [, tool, specifier] = parsed as unknown as [string, string, string | undefined];
  if (tool === 'Bash') return bashMeaning(grant, specifier, checker, context);
  if (READS.has(tool) || EDITS.has(tool)) return pathMeaning(grant, READS.has(tool) ? 'reading' : 'editing or writing', specifier, context);
  if (NAMES_NO_FILE.has(tool) && specifier === undefined) return { meaning: `every ${tool} call (it names no file): as our «${tool}» rule` };
  return notUnderstood(grant);
}

function modeMeaning(grant: ClaudeCodeGrant): GrantMeaning {
  if (grant.rule === 'bypassPermissions')
    return { meaning: 'every tool call without asking (Claude Code\'s "bypass permissions" mode)', broader: 'our rules never allow every call' };
  return {
    meaning: 'every file edit in the working folder without asking (Claude Code\'s "accept edits" mode)',
    broader: 'our rules ask before any edit of protected files (.vscode/, .claude/, .github/workflows/, package.json …)',
  };
}

function bashMeaning(grant: ClaudeCodeGrant, specifier: string | undefined, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  const text = specifier?.trim();
  if (text === undefined || text === '' || text === '*' || text === ':*') return { meaning: 'any shell command', broader: 'our rules never allow every command' };
  const wordPrefix = wordPrefixOf(text);
  if (wordPrefix !== undefined) return wordPrefix.includes('*') || wordPrefix === '' ? notUnderstood(grant) : prefixMeaning(wordPrefix, checker, context);
  if (text.endsWith('*')) {
    const start = text.slice(0, -1);
    if (start.includes('*')) return notUnderstood(grant);
    return { meaning: `any command whose text starts with ${code(start)} (also ${code(`${start}x…`)})`, broader: 'our rules never match a command by the start of its text' };
  }
  if (text.includes('*') || !checker) return notUnderstood(grant);
  // Exactly this command: no broader when our exact rule for it would allow it.
  if (protectedMentions(text, context).length > 0) return { meaning: `exactly ${code(text)}`, broader: 'it names protected configuration: our rules always ask for it' };
  const decision = decideUnder(text, exactRuleKey(text), checker, context);
  // Claude Code's grant holds outside its sandbox too, where our rule for a runner covers nothing.
  const outside = decision.decision === 'allow' ? leavesSandbox('unsandboxed', decision.parts) : undefined;
  if (outside) return { meaning: `exactly ${code(text)}, in or out of Claude Code's sandbox`, broader: outside };
  if (decision.decision === 'allow') return { meaning: `exactly ${code(text)}: our exact rule «${text}» allows the same` };
  return { meaning: `exactly ${code(text)}`, broader: `our rules ask for it even under the same exact rule: ${decision.reason}` };
}

/** Claude Code's prefixes: `npm:*` (legacy) and `npm *` end at a word (`ls*` is any text that starts so, not a word prefix). */
export function wordPrefixOf(specifier: string): string | undefined {
  return /^(.*?)(?::\*| \*)$/s.exec(specifier.trim())?.[1]?.trim();
}

function prefixMeaning(prefix: string, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
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

/** Claude Code's path patterns: `//abs`, `~/home`, `/from the project`, `rel` or `./rel` from the folder it runs in. */
function pathMeaning(grant: ClaudeCodeGrant, verb: string, specifier: string | undefined, context: PathContext): GrantMeaning {
  const protectedSet = 'protected configuration (.vscode/, .claude/, .git/, .github/workflows/, ~/.ssh/ …), which our rules always ask for';
  const pattern = specifier?.trim();
  if (pattern === undefined || pattern === '' || pattern === '*' || pattern === '**') return { meaning: `${verb} any file`, broader: `it covers ${protectedSet}` };
  if (/[*?[\]{}]/.test(pattern)) return { meaning: `${verb} files matching ${code(pattern)}`, broader: `it may cover ${protectedSet}; only a single file can be shown no broader` };
  const folder = context.folder ?? context.workspaceFolders[0];
  const path = pattern.startsWith('//')
    ? pattern.slice(1)
    : pattern.startsWith('~/')
      ? pattern
      : pattern.startsWith('/')
        ? grant.scope !== 'user' && folder
          ? `${folder}${pattern}`
          : undefined
        : pattern;
  if (path === undefined) return notUnderstood(grant);
  const place = placeOf(path, context, folder);
  if (place.place === 'protected') return { meaning: `${verb} ${code(pattern)}`, broader: `it is ${place.what}: our rules always ask for it` };
  if (!place.resolved) return notUnderstood(grant);
  const outside = place.place === 'outside' ? ' (outside the workspace)' : '';
  return { meaning: `${verb} ${code(place.resolved)} only${outside}: as our rule for that one file` };
}
