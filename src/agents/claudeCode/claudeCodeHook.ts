// Claude Code's hooks. PermissionRequest: stdin { hook_event_name: "PermissionRequest", tool_name,
// tool_input, session_id, transcript_path, cwd, permission_suggestions, … }; stdout
// { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow",
// updatedInput } or { behavior: "deny", message } } }. PreToolUse on its own question tool
// (AskUserQuestion): the approve tool asks the questions in the panel and returns the answers in
// updatedInput, printed as { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput }
// or "deny" with permissionDecisionReason. Exit 1 is a non-blocking error: Claude Code asks in its
// own prompt. It shows its permission prompt while the hook waits, too: an answer there is seen in
// its transcript, and the panel's request is withdrawn. PreToolUse on the tools that read without
// asking (src/hook/readGuard.ts): nothing printed in the workspace; elsewhere sent to the panel and
// answered allow/deny as for the question tool, or `ask` when the panel cannot answer.
import { answeredInTranscript } from './claudeCodeTranscript';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { ASK_USER_QUESTION_TOOL, CLAUDE_READ_TOOLS, CLAUDE_SANDBOX_VAR, DAY_SECONDS, type Confinement } from '../../broker/contract/wireNames';
import { homeFolder } from '../../hook/hookProcess';
import { isObject } from '../../hook/isObject';
import { askOutput, isGuardedRead, readsInWorkspace } from '../../hook/readGuard';
import type { HookAgent } from '../hookAgent';

/** Its built-in question tool: the one tool a PreToolUse hook should send here. */
const QUESTION_TOOL = ASK_USER_QUESTION_TOOL;

/** Whether Claude Code's sandbox can start here: bubblewrap and socat on Linux, Seatbelt on macOS. */
export function claudeCodeSandboxAvailable(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'darwin') return existsSync('/usr/bin/sandbox-exec');
  if (platform !== 'linux') return false;
  const onPath = (name: string) => (env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, name)));
  return onPath('bwrap') && onPath('socat');
}

/**
 * Whether the call runs in Claude Code's sandbox. 2.1 sends the same input for a sandboxed call and
 * for one it runs unsandboxed because the sandbox could not start (it only warns "Sandbox disabled:
 * … socat not installed"), so: our settings are loaded (their `env` marker, beside
 * `sandbox.enabled`), the call does not ask to leave, and what the sandbox needs is here.
 */
export function claudeCodeConfinement(input: unknown, env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): Confinement {
  const toolInput = isObject(input) && isObject(input['tool_input']) ? input['tool_input'] : {};
  if (toolInput['dangerouslyDisableSandbox'] === true || env[CLAUDE_SANDBOX_VAR] !== '1') return 'unsandboxed';
  return claudeCodeSandboxAvailable(env, platform) ? 'sandboxed' : 'unsandboxed';
}

/** The calls our settings send here: every PermissionRequest, PreToolUse for the question tool and the guarded reads. */
const understood = (input: unknown): boolean =>
  isObject(input) &&
  (input['hook_event_name'] === 'PermissionRequest' || (input['hook_event_name'] === 'PreToolUse' && input['tool_name'] === QUESTION_TOOL) || isGuardedRead(input));

export const claudeCodeHook: HookAgent = {
  // VS Code's own agent (chat.useClaudeHooks: PreToolUse on every tool, matchers ignored) and Copilot CLI (camelCase toolName) run our settings' hooks too.
  foreign: (input) => isObject(input) && !understood(input) && (input['hook_event_name'] === 'PreToolUse' || typeof input['toolName'] === 'string'),
  approveCall(input) {
    const event = isObject(input) ? input['hook_event_name'] : undefined;
    if (!isObject(input) || !understood(input)) {
      return {
        problem: `expected Claude Code's PermissionRequest hook input, or PreToolUse for ${QUESTION_TOOL} or ${CLAUDE_READ_TOOLS.join(', ')} (got hook_event_name ${JSON.stringify(event)} for ${JSON.stringify(isObject(input) ? input['tool_name'] : undefined)})`,
      };
    }
    const toolName = input['tool_name'];
    const toolInput = input['tool_input'];
    if (typeof toolName !== 'string' || !toolName || !isObject(toolInput)) return { problem: `the ${String(event)} input has no tool_name or tool_input` };
    const toolUseId = input['tool_use_id'];
    return { tool_name: toolName, input: toolInput, ...(typeof toolUseId === 'string' ? { tool_use_id: toolUseId } : {}) };
  },
  output(decision, input) {
    if (isObject(input) && input['hook_event_name'] === 'PreToolUse') {
      const verdict =
        decision.behavior === 'allow'
          ? { permissionDecision: 'allow', updatedInput: decision.updatedInput }
          : { permissionDecision: 'deny', permissionDecisionReason: decision.message };
      return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...verdict } });
    }
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
  },
  // Claude Code keeps a `cd` between calls: `cwd` is where this call runs.
  folder: (input) => (isObject(input) && typeof input['cwd'] === 'string' ? input['cwd'] : ''),
  confinement: (input, env) => claudeCodeConfinement(input, env),
  ownWay: (input, env) => isGuardedRead(input) && readsInWorkspace(input, env, homeFolder()),
  noDecisionExitCode: 1,
  // Exit 1 on a read outside the workspace would let Claude Code run it unasked: its own prompt asks instead.
  handBackOutput: (input, why) => (isGuardedRead(input) ? askOutput(`Agent Questions could not ask in its panel (${why}); answer here.`) : undefined),
  // Its own prompt stays open while the hook waits: an undecided request is simply the person's there.
  undecided: 'handBack',
  hookTimeoutMs: DAY_SECONDS * 1000,
  answeredElsewhere: (input, signal) => answeredInTranscript(input, signal),
};
