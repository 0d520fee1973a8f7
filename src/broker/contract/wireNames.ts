// The names both sides of the wire speak: the extension (the endpoint, the configurations it hands
// out) and the hook command (which runs outside VS Code). One home, imported by both, so neither
// reaches into the other. Constants and one pure function only: the hook bundle stays small.
import { AGENT_IDS, AGENT_NAMES } from './agentIds';

/** The environment of a VS Code terminal: where the endpoint is, its token, the hook command's path. */
export const MCP_URL_VAR = 'AGENT_QUESTIONS_MCP_URL';
export const MCP_TOKEN_VAR = 'AGENT_QUESTIONS_MCP_TOKEN';
/** Absolute path of the shipped hook command (dist/approvalHook.js), for agents' permission hooks. */
export const HOOK_VAR = 'AGENT_QUESTIONS_HOOK';
/**
 * Whether the agent runs a call in its own sandbox, as its hook tells the approve tool: a rule for a
 * tool that runs the workspace's code (shell/runners.ts) covers only a sandboxed call, never one that
 * leaves the sandbox; `unknown` (no hook said) is covered but not confined.
 */
export const CONFINEMENTS = ['sandboxed', 'unsandboxed', 'unknown'] as const;
export type Confinement = (typeof CONFINEMENTS)[number];
/** Set by the `env` of the .claude/settings.json we hand out, beside `sandbox.enabled`: the hook reads it. */
export const CLAUDE_SANDBOX_VAR = 'AGENT_QUESTIONS_CLAUDE_SANDBOX';
/** Our server's name in the agents' MCP configurations. */
export const MCP_SERVER_NAME = 'agent-questions';
/** The endpoint's tools. */
export const ASK_USER_TOOL = 'ask_user';
export const APPROVE_TOOL = 'approve';
export const GET_ANSWERS_TOOL = 'get_answers';
/**
 * The reason of the MCP `notifications/cancelled` the hook command sends when the user answered in
 * the agent's own prompt: the endpoint records the request as decided by the user there, not as
 * abandoned by the asker. Self-reported, like everything the hook says.
 */
export const ANSWERED_IN_AGENT_PROMPT = "answered in the agent's own prompt";
/** How long a question may wait for the user in what we hand out (tool call and hook time limits): a day. */
export const DAY_SECONDS = 24 * 60 * 60;
/** The reason the hook command gives when it hands the decision back to its agent before the agent's hook time limit. */
export const HANDED_BACK_AT_DEADLINE = "handed back to the agent at its hook's deadline";
/** Why the endpoint's calls end when it is turned off (a session's signal reason). */
export const ENDPOINT_TURNED_OFF = 'the MCP endpoint was turned off';
/** Claude Code's question tool: the approve tool asks it as a question request. */
export const ASK_USER_QUESTION_TOOL = 'AskUserQuestion';

/**
 * Claude Code's tools that read without a permission prompt in the folder it works in (2.1.332 offers
 * Bash, Monitor and Read; other builds Grep, Glob and LS): our settings send them to the folder guard
 * (src/hook/readGuard.ts) first.
 */
export const CLAUDE_READ_TOOLS: readonly string[] = ['Bash', 'Monitor', 'Read', 'Grep', 'Glob', 'LS'];

// How a hook command names itself to the MCP endpoint: the clientInfo name says which agent's hook
// asks, so the panel can show the way it connected. Self-reported like every client name: anyone
// with the token can claim it.

/**
 * Appended to the endpoint's URL: the route our own hook commands ask first (one POST, no MCP session),
 * answered with the approve tool's decision when no person is needed, else 204 (then a session asks).
 */
export const DECIDE_ROUTE = '/decide';

/** clientInfo.name of the hook command is this prefix plus the agent argument, e.g. "agent-questions-hook:codex". */
export const HOOK_CLIENT_PREFIX = 'agent-questions-hook:';

/**
 * The agents whose hooks run the command (its `<agent>` argument), with the way the panel shows,
 * e.g. { codex: 'Codex hook' }: both from agentIds.ts beside this file, the one place agents are named.
 */
export const HOOK_WAYS: Readonly<Record<string, string>> = Object.fromEntries(AGENT_IDS.map((id) => [id, AGENT_NAMES[id].hookWay]));

/** The way a client connected, from its self-reported clientInfo name: one of HOOK_WAYS, else "MCP client". */
export function connectionWay(clientName: string | undefined): string {
  const agent = clientName?.startsWith(HOOK_CLIENT_PREFIX) ? clientName.slice(HOOK_CLIENT_PREFIX.length) : undefined;
  return (agent !== undefined && Object.hasOwn(HOOK_WAYS, agent) && HOOK_WAYS[agent]) || 'MCP client';
}
