// `npm run package`: a production build, then a .vsix with only what runs (see .vscodeignore).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { deflateRawSync } from 'node:zlib';
import { basename, dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const vsixPath = join(root, `agent-questions-${version}.vsix`);

/** Everything a .vsix is built from: a change to any of these means packaging again. */
const EXTENSION_INPUTS = [
  'src',
  'media',
  'esbuild.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  '.vscodeignore',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'l10n',
  'package.nls.json',
];

function filesUnder(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** A hash of the inputs' names and contents (relative to `base`). */
export function inputsHash(base, inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((input) => filesUnder(join(base, input)))) {
    hash.update(relative(base, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Runs `make` unless `reuse` and `out` exists and was made from inputs with the same hash (recorded
 * in out/vsix-inputs/, after making, since the build regenerates part of package.json).
 * Returns whether it packaged.
 */
function packageOnce(out, base, inputs, make, reuse) {
  const marker = join(root, 'out', 'vsix-inputs', `${basename(out)}.sha256`);
  if (reuse && existsSync(out) && existsSync(marker) && readFileSync(marker, 'utf8') === inputsHash(base, inputs)) {
    console.log(`[package] ${basename(out)} is up to date with its sources; not packaging again`);
    return false;
  }
  rmSync(marker, { force: true });
  make();
  mkdirSync(dirname(marker), { recursive: true });
  writeFileSync(marker, inputsHash(base, inputs));
  return true;
}

/**
 * The production build packaged as a .vsix. With `reuse`, an existing .vsix built from the same
 * inputs is kept (npm start, npm run pictures); npm test always packages, so packaging is tested
 * on every run.
 */
export function packageExtension({ reuse = false } = {}) {
  packageOnce(
    vsixPath,
    root,
    EXTENSION_INPUTS,
    () => {
      execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
      const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
      execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsixPath], { cwd: root, stdio: 'inherit' });
      printBundleSizes();
    },
    reuse,
  );
  return vsixPath;
}

/**
 * One line with each shipped bundle's size, as built and as compressed in the .vsix (deflate, as
 * vsce does), and the .vsix's, with the shell parser's share: growth is seen where it happens.
 */
function printBundleSizes() {
  const dist = join(root, 'dist');
  const kb = (bytes) => (bytes / 1024).toFixed(0);
  const bundles = readdirSync(dist)
    .filter((f) => /\.(js|wasm)$/.test(f))
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dist, name));
      return { name, built: bytes.length, compressed: deflateRawSync(bytes).length };
    });
  const parser = bundles.filter((b) => ['shell.js', 'tree-sitter.wasm', 'tree-sitter-bash.wasm'].includes(b.name)).reduce((sum, b) => sum + b.compressed, 0);
  const vsix = statSync(vsixPath).size;
  console.log(`[package] bundles (built → in the .vsix): ${bundles.map((b) => `${b.name} ${kb(b.built)} → ${kb(b.compressed)} KB`).join(', ')}`);
  console.log(`[package] .vsix ${kb(vsix)} KB: the shell parser (shell.js and tree-sitter's two .wasm files) ${kb(parser)} KB, everything else ${kb(vsix - parser)} KB`);
}

/**
 * The scripted model (test/fixtures/scripted-model) as its own .vsix, for the agent tests and the
 * `npm start` demo. It is a separate extension, so it never ships in ours.
 */
export function packageScriptedModel({ reuse = false } = {}) {
  const folder = join(root, 'test', 'fixtures', 'scripted-model');
  const out = join(root, 'out', 'agent-questions-scripted-model.vsix');
  const make = () => {
    const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], {
      cwd: folder,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  };
  packageOnce(out, folder, ['.'], make, reuse);
  return out;
}

if (process.argv[1] === import.meta.filename) packageExtension();
