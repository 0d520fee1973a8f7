// `npm run pictures`: regenerates the README's pictures (media/readme/) in the real workbench.
// Packages the extension and the scripted model only when their sources changed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageExtension, packageScriptedModel } from './package.mjs';
import { provision } from '../test/harness/provision.mjs';

const root = join(import.meta.dirname, '..');
const run = (args, env = {}) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

run([join(root, 'esbuild.mjs')]);
provision();
const vsix = packageExtension({ reuse: true });
run(['--enable-source-maps', join(root, 'out', 'test', 'ui', 'readmePictures.js')], {
  AGENT_QUESTIONS_VSIX: vsix,
  AGENT_QUESTIONS_MODEL_VSIX: packageScriptedModel({ reuse: true }),
});
