// Installs and runs the real Claude Code CLI in print mode, against a scripted model on 127.0.0.1
// and an MCP endpoint of ours (see test/fixtures/anthropic-model/server.mjs).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisionNpmCli } from './npmCli.mjs';

export const CLAUDE_CODE_VERSION = '2.1.332';

/** Installs Claude Code once into the cache (about 10 s, 400 MB); returns the `claude` that runs. */
export function provisionClaudeCode() {
  return provisionNpmCli({
    pkg: '@anthropic-ai/claude-code',
    version: CLAUDE_CODE_VERSION,
    folder: `claude-code-${CLAUDE_CODE_VERSION}`,
    // the package's postinstall links its platform package's native binary in as its bin entry
    bins: [join('.bin', 'claude'), join('@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude')],
  });
}

// Variables that would send the CLI's traffic elsewhere than 127.0.0.1, or point it at a real account.
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|ANTHROPIC_.*|CLAUDE_.*|CLAUDECODE)$/i;

/**
 * Runs `claude -p <prompt>` with our MCP server as its only one (or the given `mcpConfig` text), in a scratch HOME that is removed
 * after it exits (kept with AGENT_QUESTIONS_KEEP=1). Returns { child, done, dir };
 * `done` resolves { code, signal, stdout, stderr } when the CLI exits.
 */
export function runClaude({
  prompt,
  modelUrl,
  mcpUrl,
  mcpToken,
  serverName = 'agent-questions',
  allowedTools = [],
  permissionPromptTool,
  outputFormat = 'text',
  extraEnv = {},
  cwd,
  mcpConfig,
}) {
  const claude = provisionClaudeCode();
  const dir = mkdtempSync(join(tmpdir(), 'agent-questions-claude-'));
  const mcpConfigFile = join(dir, 'mcp.json');
  const server = { type: 'http', url: mcpUrl, ...(mcpToken ? { headers: { Authorization: `Bearer ${mcpToken}` } } : {}) };
  writeFileSync(mcpConfigFile, mcpConfig ?? JSON.stringify({ mcpServers: { [serverName]: server } }), { mode: 0o600 });
  const args = ['-p', prompt, '--mcp-config', mcpConfigFile, '--strict-mcp-config'];
  if (allowedTools.length) args.push('--allowedTools', allowedTools.join(','));
  if (permissionPromptTool) args.push('--permission-prompt-tool', permissionPromptTool);
  if (outputFormat === 'stream-json') args.push('--output-format', 'stream-json', '--verbose');
  else if (outputFormat !== 'text') args.push('--output-format', outputFormat);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STRIPPED.test(key)));
  const env = {
    ...inherited,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_STATE_HOME: join(dir, '.local', 'state'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'dummy',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    // MCP tools straight in `tools`, instead of behind a ToolSearch call the scripted model would have to make
    ENABLE_TOOL_SEARCH: 'false',
    DISABLE_AUTOUPDATER: '1',
    ...extraEnv,
  };
  const child = spawn(claude, args, { cwd: cwd ?? dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    if (process.env.AGENT_QUESTIONS_KEEP === '1') process.stderr.write(`[claude-code] kept ${dir}\n`);
    else rmSync(dir, { recursive: true, force: true });
  };
  const done = new Promise((resolve, reject) => {
    child.once('error', (error) => {
      cleanUp();
      reject(error);
    });
    child.once('close', (code, signal) => {
      cleanUp();
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done, dir };
}
