// Claude Code's configuration: its MCP server entry (.mcp.json, or `claude mcp add-json`), the
// print-mode permission prompt tool, and the hooks in .claude/settings.json. It reads the token from
// the environment of a terminal VS Code started, so no secret is pasted.
import { ASK_USER_QUESTION_TOOL, CLAUDE_READ_TOOLS, CLAUDE_SANDBOX_VAR, HOOK_VAR, MCP_SERVER_NAME, MCP_TOKEN_VAR, MCP_URL_VAR } from '../../broker/contract/wireNames';
import { DAY_SECONDS, hookCommand, type ConfigAgent } from '../agentConfig';

/**
 * Our server's entry in Claude Code's .mcp.json. Claude Code expands ${VAR}, so the URL and the
 * token stay out of the file. `timeout` (ms) is its per-server limit for one tool call, and it
 * raises the idle limit (5 minutes without a byte or a progress notification) to the same: a day.
 */
const claudeCodeServer = () => ({ type: 'http', url: `\${${MCP_URL_VAR}}`, headers: { Authorization: `Bearer \${${MCP_TOKEN_VAR}}` }, timeout: DAY_SECONDS * 1000 });

export function claudeCodeMcpJson(): string {
  return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: claudeCodeServer() } }, null, 2);
}

/**
 * The same, written by Claude Code itself: `claude mcp add` has no flag for `timeout`, `add-json`
 * keeps it (single quotes keep the variables for Claude Code to expand).
 */
export const CLAUDE_MCP_ADD_JSON_ARGS = ['mcp', 'add-json', '--scope', 'project', MCP_SERVER_NAME, JSON.stringify(claudeCodeServer())];

/**
 * Interactive Claude Code moves an MCP call still running after 120 s to the background: the model
 * is told to keep working and the answer comes later as a background-task notification. Its
 * settings' `env` can turn that off, for every MCP server of the session (2.1.332 has no narrower
 * switch for an http server: the per-server `disableAutoBackground` is read for SDK servers only).
 */
export const CLAUDE_CODE_FOREGROUND_ENV = { CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS: '0' };

/**
 * Written by hand, never by a sandboxed command: what decides what runs next, outside the sandbox
 * too (VS Code tasks, other agents' configuration, CI, Git hook managers). Claude Code itself keeps
 * .claude/settings.json, Git's hooks and Git's configuration read-only in its sandbox.
 */
const SANDBOX_DENY_WRITE = ['./.vscode', './.claude', './.mcp.json', './.codex', './.opencode', './opencode.json', './.github', './.husky', './.githooks', './.devcontainer'];

/**
 * Bash runs in Claude Code's sandbox (bubblewrap and socat on Linux, Seatbelt on macOS): writes only
 * in the project minus SANDBOX_DENY_WRITE, no network but to hosts the user lists in
 * `network.allowedDomains`. Every call still comes to the hook (`autoAllowBashIfSandboxed: false`).
 */
export const CLAUDE_CODE_SANDBOX = {
  enabled: true,
  autoAllowBashIfSandboxed: false,
  network: { allowedDomains: [] as string[] },
  filesystem: { denyWrite: SANDBOX_DENY_WRITE },
};

/**
 * Runs only where a VS Code terminal set our variable. VS Code's own agent (`chat.useClaudeHooks`) and
 * Copilot CLI read this file too, often without it: `node ""` would run the hook input as JavaScript
 * and exit 1, a warning on every call. Without it the input is read (the writer gets no broken pipe)
 * and nothing answered, exit 0: no decision, for each of them.
 */
const CLAUDE_HOOK_COMMAND = `if [ -z "$${HOOK_VAR}" ]; then cat >/dev/null; else ${hookCommand('claude-code')}; fi`;

/**
 * Claude Code's hooks running our hook command (its shell expands the variable): PermissionRequest
 * for its permission prompts, PreToolUse for its own question tool and for the tools that read without
 * a prompt in its folder (asked in the panel when that folder is outside the workspace). A day's timeout: the request
 * waits in the sidebar as long as the user takes. The `env` keeps a waiting question in the foreground
 * and tells the hook these settings (with the sandbox) are loaded; `sandbox` runs Bash in Claude
 * Code's sandbox, where a rule for a tool that runs the workspace's code covers it.
 */
export function claudeCodeHookSettings(): string {
  const hook = { type: 'command', command: CLAUDE_HOOK_COMMAND, timeout: DAY_SECONDS };
  return JSON.stringify(
    {
      env: { ...CLAUDE_CODE_FOREGROUND_ENV, [CLAUDE_SANDBOX_VAR]: '1' },
      sandbox: CLAUDE_CODE_SANDBOX,
      hooks: {
        PermissionRequest: [{ matcher: '*', hooks: [hook] }],
        PreToolUse: [
          { matcher: ASK_USER_QUESTION_TOOL, hooks: [hook] },
          { matcher: CLAUDE_READ_TOOLS.join('|'), hooks: [hook] },
        ],
      },
    },
    null,
    2,
  );
}

export const claudeCodeConfig: ConfigAgent = {
  where: (l10n) => l10n.t('.mcp.json (or the claude mcp add-json line) and .claude/settings.json in your project'),
  config: () => ({
    text: [
      '// .mcp.json',
      claudeCodeMcpJson(),
      '',
      '# or the same from a shell (single quotes: Claude Code expands the variables when it starts):',
      `claude ${CLAUDE_MCP_ADD_JSON_ARGS.map((a) => (/^[\w.-]+$/.test(a) ? a : `'${a}'`)).join(' ')}`,
      '',
      '# let its permission prompts and its own questions come to the Agent Questions sidebar (print mode, claude -p):',
      `claude --permission-prompt-tool mcp__${MCP_SERVER_NAME}__approve`,
      '',
      "// .claude/settings.json (interactive sessions: each permission prompt also waits in the sidebar, answer in either; its own questions are asked in the sidebar; env keeps a call that waits over 2 minutes in the foreground, for every MCP server of the session; sandbox runs Bash in Claude Code's sandbox: writes only in the project, no network, needs bubblewrap and socat on Linux)",
      claudeCodeHookSettings(),
    ].join('\n'),
  }),
};
