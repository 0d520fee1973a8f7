// `npm run package`: a production build, then a .vsix with only what runs (see .vscodeignore).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
export const vsixPath = join(root, `agent-questions-${version}.vsix`);

export function packageExtension() {
  execFileSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
  const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsixPath], { cwd: root, stdio: 'inherit' });
  return vsixPath;
}

/**
 * The scripted model (test/fixtures/scripted-model) as its own .vsix, for the agent tests and the
 * `npm start` demo. It is a separate extension, so it never ships in ours.
 */
export function packageScriptedModel() {
  const folder = join(root, 'test', 'fixtures', 'scripted-model');
  const out = join(root, 'out', 'agent-questions-scripted-model.vsix');
  const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}

if (process.argv[1] === import.meta.filename) packageExtension();
