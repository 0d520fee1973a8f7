// Installs and runs the real Claude Code CLI in print mode, against a scripted model on 127.0.0.1
// and an MCP endpoint of ours (see test/fixtures/anthropic-model/server.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from './provision.mjs';

export const CLAUDE_CODE_VERSION = '2.1.332';

const log = (msg) => process.stderr.write(`[claude-code] ${msg}\n`);

/** The environment without what an outer `npm test` sets, which would redirect a nested npm. */
function withoutNpmVariables(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
}

function installDir() {
  return join(cacheDir, `claude-code-${CLAUDE_CODE_VERSION}`);
}

/** The `claude` executables a finished install may have, preferred first. */
function candidates(dir) {
  // the package's postinstall links its platform package's native binary in as its bin entry
  return [join(dir, 'node_modules', '.bin', 'claude'), join(dir, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude')];
}

function runs(file) {
  try {
    return execFileSync(file, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).includes(CLAUDE_CODE_VERSION);
  } catch {
    return false;
  }
}

let provisioned;

/** Installs Claude Code once into the cache (about 10 s, 400 MB); returns the `claude` that runs. */
export function provisionClaudeCode() {
  if (provisioned) return provisioned;
  const dir = installDir();
  if (!existsSync(join(dir, '.complete'))) {
    // installed beside the final folder and renamed, so a broken install never looks finished
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'package.json'), '{"private":true}\n');
    log(`installing @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION} into ${dir} (first run only)`);
    execFileSync('npm', ['install', '--prefix', scratch, `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: withoutNpmVariables(process.env),
    });
    writeFileSync(join(scratch, '.complete'), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  }
  provisioned = candidates(dir).find((file) => existsSync(file) && runs(file));
  if (!provisioned) throw new Error(`Claude Code is installed in ${dir} but no claude there runs; delete that folder and try again`);
  return provisioned;
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
    if (process.env.AGENT_QUESTIONS_KEEP === '1') log(`kept ${dir}`);
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
