// What each of OpenCode's own grants lets through, in our words (grantMeaning.ts). OpenCode has no
// sandbox: what it allows runs as the user. Its patterns are wildcards (`*` any text, `?` one
// character); a trailing ` *` ends at a word, as Claude Code's do. Pure: no `vscode` import.
import type { CommandChecker } from '../permissionRules';
import type { PathContext } from '../toolPaths';
import type { AgentLedger, GrantMeaning } from './agentGrant';
import { readOpenCodeGrants, type OpenCodeFile, type OpenCodeGrant } from './openCodeGrants';
import { code, notUnderstood, pathMeaning, shellPatternMeaning } from './grantMeaning';

/** Tools whose calls name no file and run nothing. */
const NAMES_NO_FILE = new Set(['todowrite', 'todoread', 'websearch', 'question']);

export function openCodeLedger(files: readonly OpenCodeFile[], checker: CommandChecker | undefined, context: PathContext): AgentLedger {
  const { grants, problems } = readOpenCodeGrants(files);
  return { grants: grants.map((grant) => ({ ...grant, ...openCodeGrantMeaning(grant, checker, { ...context, ...(grant.folder ? { folder: grant.folder } : {}) }) })), problems };
}

export function openCodeGrantMeaning(grant: OpenCodeGrant, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  const what = `${grant.tool === '*' ? 'every tool' : code(grant.tool)}${grant.pattern !== undefined ? ` for ${code(grant.pattern)}` : ''}`;
  if (grant.list === 'deny') return { meaning: `OpenCode refuses ${what} itself` };
  if (grant.list === 'ask') return { meaning: `OpenCode asks for ${what} in its own prompt` };
  const pattern = grant.pattern;
  if (grant.tool === '*')
    return pattern === undefined || pattern === '*' ? { meaning: 'every tool call without asking', broader: 'our rules never allow every call' } : notUnderstood(grant.rule);
  if (grant.tool === 'bash') return shellPatternMeaning(grant.rule, pattern, { colonPrefix: false, outside: 'with no sandbox (OpenCode has none)' }, checker, context);
  if (grant.tool === 'edit' || grant.tool === 'read' || grant.tool === 'external_directory') {
    const verb = grant.tool === 'edit' ? 'editing or writing' : grant.tool === 'read' ? 'reading' : 'reaching, outside the project,';
    return pathMeaning(grant.rule, verb, pattern, pattern?.replace(/^\$HOME(?=\/|$)/, '~'), context);
  }
  if (NAMES_NO_FILE.has(grant.tool) && (pattern === undefined || pattern === '*')) return { meaning: `every ${grant.tool} call (it names no file)` };
  return notUnderstood(grant.rule);
}
