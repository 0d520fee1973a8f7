// Starts a real VS Code (code-server) on 127.0.0.1 and headless Chromium, for tests and `npm start`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { provision } from './provision.mjs';
import { timeLeftMs } from './timeLeft.mjs';

export const USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'telemetry.telemetryLevel': 'off',
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'chat.allowAnonymousAccess': true,
  'git.openRepositoryInParentFolders': 'never',
};

function readSettings(file) {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Lines the extension host prints that come from the closed network, not from us. */
export const NOISE = [
  /github/i,
  /gallery/i,
  /marketplace/i,
  /ENOTFOUND/,
  /getaddrinfo/,
  /No utility model/i,
  /copilot/i,
  /update/i,
  /No signed-in session/,
  /Resolved connection token/,
  /Creating a socket/,
];

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Installs a .vsix into the profile under `stateDir`, as a user would (about 1 s). */
export function installExtension({ stateDir, vsix, extensionsDir }) {
  const { node, codeServerEntry } = provision();
  execFileSync(
    node,
    [codeServerEntry, '--user-data-dir', join(stateDir, 'user-data'), '--extensions-dir', extensionsDir ?? join(stateDir, 'extensions'), '--install-extension', vsix, '--force'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, HOME: join(stateDir, 'home') },
    },
  );
}

/** With `workspaceTrust`, the folder opens untrusted (Restricted Mode) and no startup dialog asks about it. */
const TRUST_SETTINGS = { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' };

/**
 * Starts code-server in its own scratch profile under `stateDir`.
 * Returns { url, port, stop() }. `stop` kills the whole process group.
 * `locale`: VS Code's display language (honoured only with a language pack for it installed).
 */
export async function startCodeServer({ stateDir, workspace, port, extensionsDir, smokeTestDriver = false, workspaceTrust = false, locale, settings = {}, env = {}, onOutput }) {
  const { node, codeServerEntry } = provision();
  const home = join(stateDir, 'home');
  const userDataDir = join(stateDir, 'user-data');
  const extensions = extensionsDir ?? join(stateDir, 'extensions');
  for (const dir of [home, join(userDataDir, 'User'), extensions]) mkdirSync(dir, { recursive: true });
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  // A profile that already has settings keeps them (npm start reuses its profile) and gains any
  // setting added here since; a settings file with comments is left as it is.
  const existing = readSettings(settingsFile);
  if (existing) writeFileSync(settingsFile, JSON.stringify({ ...USER_SETTINGS, ...(workspaceTrust ? TRUST_SETTINGS : {}), ...settings, ...existing }, null, 2));
  const chosenPort = port ?? (await freePort());
  const args = [
    codeServerEntry,
    '--bind-addr',
    `127.0.0.1:${chosenPort}`,
    '--auth',
    'none',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensions,
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    ...(smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(locale ? ['--locale', locale] : []),
    workspace,
  ];
  const child = spawn(node, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
    },
  });
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  const stop = async () => {
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  };
  await new Promise((resolve, reject) => {
    let output = '';
    // Until the test's deadline: a busy machine starts it slower, not never.
    const limit = timeLeftMs();
    const timer = setTimeout(() => reject(new Error(`code-server did not start within ${Math.round(limit / 1000)} s (the test's deadline):\n${output}`)), limit);
    const onData = (chunk) => {
      const text = chunk.toString();
      output += text;
      onOutput?.(text);
      if (/HTTP server listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code} before listening:\n${output}`));
    });
  });
  return { url: `http://127.0.0.1:${chosenPort}`, port: chosenPort, userDataDir, process: child, stop };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser() {
  const { chromium: executablePath } = provision();
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/** The workbench URL that loads an extension from source (and optionally runs a test suite in its host). */
export function workbenchUrl(server, { workspace, extensionDevelopmentPath, extensionTestsPath }) {
  const remote = (path) => `vscode-remote://127.0.0.1:${server.port}${path}`;
  const payload = [];
  for (const path of [extensionDevelopmentPath ?? []].flat()) payload.push(['extensionDevelopmentPath', remote(path)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  const query = new URLSearchParams({ folder: workspace });
  if (payload.length) query.set('payload', JSON.stringify(payload));
  return `${server.url}/?${query}`;
}
