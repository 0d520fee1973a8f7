// Installs an agent CLI from the npm registry once into the cache (a private prefix per version)
// and finds the executable of it that runs. Used for Claude Code, OpenCode and Codex CLI.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from './provision.mjs';

/** The environment without what an outer `npm test` sets, which would redirect a nested npm. */
function withoutNpmVariables(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
}

// A first start can take long on a busy machine (OpenCode's took 9-12 s at a load of 15): slow is
// not broken, so the check has no short limit, only one that ends a hung start.
const VERSION_CHECK_LIMIT_MS = 10 * 60_000;

function runs(file, version) {
  try {
    return execFileSync(file, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: VERSION_CHECK_LIMIT_MS }).includes(version);
  } catch {
    return false;
  }
}

const provisioned = new Map();

/** The executable found to run once (recorded beside the install), so later runs and layers do not start it again. */
function verifiedBin(dir) {
  const stamp = join(dir, '.verified');
  if (!existsSync(stamp)) return undefined;
  const bin = join(dir, readFileSync(stamp, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}

/**
 * Installs `pkg@version` once into <cache>/<folder>; returns the first of `bins` (paths relative to
 * its node_modules) that runs and reports that version.
 */
export function provisionNpmCli({ pkg, version, folder, bins }) {
  const key = `${pkg}@${version}`;
  if (provisioned.has(key)) return provisioned.get(key);
  const dir = join(cacheDir, folder);
  if (!existsSync(join(dir, '.complete'))) {
    // installed beside the final folder and renamed, so a broken install never looks finished
    const scratch = `${dir}.partial-${process.pid}`;
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    writeFileSync(join(scratch, 'package.json'), '{"private":true}\n');
    process.stderr.write(`[provision] installing ${key} into ${dir} (first run only)\n`);
    execFileSync('npm', ['install', '--prefix', scratch, key, '--no-audit', '--no-fund', '--loglevel=error'], {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: withoutNpmVariables(process.env),
    });
    writeFileSync(join(scratch, '.complete'), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  }
  let found = verifiedBin(dir);
  if (!found) {
    found = bins.map((bin) => join(dir, 'node_modules', bin)).find((file) => existsSync(file) && runs(file, version));
    if (!found) throw new Error(`${key} is installed in ${dir} but none of its executables runs; delete that folder and try again`);
    writeFileSync(join(dir, '.verified'), `${found.slice(dir.length + 1)}\n`);
  }
  provisioned.set(key, found);
  return found;
}
