// The CLI agents Agent Questions connects: the one list of their ids, and every spelling of each
// one's name. An id added here fails the build until every registry has the agent (see
// docs/adding-an-agent.md). Constants only: both the hook command and the extension import it.

/** Each agent's id: the hook command's `<agent>` argument and the end of its MCP client name. */
export const AGENT_IDS = ['claude-code', 'codex', 'opencode'] as const;
export type AgentId = (typeof AGENT_IDS)[number];

export const isAgentId = (text: string): text is AgentId => (AGENT_IDS as readonly string[]).includes(text);

interface AgentNames {
  /** As the hook command's messages name it ("… asks you itself"), and the title its hook connects with. */
  readonly name: string;
  /** As "Connect an External Agent…" labels its configuration. */
  readonly product: string;
  /** How its hook connected, as the panel shows it (HOOK_WAYS): a wire value, never changed. */
  readonly hookWay: string;
}

export const AGENT_NAMES = {
  'claude-code': { name: 'Claude Code', product: 'Claude Code', hookWay: 'Claude Code hook' },
  codex: { name: 'Codex', product: 'Codex CLI', hookWay: 'Codex hook' },
  opencode: { name: 'OpenCode', product: 'OpenCode', hookWay: 'OpenCode plugin' },
} as const satisfies Record<AgentId, AgentNames>;
