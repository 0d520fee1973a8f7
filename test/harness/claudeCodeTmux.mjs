// Runs the real Claude Code CLI interactively in a pseudo-terminal (a private tmux server), against a
// scripted model on 127.0.0.1, in a scratch HOME prepared so that no onboarding, login, API-key or
// trust dialog comes up. Tests type into it and read its screen.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisionClaudeCode } from './claudeCode.mjs';
import { timeLeftMs } from './timeLeft.mjs';
import { pressUntil, waitForScreen } from './tmuxScreen.mjs';

// Variables that would send the CLI's traffic elsewhere than 127.0.0.1, point it at a real account,
// or tie the private tmux server to an outer one.
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|ANTHROPIC_.*|CLAUDE_.*|CLAUDECODE|TMUX|TMUX_PANE|AGENT_QUESTIONS_.*)$/i;
const API_KEY = 'dummy-key-for-the-scripted-model';
/** What Claude Code's screen shows once its prompt takes typing. */
const READY = /manual mode on|\? for shortcuts/;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Not deadlines (a prompt is sent, or fails, at the test's deadline): how long typed text gets to show
// before Enter is pressed anyway, the pause before each Enter (right after typing it can count as part
// of a paste), and how long Claude Code gets to send the prompt to the model before Enter is pressed again.
const SHOW_TEXT_MS = 5000;
const PASTE_SETTLE_MS = 300;
const ENTER_AGAIN_AFTER_MS = 3000;

/**
 * Starts `claude --permission-mode default` in <scratch>/project (or `project`, left in place on close) with `projectFiles` written there
 * (e.g. { '.claude/settings.json': text }) and `env` added (the terminal's variables).
 * `enabledMcpjsonServers`: the project's .mcp.json servers already approved, as after the user
 * said yes to them once. Returns { project, screen(), type(text), press(key), pressUntil(key, regex), waitFor(regex, ms), ready(ms),
 * prompt(text, model), close() }. Every wait lasts until the running test's deadline unless given `ms`.
 */
export function startInteractiveClaude({ modelUrl, env = {}, projectFiles = {}, enabledMcpjsonServers = [], columns = 200, rows = 60, project: given }) {
  const claude = provisionClaudeCode();
  const dir = mkdtempSync(join(tmpdir(), 'agent-questions-claude-tty-'));
  const home = join(dir, 'home');
  const project = given ?? join(dir, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  for (const [file, text] of Object.entries(projectFiles)) {
    mkdirSync(join(project, file, '..'), { recursive: true });
    writeFileSync(join(project, file), text);
  }
  // What a finished first run leaves behind: onboarding done, this API key approved, the project trusted.
  const state = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    customApiKeyResponses: { approved: [API_KEY.slice(-20)], rejected: [] },
    projects: { [project]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, enabledMcpjsonServers } },
  };
  writeFileSync(join(home, '.claude.json'), JSON.stringify(state));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STRIPPED.test(key)));
  const childEnv = {
    ...inherited,
    TERM: 'xterm-256color',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    ...env,
  };
  // A private server (its socket in the scratch folder): its first session inherits this environment,
  // and closing it touches no other tmux.
  const socket = join(dir, 'tmux.sock');
  const tmux = (...args) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8', env: childEnv });
  // "default" mode, not auto mode: every tool call that needs permission asks (and runs the hook).
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'main', '-x', String(columns), '-y', String(rows), '-c', project, claude, '--permission-mode', 'default');
  tmux('set-option', '-t', 'main', 'remain-on-exit', 'on');
  const pid = Number(tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim());
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  const screen = () => tmux('capture-pane', '-p', '-J', '-t', 'main');
  const api = {
    dir,
    project,
    screen,
    /** Types text literally (no Enter). */
    type: (text) => void tmux('send-keys', '-t', 'main', '-l', text),
    /** Presses a key by tmux name: Enter, Escape, C-c, … */
    press: (key) => void tmux('send-keys', '-t', 'main', key),
    /**
     * Presses a key until the screen shows `pattern`, its effect: a key pressed while a prompt is still
     * being drawn can be lost, so it is pressed again if nothing shows for a while (a key too many lands
     * in the empty prompt, where it does nothing). Until the test's deadline.
     */
    pressUntil: (key, pattern) => pressUntil(api.press, screen, key, pattern, 'Claude Code'),
    waitFor: (pattern, ms = timeLeftMs()) => waitForScreen(screen, pattern, 'Claude Code', ms),
    /** Resolves once Claude Code shows its prompt, ready for typing. */
    ready: (ms = timeLeftMs()) => api.waitFor(READY, ms),
    /**
     * Types a prompt and submits it. Enter right after fast typing can count as part of a paste, so it
     * is pressed again until the scripted model (`model.received`) has a request carrying the prompt.
     */
    async prompt(text, model) {
      const deadline = Date.now() + timeLeftMs();
      api.type(text);
      const shownBy = Date.now() + SHOW_TEXT_MS;
      while (Date.now() < shownBy && !screen().includes(text)) await sleep(100);
      const sent = () => model.received.some((r) => JSON.stringify(r.body.messages ?? []).includes(text));
      while (!sent() && Date.now() < deadline) {
        await sleep(PASTE_SETTLE_MS);
        api.press('Enter');
        const next = Math.min(Date.now() + ENTER_AGAIN_AFTER_MS, deadline);
        while (!sent() && Date.now() < next) await sleep(200);
      }
      assert.ok(sent(), `waited until the test's deadline: Claude Code did not send the prompt to the model; it shows:\n${screen()}`);
    },
    /** Ends the session (and its hooks) and, once Claude Code has exited, removes the scratch folder. */
    async close() {
      spawnSync('tmux', ['-S', socket, 'kill-server'], { env: childEnv });
      // Until the test's deadline: a folder removed under a running Claude Code (or its hooks) is not cleaned up.
      const deadline = Date.now() + timeLeftMs();
      while (alive() && Date.now() < deadline) await sleep(100);
      if (process.env.AGENT_QUESTIONS_KEEP === '1') process.stderr.write(`[claude-code tty] kept ${dir}\n`);
      else rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
  return api;
}

/** The lines of a handed-out configuration text under its `// <file>` heading, up to the next blank line. */
export function configSection(text, heading) {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  assert.ok(start >= 0, `the configuration has a "${heading}" section`);
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}
