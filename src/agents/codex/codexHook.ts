// Codex CLI's PermissionRequest hook (0.171): stdin { hook_event_name: "PermissionRequest",
// tool_name ("Bash" for shell commands and network access), tool_input { command, description? },
// session_id, turn_id, cwd, model, permission_mode, transcript_path }; stdout { hookSpecificOutput:
// { hookEventName: "PermissionRequest", decision: { behavior: "allow" } or { behavior: "deny",
// message } } }. Codex fails closed on `updatedInput` (reserved), so an allow carries none. Exit 2
// would be a denial; exit 1 is a failed hook, which the TUI follows with its own prompt but
// `codex exec --approve-for-me` hands to its automatic reviewer (a model): so no decision is a denial here.
import { isObject } from '../../hook/isObject';
import { DAY_SECONDS } from '../../broker/contract/wireNames';
import type { HookAgent } from '../hookAgent';

export const codexHook: HookAgent = {
  approveCall(input) {
    if (!isObject(input) || input['hook_event_name'] !== 'PermissionRequest') {
      return {
        problem: `expected Codex's PermissionRequest hook input (got hook_event_name ${JSON.stringify(isObject(input) ? input['hook_event_name'] : undefined)}); run it from [[hooks.PermissionRequest]]`,
      };
    }
    const toolName = input['tool_name'];
    const toolInput = input['tool_input'];
    if (typeof toolName !== 'string' || !toolName || !isObject(toolInput)) return { problem: 'the PermissionRequest input has no tool_name or tool_input' };
    return { tool_name: toolName, input: toolInput };
  },
  output(decision) {
    const codexDecision = decision.behavior === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: decision.message };
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: codexDecision } });
  },
  folder: (input) => (isObject(input) && typeof input['cwd'] === 'string' ? input['cwd'] : ''),
  // Codex runs commands in its sandbox without asking, and asks only to leave it.
  confinement: () => 'unsandboxed',
  noDecisionExitCode: 1,
  // `codex exec --approve-for-me` sends a request its hook left undecided to Codex's automatic reviewer, a model.
  undecided: 'deny',
  hookTimeoutMs: DAY_SECONDS * 1000,
};
