// Claude Code runs read-only commands (`cat .ssh/id_rsa`) and its Read tool in the folder it works in
// (the one it was started in) without a permission prompt, so its PermissionRequest hook never sees
// them. Our settings run its PreToolUse hook on those tools (CLAUDE_READ_TOOLS): a call whose folders
// (the hook input's `cwd`, and $CLAUDE_PROJECT_DIR when set) lie in the window's workspace folders
// goes Claude Code's own way; any other call is sent to the panel, and what the hook cannot get
// answered there is an `ask`. Without the window's folders (no discovery record: Claude Code started
// outside a VS Code terminal, or the endpoint off) there is nothing to compare with, and every read
// would be a prompt: Claude Code's own way, as without the guard. (An `ask` alone does not reach the
// panel: seen with 2.1.332, print mode denies it without running the PermissionRequest hook.)
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { CLAUDE_READ_TOOLS, MCP_URL_VAR } from '../broker/contract/wireNames';
import { isUnder, windowFolders } from './findEndpoint';
import { isObject } from './isObject';

/** Whether the hook input is Claude Code's PreToolUse for one of the tools that read without asking. */
export const isGuardedRead = (input: unknown): boolean =>
  isObject(input) && input['hook_event_name'] === 'PreToolUse' && typeof input['tool_name'] === 'string' && CLAUDE_READ_TOOLS.includes(input['tool_name']);

/** A workspace folder opened through a link, as Claude Code's `cwd` names it (resolved). */
function realPath(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Whether the call may go Claude Code's own way: every folder it works in lies in a workspace folder of
 * the window whose endpoint the hook asks (read from its discovery file: no round trip), or that
 * window's folders cannot be learned.
 */
export function readsInWorkspace(input: unknown, env: Record<string, string | undefined>, home: string): boolean {
  const folders = windowFolders(env[MCP_URL_VAR] ?? '', env, home)?.flatMap((folder) => [folder, realPath(folder)]);
  if (!folders) return true;
  const cwd = isObject(input) ? input['cwd'] : undefined;
  if (typeof cwd !== 'string') return false;
  const places = env['CLAUDE_PROJECT_DIR'] ? [cwd, env['CLAUDE_PROJECT_DIR']] : [cwd];
  return places.every((place) => isAbsolute(place) && folders.some((folder) => isUnder(place, folder)));
}

/** Claude Code's PreToolUse answer that shows the person its own permission prompt (print mode: a denial). */
export const askOutput = (reason: string): string =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: reason } });
