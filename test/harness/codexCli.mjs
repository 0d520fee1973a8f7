// Runs the real Codex CLI (`codex exec`, or the interactive `codex` inside tmux) in a scratch HOME
// and CODEX_HOME, against the scripted Responses model on 127.0.0.1 and the MCP endpoint of ours.
// The scratch HOME (CODEX_HOME is its .codex, as a user's) is in the harness cache, not the temp
// dir (a clone may well be in the temp dir): Codex refuses to set up its sandbox helper (`codex-linux-sandbox`, an alias of itself in
// CODEX_HOME/tmp) under the temp dir, and with the system's bubblewrap (bwrap) it then cannot start
// any command. The working directory is in the temp dir: outside the clone's git repository.
// The config.toml is the text the test gives (the configuration we hand out, byte for byte) with
// the scripted model provider's table appended; the top-level model keys go on the command line.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { provisionCodex } from './agentClis.mjs';
import { cacheDir } from './provision.mjs';
import { timeLeftMs } from './timeLeft.mjs';
import { pressUntil, waitForScreen } from './tmuxScreen.mjs';

// Variables that would send the CLI's traffic elsewhere than 127.0.0.1, or point it at a real account.
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|npm_.*|OPENAI_.*|CODEX_.*)$/i;
const PROVIDER = 'scripted';
const KEY_VAR = 'AGENT_QUESTIONS_SCRIPTED_MODEL_KEY';
/** Where the scratch HOMEs go: outside the temp dir, as a user's HOME is (see above). */
const SCRATCH_ROOT = join(cacheDir, 'codex-homes');
/** Between a prompt's typing and its Enter, so Enter is not taken as part of a paste (not a wait for anything). */
const PASTE_GAP_MS = 600;

/** The model-provider table a test appends to the configuration under test. */
export const providerToml = (modelUrl) =>
  [`[model_providers.${PROVIDER}]`, 'name = "Scripted model"', `base_url = "${modelUrl}"`, `env_key = "${KEY_VAR}"`, 'wire_api = "responses"'].join('\n');

/** Flags every run gets: the scripted model, and nothing that calls home. */
const COMMON_ARGS = [
  '--disable',
  'plugins',
  '-c',
  'analytics.enabled=false',
  '-c',
  'check_for_update_on_startup=false',
  '-c',
  `model="${PROVIDER}"`,
  '-c',
  `model_provider="${PROVIDER}"`,
];

/** True when `path` is inside the temp dir (Codex's own test: TMPDIR, else /tmp). */
const inTempDir = (path) => !relative(tmpdir(), path).startsWith('..');

function scratch({ config, modelUrl, extraEnv, cwd: givenCwd }) {
  mkdirSync(SCRATCH_ROOT, { recursive: true });
  const dir = mkdtempSync(join(SCRATCH_ROOT, 'codex-'));
  if (inTempDir(dir))
    throw new Error(`the harness cache is in the temp dir (${tmpdir()}): Codex would not set up its sandbox helper in a CODEX_HOME at ${dir}; set AGENT_QUESTIONS_CACHE elsewhere`);
  const codexHome = join(dir, '.codex');
  const cwd = givenCwd ?? mkdtempSync(join(tmpdir(), 'agent-questions-codex-work-'));
  mkdirSync(codexHome);
  writeFileSync(join(codexHome, 'config.toml'), `${config}\n\n${providerToml(modelUrl)}\n`, { mode: 0o600 });
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STRIPPED.test(key)));
  const env = {
    ...inherited,
    HOME: dir,
    CODEX_HOME: codexHome,
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_DATA_HOME: join(dir, '.local', 'share'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_STATE_HOME: join(dir, '.local', 'state'),
    [KEY_VAR]: 'dummy',
    ...extraEnv,
  };
  const scratchDirs = givenCwd ? [dir] : [dir, cwd];
  const cleanUp = () => {
    if (process.env.AGENT_QUESTIONS_KEEP === '1') process.stderr.write(`[codex] kept ${scratchDirs.join(' and ')}\n`);
    else for (const path of scratchDirs) rmSync(path, { recursive: true, force: true });
  };
  return { dir, codexHome, cwd, env, cleanUp };
}

/**
 * `codex exec <prompt>` with the given config.toml text. `flags` are added before the prompt.
 * Returns { child, done, finished(), kill(), dir, cwd }; `done` resolves { code, signal, stdout, stderr } at
 * exit; finished() is `done`, killing a run still going at the test's deadline and failing with its
 * output; kill() sends SIGKILL to the launcher and the native binary.
 */
export function runCodexExec({ prompt, config, modelUrl, extraEnv = {}, flags = [], cwd: givenCwd }) {
  const codex = provisionCodex();
  const { dir, cwd, env, cleanUp } = scratch({ config, modelUrl, extraEnv, cwd: givenCwd });
  const args = ['exec', '--skip-git-repo-check', ...COMMON_ARGS, ...flags, prompt];
  // its own process group: `codex` is a Node launcher of the native binary, and kill() ends both
  const child = spawn(codex, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
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
  const kill = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const finished = async () => {
    const timer = setTimeout(kill, timeLeftMs());
    const result = await done;
    clearTimeout(timer);
    if (result.signal === 'SIGKILL') throw new Error(`waited until the test's deadline: Codex did not finish:\n${result.stdout}\n${result.stderr}`);
    return result;
  };
  return { child, done, finished, kill, dir, cwd };
}

/**
 * The interactive `codex` in a detached tmux session of its own (a private socket), 200×50.
 * Returns { screen(), type(text), submit(text), press(...keys), waitFor(regex), cwd, close() }.
 */
export function startCodexTui({ config, modelUrl, extraEnv = {}, flags = [], cwd: givenCwd }) {
  const codex = provisionCodex();
  const { cwd, env, cleanUp } = scratch({ config, modelUrl, extraEnv, cwd: givenCwd });
  const socket = `aq-codex-${process.pid}-${Date.now()}`;
  const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8', env });
  // The tmux server starts here, so the session's shell inherits `env` (and nothing is on a command line).
  tmux('new-session', '-d', '-s', 'codex', '-x', '200', '-y', '50', '-c', cwd, codex, ...COMMON_ARGS, ...flags);
  // The last screen read, for the error when Codex has exited (its tmux session, and server, are gone).
  let lastScreen = '';
  const screen = () => {
    try {
      return (lastScreen = tmux('capture-pane', '-p', '-t', 'codex'));
    } catch (error) {
      throw new Error(`Codex exited: its tmux session is gone. Its last screen:\n${lastScreen}`, { cause: error });
    }
  };
  const press = (...keys) => tmux('send-keys', '-t', 'codex', ...keys);
  return {
    cwd,
    screen,
    type: (text) => tmux('send-keys', '-t', 'codex', '-l', text),
    /** Types a prompt and sends it; Enter right after fast typing would count as part of a paste. */
    async submit(text) {
      tmux('send-keys', '-t', 'codex', '-l', text);
      await new Promise((r) => setTimeout(r, PASTE_GAP_MS));
      tmux('send-keys', '-t', 'codex', 'Enter');
    },
    press,
    /** Presses a key until the screen shows `pattern`, its effect (see tmuxScreen.mjs). */
    pressUntil: (key, pattern) => pressUntil(press, screen, key, pattern, 'Codex'),
    /** The screen once it matches `pattern`, waiting until the test's deadline. */
    waitFor: (pattern) => waitForScreen(screen, pattern, 'Codex'),
    close() {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
      cleanUp();
    },
  };
}
