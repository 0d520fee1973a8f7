// How a hook command names itself to the MCP endpoint, shared by the command and the endpoint: the
// clientInfo name says which agent's hook asks, so the panel can show the way it connected.
// Self-reported like every client name: anyone with the token can claim it.

/** The question tool the approve tool asks as a question request (src/broker/approveTool.ts; not imported here, it would bundle zod). */
export const ASK_USER_QUESTION_TOOL = 'AskUserQuestion';

/** clientInfo.name of the hook command is this prefix plus the agent argument, e.g. "agent-questions-hook:codex". */
export const HOOK_CLIENT_PREFIX = 'agent-questions-hook:';

/** The agents whose hooks run the command (its `<agent>` argument), with the way the panel shows. */
export const HOOK_WAYS: Readonly<Record<string, string>> = {
  'claude-code': 'Claude Code hook',
  codex: 'Codex hook',
  opencode: 'OpenCode plugin',
};

/** The way a client connected, from its self-reported clientInfo name: one of HOOK_WAYS, else "MCP client". */
export function connectionWay(clientName: string | undefined): string {
  const agent = clientName?.startsWith(HOOK_CLIENT_PREFIX) ? clientName.slice(HOOK_CLIENT_PREFIX.length) : undefined;
  return (agent !== undefined && Object.hasOwn(HOOK_WAYS, agent) && HOOK_WAYS[agent]) || 'MCP client';
}
