// `npm test`: type-checks, lints and builds, provisions the harness up front (under a lock), runs the
// unit layer, then the other layers (some in parts) side by side as the machine's cores and load allow
// (test/harness/scheduler.mjs), each part's output printed whole when it ends. It ends with a line per
// layer (or part) and a total. Exit code is non-zero on any failure.
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
import { provisionAll } from './harness/provisionAll.mjs';
import { fixtureWorkspace } from './harness/fixtureWorkspace.mjs';
import { runJobs } from './harness/scheduler.mjs';

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
      const output = readFileSync(logFile, 'utf8');
      process.stdout.write(output);
      failures[key] = failureSection(output);
      resolve({ key, result: readResult(resultsFile, code), seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Each part's failures, repeated last: a run's log is often read from its end (CI keeps only the tail). */
const failures = {};
const RECAP_LINES = 40;

/** Mocha's "N failing" section of a part's output, its first lines, or '' when none failed. */
function failureSection(output) {
  const at = output.search(/^\s*\d+ failing$/m);
  if (at < 0) return '';
  const lines = output.slice(at).trimEnd().split('\n');
  return lines.length > RECAP_LINES ? [...lines.slice(0, RECAP_LINES), `  … ${lines.length - RECAP_LINES} more lines in its output above`].join('\n') : lines.join('\n');
}

async function runIntegration() {
  const resultsFile = join(scratch, 'integration.json');
  const workspace = fixtureWorkspace(root, scratch);
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
  // Every layer but unit (and integration on desktop VS Code) needs the harness: all of it installed
  // and checked up front, under a lock (provisionAll.mjs); the agent CLIs for the agent and external layers.
  if (layers.some((l) => l !== 'unit' && !(l === 'integration' && desktop))) provisionAll({ agents: layers.includes('agent') || layers.includes('external') });
  // Artifacts are this run's only.
  rmSync(join(root, 'test-results'), { recursive: true, force: true });
  mkdirSync(join(root, 'test-results'), { recursive: true });
  // The unit layer first and alone: it reads the development build that packaging replaces.
  if (layers.includes('unit')) {
    console.log('\n=== unit ===');
    const unitStarted = Date.now();
    results.unit = runNodeLayer('unit', 60_000, {}, choiceArgs(choices.unit));
    seconds.unit = (Date.now() - unitStarted) / 1000;
  }
  // The other layers as jobs, side by side as the machine allows (scheduler.mjs). Each suite opens its
  // own workbench, so a layer can be split in parts that run apart; a part prints its output whole
  // when it ends. The long waits mostly wait (a CLI answered past its own limit, interactive Claude
  // Code after ten minutes): they go first and take no slot.
  const env = {};
  const withVsix = () => ({ ...env, AGENT_QUESTIONS_VSIX: vsix() });
  const jobs = [];
  const job = (key, waits, start) => jobs.push({ key, waits, start });
  const LONG_WAITS = { 'external (ten-minute wait)': 'claudeCodeForeground', 'external (long waits)': 'longWait' };
  // About half of the ui layer's minutes (the suites' own times, printed by each run).
  const UI_SECOND_HALF = 'accessibility,markdown,previews,panel,localization,oneAction,images';
  if (layers.includes('external') && !choices.external) {
    for (const [key, file] of Object.entries(LONG_WAITS)) job(key, true, () => startNodeLayer(key, 'external', 300_000, withVsix(), ['only', file]));
  }
  // The rest start longest first, so the longest part never starts last (each part's minutes on a
  // quiet 2-core machine, from the run's own lines: external's two parts about 6 minutes each, ui's
  // two parts 5 to 6, agent 4 to 6, integration 1).
  // The real Claude Code, Codex and OpenCode CLIs read the configurations we hand out; the suites
  // where each agent must not run a held command without a person are a part of their own.
  const FAIL_CLOSED = 'claudeCodeFailClosed,codexFailClosed,codexTuiFailClosed,openCodeFailClosed,crowdedEndpoint';
  if (layers.includes('external') && choices.external) job('external', false, () => startNodeLayer('external', 'external', 300_000, withVsix(), choiceArgs(choices.external)));
  else if (layers.includes('external')) {
    job('external (fail closed)', false, () => startNodeLayer('external (fail closed)', 'external', 300_000, withVsix(), ['only', FAIL_CLOSED]));
    job('external', false, () => startNodeLayer('external', 'external', 300_000, withVsix(), ['except', [...Object.values(LONG_WAITS), FAIL_CLOSED].join(',')]));
  }
  // The ui layer drives the packaged .vsix, so packaging is tested on every run.
  if (layers.includes('ui') && choices.ui) job('ui', false, () => startNodeLayer('ui', 'ui', 300_000, withVsix(), choiceArgs(choices.ui)));
  else if (layers.includes('ui')) {
    job('ui', false, () => startNodeLayer('ui', 'ui', 300_000, withVsix(), ['except', UI_SECOND_HALF]));
    job('ui (second half)', false, () => startNodeLayer('ui (second half)', 'ui', 300_000, withVsix(), ['only', UI_SECOND_HALF]));
  }
  // VS Code's own agent mode with the scripted model calls ask_user (and, answered from a phone,
  // Claude Code asks through its hook beside it).
  if (layers.includes('agent'))
    job('agent', false, () => startNodeLayer('agent', 'agent', 300_000, { ...withVsix(), AGENT_QUESTIONS_MODEL_VSIX: packageScriptedModel() }, choiceArgs(choices.agent)));
  if (layers.includes('integration')) {
    job('integration', false, async () => {
      const started = Date.now();
      return { result: await runIntegration(), seconds: (Date.now() - started) / 1000 };
    });
  }
  const done = await runJobs(jobs);
  jobs.forEach(({ key }, i) => {
    results[key] = done[i]?.result ?? { passed: 0, failed: 1, pending: 0, crashed: true };
    if (done[i]) seconds[key] = done[i].seconds;
  });
} catch (error) {
  console.error(`npm test: ${error instanceof Error ? error.message : error}`);
  results.setup = { passed: 0, failed: 1, pending: 0, crashed: true };
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

for (const [key, section] of Object.entries(failures)) if (section) console.log(`\n=== ${key}: what failed (repeated from its output) ===\n${section}`);

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
