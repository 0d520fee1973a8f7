// What "Connect an External Agent…" hands out for one agent, and what each agent's configuration
// module provides for it. Its own module, so the agents' modules and their registry
// (configRegistry.ts) import it without importing each other.
import { HOOK_VAR } from '../broker/contract/wireNames';
import type { AGENT_NAMES, AgentId } from '../broker/contract/agentIds';

export interface AgentConfig {
  /** The agent, as the list of configurations labels it. */
  agent: (typeof AGENT_NAMES)[AgentId]['product'];
  /** Where it goes, in one line. */
  where: string;
  text: string;
  /** The files `text` holds, each whole, by path relative to the project (where there is more than one). */
  files?: Array<{ path: string; text: string }>;
}

/**
 * vscode.l10n in the extension, English elsewhere. Each agent calls `l10n.t` with a string literal,
 * as the extension does, so the localization test finds the message in the bundle.
 */
export interface Localizer {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/** One agent's configuration module: the parts of its AgentConfig only it knows. */
export interface ConfigAgent {
  /** Where its configuration goes, in one line, in the user's language. */
  where(l10n: Localizer): string;
  /** The text to copy for the endpoint at `url`, and the files it holds (where there is more than one). */
  config(url: string): Pick<AgentConfig, 'text' | 'files'>;
}

export { DAY_SECONDS } from '../broker/contract/wireNames';

/** The command an agent's permission hook runs: the shipped hook command (its shell expands the variable) and the agent's id. */
export const hookCommand = (id: AgentId): string => `node "$${HOOK_VAR}" ${id}`;
