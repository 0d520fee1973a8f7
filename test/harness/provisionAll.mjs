// Everything the layers need — Debian's packages, Node 24, code-server, and for the agent and
// external layers the three agent CLIs — installed and checked once, one at a time, before the first
// layer starts, under a lock on the cache: a second `npm test` beside the first waits for it instead
// of racing it. Run as a script under flock(1) by provisionAll(); `--agents` adds the CLIs.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { provisionCodex, provisionOpenCode } from './agentClis.mjs';
import { provisionClaudeCode } from './claudeCode.mjs';
import { cacheDir, provision } from './provision.mjs';

/** flock's exit code when another process holds the lock (chosen to differ from the script's own). */
const LOCKED = 75;

export function provisionAll({ agents }) {
  mkdirSync(cacheDir, { recursive: true });
  const lock = join(cacheDir, '.provision.lock');
  const script = [process.execPath, import.meta.filename, ...(agents ? ['--agents'] : [])];
  // The kernel's lock: released when its holder ends, however it ends.
  let result = spawnSync('flock', ['--exclusive', '--nonblock', '--conflict-exit-code', String(LOCKED), lock, ...script], { stdio: 'inherit' });
  if (result.status === LOCKED) {
    process.stderr.write(`[provision] another npm test is provisioning ${cacheDir}; waiting for it to finish\n`);
    result = spawnSync('flock', ['--exclusive', lock, ...script], { stdio: 'inherit' });
  }
  if (result.error) throw new Error(`could not run flock (util-linux) to provision under a lock: ${result.error.message}`);
  if (result.status !== 0) throw new Error('provisioning failed (see the lines above)');
}

if (process.argv[1] === import.meta.filename) {
  const started = Date.now();
  const log = (what, since) => process.stderr.write(`[provision] ${what} (${((Date.now() - since) / 1000).toFixed(1)} s)\n`);
  try {
    const { chromium } = provision();
    // Chromium's first start on a busy machine is slow, not broken: no short limit.
    const version = spawnSync(chromium, ['--headless', '--no-sandbox', '--version'], { encoding: 'utf8', timeout: 10 * 60_000 });
    if (version.status !== 0) throw new Error(`${chromium} does not run: ${version.stderr || version.error?.message}`);
    log(`Debian packages, Node 24, code-server and ${version.stdout.trim()} ready`, started);
    if (process.argv.includes('--agents')) {
      for (const [name, install] of [
        ['Claude Code', provisionClaudeCode],
        ['OpenCode', provisionOpenCode],
        ['Codex CLI', provisionCodex],
      ]) {
        const since = Date.now();
        install();
        log(`${name} installed and runs`, since);
      }
    }
  } catch (error) {
    process.stderr.write(`[provision] ${error instanceof Error ? error.message : error}\n`);
    process.exit(1);
  }
}
