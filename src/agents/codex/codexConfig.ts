// Codex CLI's configuration: the end of its config.toml, our MCP server and its PermissionRequest hook.
import { MCP_SERVER_NAME, MCP_TOKEN_VAR } from '../../broker/contract/wireNames';
import { DAY_SECONDS, hookCommand, type ConfigAgent } from '../agentConfig';

/**
 * Codex reads the bearer token from the named variable; its url is literal (set a fixed port).
 * `tool_timeout_sec` is Codex's limit for one tool call, 300 s unless set; progress does not
 * extend it, so a question gets a day. The hook's `timeout` (600 s unless set) likewise.
 * `default_tools_approval_mode` runs our tools without Codex's own "Allow the MCP server to run
 * tool?" prompt: `codex exec` (approval policy never) refuses them otherwise, and the interactive
 * codex would ask first (through the hook, in the panel) and only then show the question. The
 * PermissionRequest hook sends Codex's approval prompts to the panel; Codex runs hook commands
 * through a shell, so the hook's path comes from the terminal's environment too. Codex runs commands
 * in its sandbox without asking and asks (the hook) only to leave it; the sandbox keeps no network.
 */
/**
 * The hook command, then a denial the shell prints if the hook dies without answering (killed): a
 * failed hook is no decision, which `codex exec --approve-for-me` hands to its reviewer model.
 */
const DENY_IF_THE_HOOK_DIES = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PermissionRequest',
    decision: { behavior: 'deny', message: 'No decision in the Agent Questions panel (the hook ended without answering); denied, so nothing decides for the user.' },
  },
});
const codexHookCommand = `${hookCommand('codex')} || echo '${DENY_IF_THE_HOOK_DIES}'`;
/** A TOML basic string. */
const tomlString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export function codexConfigToml(url: string): string {
  return [
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `url = "${url}"`,
    `bearer_token_env_var = "${MCP_TOKEN_VAR}"`,
    'default_tools_approval_mode = "approve"',
    `tool_timeout_sec = ${DAY_SECONDS}`,
    '',
    '# Codex asks you once to trust this hook (or review it with /hooks).',
    '[[hooks.PermissionRequest]]',
    '[[hooks.PermissionRequest.hooks]]',
    'type = "command"',
    `command = ${tomlString(codexHookCommand)}`,
    `timeout = ${DAY_SECONDS}`,
    'statusMessage = "Waiting for your answer in the Agent Questions panel"',
    '',
    '# Commands run in Codex\'s sandbox (sandbox_mode "workspace-write", the default of a trusted project): writes only in the workspace, no network.',
    '[sandbox_workspace_write]',
    'network_access = false',
  ].join('\n');
}

export const codexConfig: ConfigAgent = {
  where: (l10n) => l10n.t('the end of ~/.codex/config.toml (or of .codex/config.toml in a trusted project); start codex from a VS Code terminal'),
  config: (url) => ({ text: codexConfigToml(url) }),
};
