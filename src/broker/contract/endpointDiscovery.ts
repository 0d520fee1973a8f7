// Where the extension tells hooks that run without a VS Code terminal's environment (VS Code's own
// agent runs its hooks in Copilot Chat's extension host) where the endpoint listens: one private file
// per window, `<extension host pid>.json`, in a user-only folder under the user's configuration
// folder. Pure: the extension writes it (src/mcp/endpointDiscoveryFile.ts), the hook reads it.
import { join } from 'node:path';

/** What one window's file holds. The token is a secret: the file is 0600 in a 0700 folder. */
export interface EndpointRecord {
  url: string;
  token: string;
  /** The window's workspace folders (absolute): a hook picks the window whose folder holds its cwd. */
  folders: string[];
  /** The extension host's process id: a file whose process is gone is stale. */
  pid: number;
  /** agentQuestions.vscodeAgent.waitSeconds: how long the hook holds a call before handing it back to VS Code. */
  waitSeconds?: number;
}

/** A record's `waitSeconds` when it is a usable wait (a positive, finite number of seconds), else undefined: the hook's own limit applies. */
export function readWaitSeconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** `$XDG_CONFIG_HOME/agent-questions/endpoints`, else `~/.config/agent-questions/endpoints`. */
export function endpointDiscoveryFolder(env: Record<string, string | undefined>, home: string): string {
  const config = env['XDG_CONFIG_HOME'] && env['XDG_CONFIG_HOME'].startsWith('/') ? env['XDG_CONFIG_HOME'] : join(home, '.config');
  return join(config, 'agent-questions', 'endpoints');
}
