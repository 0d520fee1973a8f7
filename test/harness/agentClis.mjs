// OpenCode and Codex CLI from the npm registry (cached like Claude Code), run in a scratch HOME,
// to check that the configurations "Connect an External Agent…" hands out work in the real tools.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { provisionNpmCli } from './npmCli.mjs';
import { timeLeftMs } from './timeLeft.mjs';

export const OPENCODE_VERSION = '1.18.33';
export const CODEX_VERSION = '0.171.0';

export const provisionOpenCode = () => provisionNpmCli({ pkg: 'opencode-ai', version: OPENCODE_VERSION, folder: `opencode-${OPENCODE_VERSION}`, bins: [join('.bin', 'opencode')] });
export const provisionCodex = () => provisionNpmCli({ pkg: '@openai/codex', version: CODEX_VERSION, folder: `codex-${CODEX_VERSION}`, bins: [join('.bin', 'codex')] });

// Variables that would send the CLI's traffic elsewhere than 127.0.0.1.
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|npm_.*)$/i;

/**
 * Runs `exe args…` in `cwd` with a scratch HOME (removed afterwards) and `env` added; resolves its
 * output with colour codes removed, whatever its exit code.
 */
export function runCli(exe, args, { cwd, env = {} }) {
  const home = mkdtempSync(join(tmpdir(), 'agent-questions-cli-'));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !STRIPPED.test(key)));
  const fullEnv = { ...inherited, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache'), ...env };
  return new Promise((resolve) => {
    execFile(exe, args, { cwd, env: fullEnv, timeout: timeLeftMs(), encoding: 'utf8' }, (_error, stdout, stderr) => {
      rmSync(home, { recursive: true, force: true });
      resolve(`${stdout}${stderr}`.replace(/\u001b\[[0-9;]*m/g, ''));
    });
  });
}
