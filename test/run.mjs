// `npm test`: type-checks, lints and builds, then runs the unit, integration, ui and agent layers one after
// another; half of the ui layer and the external layer run beside them (their output printed whole
// when each ends). It ends with a line per layer (or part) and a total. Exit code is non-zero on any failure.
//   npm test                      all layers
//   npm test -- unit integration  some layers
//   npm test -- ui only panel,queue  a part of a layer: `only` or `except` test files, each by its
//                                  path under the layer's folder without .test.ts, or by its base name
//   AGENT_QUESTIONS_DESKTOP=1     integration on a downloaded desktop VS Code (needs the internet)
//   AGENT_QUESTIONS_GREP=pattern  only tests whose title matches
// An unknown layer name is an error that lists the valid ones.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTests } from '@vscode/test-electron';
import { choiceArgs, emptyReason, parseArguments } from './harness/layers.mjs';
import { packageExtension, packageScriptedModel } from '../scripts/package.mjs';
import { provision } from './harness/provision.mjs';
import { provisionCodex, provisionOpenCode } from './harness/agentClis.mjs';
import { provisionClaudeCode } from './harness/claudeCode.mjs';

const root = join(import.meta.dirname, '..');
const out = join(root, 'out', 'test');
let layers;
let choices;
try {
  ({ layers, choices } = parseArguments(process.argv.slice(2)));
} catch (error) {
  console.error(`npm test: ${error.message}`);
  process.exit(2);
}
const grep = process.env.AGENT_QUESTIONS_GREP || undefined;
const desktop = process.env.AGENT_QUESTIONS_DESKTOP === '1';
const scratch = mkdtempSync(join(tmpdir(), 'agent-questions-test-'));
const started = Date.now();

/** The type-check first: esbuild strips types, so only tsc sees a type error (every project: src and tests, the panel, the ui tests). */
function typecheck() {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const project of ['.', 'src/webview', 'test/ui']) {
    const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error(`the type-check of ${project === '.' ? 'the root project' : project} failed`);
  }
}

/** Then the lint: the layers between src/ folders, import cycles, exhaustive switches (eslint.config.mjs), and the formatting. */
function lint() {
  const eslint = join(root, 'node_modules', 'eslint', 'bin', 'eslint.js');
  const result = spawnSync(process.execPath, [eslint, '--max-warnings', '0', '.'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the lint failed (the problems are listed above; npm run lint runs it alone)');
  // The layout is Prettier's (.prettierrc.json): npm run format applies it.
  const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  const format = spawnSync(process.execPath, [prettier, '--check', '--log-level', 'warn', '.'], { cwd: root, stdio: 'inherit' });
  if (format.status !== 0) throw new Error('files above are not formatted as Prettier lays them out (npm run format fixes them)');
}

function build() {
  typecheck();
  lint();
  const result = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the build failed');
}

function readResult(file, exitCode) {
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  // The suite never reported (crashed before or while loading): count it as one failure.
  return { passed: 0, failed: exitCode === 0 ? 0 : 1, pending: 0, crashed: true };
}

function runNodeLayer(name, timeoutMs, env = {}, files = []) {
  const resultsFile = join(scratch, `${name}.json`);
  const result = spawnSync(process.execPath, ['--enable-source-maps', join(out, 'harness', 'runLayer.js'), join(out, name), String(timeoutMs), resultsFile, ...files], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return readResult(resultsFile, result.status);
}

/**
 * A layer, or a part of one (`only`/`except` a list of test files), started in the background: its
 * output goes to a file, printed whole when it ends, so it can run beside the other layers (the
 * external layer mostly waits on CLIs and on deliberate human-like delays).
 */
function startNodeLayer(key, folder, timeoutMs, env = {}, files = []) {
  const safe = key.replace(/\W+/g, '-');
  const resultsFile = join(scratch, `${safe}.json`);
  const logFile = join(scratch, `${safe}.log`);
  // A file, not a pipe: the other layers run with spawnSync, which would leave a pipe unread.
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--enable-source-maps', join(out, 'harness', 'runLayer.js'), join(out, folder), String(timeoutMs), resultsFile, ...files], {
    cwd: root,
    stdio: ['ignore', log, log],
    env: { ...process.env, ...env },
  });
  const started = Date.now();
  return new Promise((resolve) => {
    child.on('close', (code) => {
      closeSync(log);
      console.log(`\n=== ${key} (ran beside the layers above; its output) ===`);
      process.stdout.write(readFileSync(logFile, 'utf8'));
      resolve({ key, result: readResult(resultsFile, code), seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function runIntegration() {
  const resultsFile = join(scratch, 'integration.json');
  const workspace = join(root, 'test', 'fixtures', 'workspace');
  let code;
  try {
    code = await runTests({
      ...(desktop ? { version: '1.139.1' } : { vscodeExecutablePath: join(root, 'test', 'harness', 'launcher.mjs') }),
      extensionDevelopmentPath: root,
      extensionTestsPath: join(out, 'integration', 'index.js'),
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: { AGENT_QUESTIONS_RESULTS_FILE: resultsFile, AGENT_QUESTIONS_CHOICE: choiceArgs(choices.integration).join(' ') },
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    code = 1;
  }
  return readResult(resultsFile, code);
}

let packaged;
const vsix = () => (packaged ??= packageExtension());

const results = {};
const seconds = {};
try {
  build();
  // Only the unit layer and the integration layer on desktop VS Code run without code-server.
  if (layers.some((l) => l !== 'unit' && !(l === 'integration' && desktop))) provision();
  // Artifacts are this run's only.
  rmSync(join(root, 'test-results'), { recursive: true, force: true });
  mkdirSync(join(root, 'test-results'), { recursive: true });
  // The external layer runs beside the others when they run too (see startNodeLayer): its long
  // waits from the integration layer on, each a part of its own (they share no workbench and mostly
  // wait: interactive Claude Code answered after ten minutes; each CLI answered past its own limit),
  // the rest with the ui layer.
  const background = [];
  const together = layers.includes('external') && layers.some((l) => l === 'ui' || l === 'agent');
  const externalEnv = () => {
    provisionClaudeCode();
    provisionOpenCode();
    provisionCodex();
    return { AGENT_QUESTIONS_VSIX: vsix() };
  };
  const LONG_WAITS = { 'external (ten-minute wait)': 'claudeCodeForeground', 'external (long waits)': 'longWait' };
  // A part of the external layer named on the command line runs as one, from where the long waits start.
  const firstExternalParts = choices.external ? [['external', choiceArgs(choices.external)]] : Object.entries(LONG_WAITS).map(([key, file]) => [key, ['only', file]]);
  // About half of the ui layer's minutes (the suites' own times, printed by each run).
  const UI_SECOND_HALF = 'accessibility,markdown,previews,panel,localization,oneAction,images';
  let longWaitsStarted = false;
  let restOfExternal;
  for (const layer of layers) {
    if (layer === 'external' && together) continue;
    // After the unit layer, which reads the development build that packaging replaces.
    if (layer !== 'unit' && together && !longWaitsStarted) {
      longWaitsStarted = true;
      for (const [key, files] of firstExternalParts) background.push(startNodeLayer(key, 'external', 300_000, externalEnv(), files));
    }
    console.log(`\n=== ${layer} ===`);
    const layerStarted = Date.now();
    if (layer === 'unit') results.unit = runNodeLayer('unit', 60_000, {}, choiceArgs(choices.unit));
    if (layer === 'integration') results.integration = await runIntegration();
    if ((layer === 'ui' || layer === 'agent') && together && !restOfExternal && !choices.external) {
      restOfExternal = startNodeLayer('external', 'external', 300_000, externalEnv(), ['except', Object.values(LONG_WAITS).join(',')]);
      background.push(restOfExternal);
    }
    // The ui layer drives the packaged .vsix, so packaging is tested on every run. It runs in two
    // halves side by side (each suite opens its own workbench), the second in the background; a part
    // named on the command line runs as one.
    if (layer === 'ui' && choices.ui) results.ui = runNodeLayer('ui', 300_000, { AGENT_QUESTIONS_VSIX: vsix() }, choiceArgs(choices.ui));
    else if (layer === 'ui') {
      background.push(startNodeLayer('ui (second half)', 'ui', 300_000, { AGENT_QUESTIONS_VSIX: vsix() }, ['only', UI_SECOND_HALF]));
      results.ui = runNodeLayer('ui', 300_000, { AGENT_QUESTIONS_VSIX: vsix() }, ['except', UI_SECOND_HALF]);
    }
    // The agent layer: VS Code's own agent mode with the scripted model calls ask_user (and, answered
    // from a phone, Claude Code asks through its hook beside it).
    if (layer === 'agent') provisionClaudeCode();
    if (layer === 'agent')
      results.agent = runNodeLayer('agent', 300_000, { AGENT_QUESTIONS_VSIX: vsix(), AGENT_QUESTIONS_MODEL_VSIX: packageScriptedModel() }, choiceArgs(choices.agent));
    // The external layer: the real Claude Code CLI asks through the MCP endpoint; OpenCode and
    // Codex CLI read the configurations we hand out.
    if (layer === 'external') results.external = (await startNodeLayer('external', 'external', 300_000, externalEnv(), choiceArgs(choices.external))).result;
    seconds[layer] = (Date.now() - layerStarted) / 1000;
  }
  for (const { key, result, seconds: took } of await Promise.all(background)) {
    results[key] = result;
    seconds[key] = took;
  }
} catch (error) {
  console.error(`npm test: ${error instanceof Error ? error.message : error}`);
  results.setup = { passed: 0, failed: 1, pending: 0, crashed: true };
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

let passed = 0;
let failed = 0;
console.log('');
for (const [layer, r] of Object.entries(results)) {
  passed += r.passed;
  failed += r.failed + r.pending;
  const notes = [
    r.pending ? `${r.pending} pending (counted as failed)` : '',
    r.crashed ? 'did not finish' : '',
    emptyReason(r, grep) ?? '',
    seconds[layer] === undefined ? '' : `${seconds[layer].toFixed(0)} s`,
  ]
    .filter(Boolean)
    .join(', ');
  console.log(`${layer}: ${r.passed} passed, ${r.failed + r.pending} failed${notes ? ` (${notes})` : ''}`);
}
console.log(`total: ${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
// Nothing ran is a failure too (a mistyped pattern must not look green), but it says why.
if (passed + failed === 0 && !results.setup) {
  console.log(
    grep ? `nothing ran: no test title in ${layers.join(', ')} matches AGENT_QUESTIONS_GREP=${JSON.stringify(grep)} (a regular expression)` : 'nothing ran: no tests found',
  );
}
process.exit(failed > 0 || passed === 0 ? 1 : 0);
