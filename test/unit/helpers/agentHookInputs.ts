// Recorded PreToolUse hook inputs of VS Code's agent and Copilot, in the shapes read in VS Code 1.139.1 /
// Copilot Chat 0.67.0 (Local harness), its Agent Host (Copilot harness) and Copilot CLI's file hooks.

/** The folder the agent works in. */
export const PROJECT = '/home/dev/project';

/** The Local harness's PreToolUse input (snake_case). */
export const local = (tool_name: string, tool_input: Record<string, unknown>) => ({
  timestamp: '2026-12-05T18:00:00.000Z',
  hook_event_name: 'PreToolUse',
  session_id: 'b7a3f0de-0c55-4f7e-9d61-2f4f6f0c1a2b',
  transcript_path: '/home/dev/.vscode-server/data/User/workspaceStorage/1a2b/GitHub.copilot-chat/transcripts/b7a3f0de.jsonl',
  cwd: PROJECT,
  tool_name,
  tool_input,
  tool_use_id: 'call_8PqL2vX1',
});
/** The Copilot harness (Agent Host): camelCase, toolArgs an object. */
export const copilot = (toolName: string, toolArgs: Record<string, unknown>) => ({ timestamp: 1796493600000, cwd: PROJECT, toolName, toolArgs });
/** Copilot CLI's file hooks: toolArgs a JSON string. */
export const copilotCli = (toolName: string, toolArgs: Record<string, unknown>) => ({ timestamp: 1796493600000, cwd: PROJECT, toolName, toolArgs: JSON.stringify(toolArgs) });
