// npm run bench: the broker benchmark (plain Node), the answer page on a phone viewport (headless
// Chromium, no workbench), the MCP endpoint and the hook commands as they ship (plain Node, after
// packaging), then the panel and agent-loop benchmarks and the long-wait return path (real
// workbench). `npm run bench -- agent` runs only the agent-loop head-to-head (the noisiest line,
// worth running several times); `npm run bench -- answerPage` only the answer page (nudge sent ->
// page interactive on a phone, its transfer size); `npm run bench -- mcp` only the endpoint and the
// hooks; `npm run bench -- panel` only the panel benchmark (the Question panel and the Queue tree
// with 200 waiting).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageExtension, packageScriptedModel } from '../../scripts/package.mjs';
import { provision } from '../harness/provision.mjs';

const root = join(import.meta.dirname, '..', '..');
const run = (args, env = {}) => {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const PARTS = ['agent', 'answerPage', 'mcp', 'panel'];
const only = process.argv.slice(2);
if (only.some((name) => !PARTS.includes(name))) {
  console.error(`npm run bench: unknown part ${only.join(' ')}; the parts that run alone are ${PARTS.join(', ')}`);
  process.exit(2);
}
const all = only.length === 0;
const part = (name) => all || only.includes(name);

run([join(root, 'esbuild.mjs')]);
if (all) run(['--expose-gc', join(root, 'out', 'test', 'bench', 'brokerBench.js')]);
provision();
if (part('answerPage')) run([join(root, 'out', 'test', 'bench', 'answerPageBench.js')]);
if (!part('agent') && !part('panel') && !part('mcp')) process.exit(0);
const vsix = packageExtension();
// After packaging: the hook commands timed are the ones that ship (dist/, built for production).
if (part('mcp')) run([join(root, 'out', 'test', 'bench', 'mcpBench.js')]);
if (part('panel')) run([join(root, 'out', 'test', 'bench', 'panelBench.js')], { AGENT_QUESTIONS_VSIX: vsix });
if (!part('agent')) process.exit(0);
run([join(root, 'out', 'test', 'bench', 'agentBench.js')], { AGENT_QUESTIONS_VSIX: vsix, AGENT_QUESTIONS_MODEL_VSIX: packageScriptedModel() });
if (all) run([join(root, 'out', 'test', 'bench', 'waitBench.js')], { AGENT_QUESTIONS_VSIX: vsix, AGENT_QUESTIONS_MODEL_VSIX: packageScriptedModel() });
