// What "Connect an External Agent…" hands out, one configuration per agent, by id: each one's
// module, in its own folder. Bundled into dist/mcp.js (loaded when the endpoint is on), never into
// the hook command.
import { AGENT_IDS, AGENT_NAMES, type AgentId } from '../broker/contract/agentIds';
import type { AgentConfig, ConfigAgent, Localizer } from './agentConfig';
import { claudeCodeConfig } from './claudeCode/claudeCodeConfig';
import { codexConfig } from './codex/codexConfig';
import { openCodeConfig } from './openCode/openCodeConfig';

export const CONFIG_AGENTS: Readonly<Record<AgentId, ConfigAgent>> = {
  'claude-code': claudeCodeConfig,
  codex: codexConfig,
  opencode: openCodeConfig,
};

/** English, as vscode.l10n.t gives it without a translation: {0}, {1}… are the arguments. */
const ENGLISH: Localizer = { t: (message, ...args) => message.replace(/\{(\d+)\}/g, (placeholder, index: string) => String(args[Number(index)] ?? placeholder)) };

/** Every agent's configuration for the endpoint at `url`; `where` in English unless given vscode.l10n. */
export function agentConfigs(url: string, l10n: Localizer = ENGLISH): AgentConfig[] {
  return AGENT_IDS.map((id) => {
    const { text, files } = CONFIG_AGENTS[id].config(url);
    return { agent: AGENT_NAMES[id].product, where: CONFIG_AGENTS[id].where(l10n), text, ...(files ? { files } : {}) };
  });
}
