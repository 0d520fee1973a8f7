// What each of Claude Code's own grants lets through, said in our words and judged by our own
// analysis (grantMeaning.ts): its Bash patterns, its file rules by Claude Code's path syntax, and
// the modes that skip its prompts. Lives in dist/shell.js with the command rules it reads. Pure: no
// `vscode` import.
import type { CommandChecker } from '../permissionRules';
import type { PathContext } from '../toolPaths';
import { hasInvisible } from '../../visibleText';
import type { AgentLedger, GrantMeaning } from './agentGrant';
import { readClaudeCodeGrants, type ClaudeCodeGrant, type ClaudeCodeSettingsFile } from './claudeCodeGrants';
import { code, notUnderstood, pathMeaning, shellPatternMeaning } from './grantMeaning';

/** Claude Code's grants in these files, each with what it lets through. */
export function claudeCodeLedger(files: readonly ClaudeCodeSettingsFile[], checker: CommandChecker | undefined, context: PathContext): AgentLedger {
  const { grants, problems } = readClaudeCodeGrants(files);
  return { grants: grants.map((grant) => ({ ...grant, ...claudeCodeGrantMeaning(grant, checker, { ...context, ...(grant.folder ? { folder: grant.folder } : {}) }) })), problems };
}

/** Tools that read files (Claude Code's Read rules apply to all of them) and tools that edit them (its Edit rules). */
const READS = new Set(['Read', 'Glob', 'Grep', 'LS', 'NotebookRead']);
const EDITS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
/** Tools whose calls name no file and run nothing: our prompt offers «Every <tool> call» for them too. */
const NAMES_NO_FILE = new Set(['TodoWrite', 'WebSearch']);

export function claudeCodeGrantMeaning(grant: ClaudeCodeGrant, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  if (grant.list === 'deny') return { meaning: `Claude Code refuses ${code(grant.rule)} itself` };
  if (grant.list === 'ask') return { meaning: `Claude Code asks for ${code(grant.rule)} in its own prompt` };
  if (grant.list === 'defaultMode') return modeMeaning(grant);
  if (hasInvisible(grant.rule)) return notUnderstood(grant.rule);
  if (grant.rule.startsWith('mcp__')) return { meaning: `the MCP tool ${code(grant.rule)}: not ours to judge` };
  const parsed = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(grant.rule.trim());
  if (!parsed) return notUnderstood(grant.rule);
  const [, tool, specifier] = parsed as unknown as [string, string, string | undefined];
  if (tool === 'Bash') return shellPatternMeaning(grant.rule, specifier, { colonPrefix: true, outside: "in or out of Claude Code's sandbox" }, checker, context);
  if (READS.has(tool) || EDITS.has(tool)) {
    const pattern = specifier?.trim();
    return pathMeaning(
      grant.rule,
      READS.has(tool) ? 'reading' : 'editing or writing',
      pattern,
      pattern === undefined ? undefined : claudeCodePath(grant, pattern, context),
      context,
    );
  }
  if (NAMES_NO_FILE.has(tool) && specifier === undefined) return { meaning: `every ${tool} call (it names no file): as our «${tool}» rule` };
  return notUnderstood(grant.rule);
}

function modeMeaning(grant: ClaudeCodeGrant): GrantMeaning {
  if (grant.rule === 'bypassPermissions')
    return { meaning: 'every tool call without asking (Claude Code\'s "bypass permissions" mode)', broader: 'our rules never allow every call' };
  return {
    meaning: 'every file edit in the working folder without asking (Claude Code\'s "accept edits" mode)',
    broader: 'our rules ask before any edit of protected files (.vscode/, .claude/, .github/workflows/, package.json …)',
  };
}

/** Claude Code's path patterns: `//abs`, `~/home`, `/from the project`, `rel` or `./rel` from the folder it runs in. */
function claudeCodePath(grant: ClaudeCodeGrant, pattern: string, context: PathContext): string | undefined {
  const folder = context.folder ?? context.workspaceFolders[0];
  if (pattern.startsWith('//')) return pattern.slice(1);
  if (pattern.startsWith('~/')) return pattern;
  if (pattern.startsWith('/')) return grant.scope !== 'user' && folder ? `${folder}${pattern}` : undefined;
  return pattern;
}
