// Configuration text for connecting CLI agents to the MCP endpoint. Each reads the token from the
// environment of a terminal VS Code started (AGENT_QUESTIONS_MCP_TOKEN), so no secret is pasted.
import { HOOK_VAR, MCP_SERVER_NAME, MCP_TOKEN_VAR, MCP_URL_VAR } from '../broker/contract/wireNames';
import { OPENCODE_PLUGIN, OPENCODE_PLUGIN_PATH } from './openCodePlugin';


export interface AgentConfig {
  agent: 'Claude Code' | 'Codex CLI' | 'OpenCode';
  /** Where it goes, in one line. */
  where: string;
  text: string;
  /** The files `text` holds, each whole, by path relative to the project (where there is more than one). */
  files?: Array<{ path: string; text: string }>;
}

/** How long a question may wait for the user in what we hand out: a day. */
export const DAY_SECONDS = 24 * 60 * 60;

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
 * Claude Code's hooks running our hook command (its shell expands the variable): PermissionRequest
 * for its permission prompts, PreToolUse for its own question tool. A day's timeout: the request
 * waits in the sidebar as long as the user takes. The `env` keeps a waiting question in the foreground.
 */
export function claudeCodeHookSettings(): string {
  const hook = { type: 'command', command: `node "$${HOOK_VAR}" claude-code`, timeout: DAY_SECONDS };
  return JSON.stringify({ env: CLAUDE_CODE_FOREGROUND_ENV, hooks: { PermissionRequest: [{ matcher: '*', hooks: [hook] }], PreToolUse: [{ matcher: 'AskUserQuestion', hooks: [hook] }] } }, null, 2);
}

function claudeCode(): AgentConfig {
  return {
    agent: 'Claude Code',
    where: '.mcp.json (or the claude mcp add-json line) and .claude/settings.json in your project',
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
      '// .claude/settings.json (interactive sessions: each permission prompt also waits in the sidebar, answer in either; its own questions are asked in the sidebar; env keeps a call that waits over 2 minutes in the foreground, for every MCP server of the session)',
      claudeCodeHookSettings(),
    ].join('\n'),
  };
}

/** The command an agent's permission hook runs (the extension's dist/approvalHook.js), from a VS Code terminal's environment. */
const CODEX_HOOK_COMMAND = `node "$${HOOK_VAR}" codex`;

/**
 * Codex reads the bearer token from the named variable; its url is literal (set a fixed port).
 * `tool_timeout_sec` is Codex's limit for one tool call, 300 s unless set; progress does not
 * extend it, so a question gets a day. The hook's `timeout` (600 s unless set) likewise.
 * `default_tools_approval_mode` runs our tools without Codex's own "Allow the MCP server to run
 * tool?" prompt: `codex exec` (approval policy never) refuses them otherwise, and the interactive
 * codex would ask first (through the hook, in the panel) and only then show the question. The
 * PermissionRequest hook sends Codex's approval prompts to the panel; Codex runs hook commands
 * through a shell, so the hook's path comes from the terminal's environment too.
 */
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
    `command = '${CODEX_HOOK_COMMAND}'`,
    `timeout = ${DAY_SECONDS}`,
    'statusMessage = "Waiting for your answer in the Agent Questions panel"',
  ].join('\n');
}

function codex(url: string): AgentConfig {
  return { agent: 'Codex CLI', where: 'the end of ~/.codex/config.toml (or of .codex/config.toml in a trusted project); start codex from a VS Code terminal', text: codexConfigToml(url) };
}

/**
 * OpenCode substitutes {env:VAR} anywhere in its config. `mcp.servers` is the layout of OpenCode's
 * current docs, which 1.18 also reads. Its MCP calls time out after 60 s unless the server says
 * otherwise, and a question waits for the user: a day (catalog equal to execution, or 1.18 ignores it).
 * The plugin, a file beside it, brings its permission prompts and its own questions to the panel.
 */
function openCode(): AgentConfig {
  const day = DAY_SECONDS * 1000;
  const config = {
    $schema: 'https://opencode.ai/config.json',
    mcp: {
      servers: {
        [MCP_SERVER_NAME]: { type: 'remote', url: `{env:${MCP_URL_VAR}}`, headers: { Authorization: `Bearer {env:${MCP_TOKEN_VAR}}` }, oauth: false, timeout: { catalog: day, execution: day } },
      },
    },
    plugin: [`./${OPENCODE_PLUGIN_PATH}`],
  };
  const files = [
    { path: 'opencode.json', text: JSON.stringify(config, null, 2) },
    { path: OPENCODE_PLUGIN_PATH, text: OPENCODE_PLUGIN },
  ];
  return {
    agent: 'OpenCode',
    where: `opencode.json and ${OPENCODE_PLUGIN_PATH} beside it, in your project (or in ~/.config/opencode/)`,
    text: [
      '// opencode.json',
      files[0]!.text,
      '',
      `// ${OPENCODE_PLUGIN_PATH}: OpenCode's permission prompts (where its "permission" settings say "ask") and its own questions come to the Agent Questions sidebar`,
      files[1]!.text,
    ].join('\n'),
    files,
  };
}

export function agentConfigs(url: string): AgentConfig[] {
  return [claudeCode(), codex(url), openCode()];
}
