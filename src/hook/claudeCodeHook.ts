// Claude Code's PermissionRequest hook: stdin { hook_event_name: "PermissionRequest", tool_name,
// tool_input, session_id, cwd, permission_suggestions, … }; stdout { hookSpecificOutput: {
// hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput } or
// { behavior: "deny", message } } }. Exit 1 is a non-blocking error: Claude Code shows stderr
// and asks in its own prompt.
import type { HookAgent } from './hookAgents';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const claudeCodeHook: HookAgent = {
  name: 'Claude Code',
  approveCall(input) {
    if (!isObject(input) || input['hook_event_name'] !== 'PermissionRequest') {
      return { problem: `expected Claude Code's PermissionRequest hook input (got hook_event_name ${JSON.stringify(isObject(input) ? input['hook_event_name'] : undefined)}); run it from hooks.PermissionRequest` };
    }
    const toolName = input['tool_name'];
    const toolInput = input['tool_input'];
    if (typeof toolName !== 'string' || !toolName || !isObject(toolInput)) return { problem: 'the PermissionRequest input has no tool_name or tool_input' };
    const toolUseId = input['tool_use_id'];
    return { tool_name: toolName, input: toolInput, ...(typeof toolUseId === 'string' ? { tool_use_id: toolUseId } : {}) };
  },
  output(decision) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } });
  },
  noDecisionExitCode: 1,
};
