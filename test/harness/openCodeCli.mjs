// Runs the real OpenCode CLI in a project holding given files (the configuration under test, byte
// for byte), with a scratch HOME and the scripted Chat Completions model from a second config file
// (OPENCODE_CONFIG), so the files under test stay exactly as handed out.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { provisionOpenCode } from './agentClis.mjs';
import { cacheDir } from './provision.mjs';
import { timeLeftMs } from './timeLeft.mjs';

// Variables that would send OpenCode's traffic elsewhere than 127.0.0.1.
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|npm_.*|OPENAI_.*|ANTHROPIC_.*)$/i;

/**
 * A project with `files` ({ path, text }) and the environment of a VS Code terminal (`terminalEnv`)
 * with a scratch HOME; `extraConfig` joins the scripted model in the second config file (for
 * example `permission`). Returns { cwd, env, cleanUp() }.
 */
export function openCodeProject({ files, modelUrl, terminalEnv = {}, extraConfig = {} }) {
  const home = mkdtempSync(join(tmpdir(), 'aq-opencode-home-'));
  const cwd = mkdtempSync(join(tmpdir(), 'aq-opencode-project-'));
  for (const file of files) {
    mkdirSync(dirname(join(cwd, file.path)), { recursive: true });
    writeFileSync(join(cwd, file.path), file.text);
  }
  const provider = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      scripted: { npm: '@ai-sdk/openai-compatible', options: { baseURL: modelUrl, apiKey: 'dummy' }, models: { m: { tool_call: true, limit: { context: 128000, output: 4096 } } } },
    },
    model: 'scripted/m',
    ...extraConfig,
  };
  writeFileSync(join(home, 'scripted-model.json'), JSON.stringify(provider));
  const inherited = Object.fromEntries(Object.entries(process.env).filter((e) => e[1] !== undefined && !STRIPPED.test(e[0])));
  const env = {
    ...inherited,
    // OpenCode takes its project from $PWD, as a shell in that folder would set it.
    PWD: cwd,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_CONFIG: join(home, 'scripted-model.json'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    // OpenCode installs its plugin package into each scratch HOME as it starts: from one shared npm
    // cache, offline first, not the registry each run (15 s against 6 s on a busy machine, and a slow
    // registry would slow every OpenCode test).
    npm_config_cache: join(cacheDir, 'opencode-npm-cache'),
    npm_config_prefer_offline: 'true',
    ...terminalEnv,
  };
  const cleanUp = () => {
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  };
  return { cwd, env, cleanUp };
}

const strip = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** `opencode <args>` in a project; { child, done, output() }, `done` resolving { code, signal, stdout, stderr } at exit. */
export function startOpenCode(args, where) {
  const child = spawn(provisionOpenCode(), args, { cwd: where.cwd, env: where.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const done = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout: strip(stdout), stderr: strip(stderr) })));
  return { child, done, output: () => strip(stdout + stderr) };
}

/**
 * `opencode serve` on a free port of 127.0.0.1 in a project, once it listens (`serve` leaves
 * permission asks to its clients, where `opencode run` rejects them itself). Returns what
 * startOpenCode does, plus `api(method, path, body?)` (its HTTP API, for the project), `prompt(text)`
 * (sends text in a new session; resolves the assistant's text once OpenCode has finished it) and
 * `close()`.
 */
export async function serveOpenCode(where) {
  const port = await freePort();
  const server = startOpenCode(['serve', '--port', String(port), '--hostname', '127.0.0.1'], where);
  // It listens, exits, or the test's deadline comes.
  const deadline = Date.now() + timeLeftMs();
  const running = () => server.child.exitCode === null && server.child.signalCode === null;
  while (!/listening on/.test(server.output()) && running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (!/listening on/.test(server.output())) {
    const why = running() ? "waited until the test's deadline: " : `it exited (${server.child.exitCode ?? server.child.signalCode}): `;
    server.child.kill('SIGKILL');
    await server.done;
    throw new Error(`${why}opencode serve did not listen:\n${server.output()}`);
  }
  const base = `http://127.0.0.1:${port}`;
  const api = async (method, path, body) => {
    const response = await fetch(`${base}${path}?directory=${encodeURIComponent(where.cwd)}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
    return response.json();
  };
  const prompt = async (text) => {
    const session = await api('POST', '/session', {});
    const message = await api('POST', `/session/${session.id}/message`, { parts: [{ type: 'text', text }] });
    return message.parts
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join('\n');
  };
  const close = async () => {
    server.child.kill();
    await server.done;
  };
  return { ...server, api, prompt, close };
}

/** A TCP port free on 127.0.0.1 now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}
