// Runs the *.test.js files under one folder (subfolders included) with mocha and records the counts, for every test layer.
import Mocha from 'mocha';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastStep, startRunnable } from './deadline';
import { listTestFiles, type FileChoice } from './testFiles';

export interface LayerResult {
  passed: number;
  failed: number;
  pending: number;
}

export async function runMochaSuite(
  folder: string,
  options: { timeout: number; resultsFile?: string | undefined; grep?: string | undefined; choice?: FileChoice | undefined },
): Promise<LayerResult> {
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: options.timeout, reporter: 'spec', ...(options.grep ? { grep: options.grep } : {}) });
  for (const file of listTestFiles(folder, options.choice)) mocha.addFile(join(folder, file));
  const result: LayerResult = { passed: 0, failed: 0, pending: 0 };
  await new Promise<void>((resolve) => {
    const runner = mocha.run();
    runner.on('pass', () => result.passed++);
    // Each test and hook has one deadline; every wait inside it waits until then (deadline.ts).
    runner.on('test', (test) => startRunnable(test));
    runner.on('hook', (hook) => startRunnable(hook));
    runner.on('hook end', (hook) => {
      // The test's own clock starts after its "before each" hooks.
      if (hook.title.startsWith('"before each"') && hook.ctx?.currentTest) startRunnable(hook.ctx.currentTest);
    });
    runner.on('fail', (_runnable, error: Error & { code?: string }) => {
      result.failed++;
      // A deadline that ran out names the step the test was waiting for (the reporter prints errors at the end).
      const at = lastStep();
      if (error?.code === 'ERR_MOCHA_TIMEOUT' && at) error.message += ` It was waiting for: ${at}.`;
    });
    runner.on('pending', () => result.pending++);
    // Each top-level suite's time, set-up included: where a layer's minutes go.
    const started = new Map<Mocha.Suite, number>();
    runner.on('suite', (suite) => started.set(suite, Date.now()));
    runner.on('suite end', (suite) => {
      if (suite.parent?.root) console.log(`  (${suite.title}: ${((Date.now() - started.get(suite)!) / 1000).toFixed(1)} s)`);
    });
    runner.on('end', () => resolve());
  });
  if (options.resultsFile) writeFileSync(options.resultsFile, JSON.stringify(result));
  return result;
}
