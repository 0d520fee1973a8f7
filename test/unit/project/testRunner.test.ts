import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceArgs, emptyReason, LAYERS, parseArguments, parseLayers } from '../../harness/layers.mjs';
import { listTestFiles } from '../../harness/testFiles';
import { ROOT } from '../helpers/repoRoot';

suite('npm test: choosing layers and reporting empty ones', () => {
  test('no layer named runs all five; named layers run once each, in the order given', () => {
    assert.deepEqual(parseLayers([]), ['unit', 'integration', 'ui', 'agent', 'external']);
    assert.deepEqual(parseLayers(['ui', 'unit', 'ui']), ['ui', 'unit']);
    assert.deepEqual([...LAYERS], parseLayers([]));
  });

  test('a mistyped layer is an error naming it and every valid layer, never a run of all layers', () => {
    assert.throws(() => parseLayers(['unti']), /unknown layer "unti"; the layers are: unit, integration, ui, agent, external/);
    assert.throws(() => parseLayers(['unit', '--grep']), /unknown layer "--grep"/);
  });

  test('`only`/`except` after a layer name run a part of that layer; without a layer or files it is an error', () => {
    const { layers, choices } = parseArguments(['ui', 'only', 'panel,broker/queue', 'unit', 'integration', 'except', 'secrets']);
    assert.deepEqual(layers, ['ui', 'unit', 'integration']);
    assert.deepEqual(choices, { ui: { files: ['panel', 'broker/queue'], except: false }, integration: { files: ['secrets'], except: true } });
    assert.deepEqual(choiceArgs(choices['ui']), ['only', 'panel,broker/queue']);
    assert.deepEqual(choiceArgs(parseArguments(['unit']).choices['unit']), [], 'a layer named alone runs whole');
    assert.throws(() => parseArguments(['only', 'panel']), /"only" must follow a layer name/);
    assert.throws(() => parseArguments(['ui', 'except']), /"ui except" needs the test files/);
    assert.throws(() => parseArguments(['ui', 'only', 'unit']), /"ui only" needs the test files/);
  });

  test('a layer that ran nothing says why: the pattern matched no title, or there were no tests', () => {
    assert.equal(emptyReason({ passed: 0, failed: 0, pending: 0 }, 'zzz'), 'no test title matches AGENT_QUESTIONS_GREP="zzz"');
    assert.equal(emptyReason({ passed: 0, failed: 0, pending: 0 }, undefined), 'no tests found');
    assert.equal(emptyReason({ passed: 1, failed: 0, pending: 0 }, 'zzz'), undefined);
    assert.equal(emptyReason({ passed: 0, failed: 1, pending: 0, crashed: true }, 'zzz'), undefined, 'a crash is reported as a crash');
  });

  test('`npm test -- unti` stops at once with exit code 2 and the valid layers, before building anything', () => {
    const started = Date.now();
    const result = spawnSync(process.execPath, [join(ROOT, 'test', 'run.mjs'), 'unti'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /npm test: unknown layer "unti"; the layers are: unit, integration, ui, agent, external/);
    assert.doesNotMatch(result.stdout, /===/, 'no layer ran');
    assert.ok(Date.now() - started < 10_000, 'it did not build or provision');
  });
});

suite('npm test: the test files of a layer, subfolders included', () => {
  let folder: string;
  suiteSetup(() => {
    folder = mkdtempSync(join(tmpdir(), 'aq-test-files-'));
    for (const file of ['queue.test.js', 'helpers.js', 'broker/policy.test.js', 'broker/shell/policy.test.js', 'broker/shell/parser.test.js']) {
      mkdirSync(join(folder, file, '..'), { recursive: true });
      writeFileSync(join(folder, file), '');
    }
  });
  suiteTeardown(() => rmSync(folder, { recursive: true, force: true }));
  const list = (choice?: { files: string[]; except: boolean }) => listTestFiles(folder, choice).map((file) => file.split(/[\\/]/).join('/'));

  test('every *.test.js file under the folder runs, in subfolders too, sorted; other files do not', () => {
    assert.deepEqual(list(), ['broker/policy.test.js', 'broker/shell/parser.test.js', 'broker/shell/policy.test.js', 'queue.test.js']);
  });

  test('only/except name a file by its path under the folder or by its base name (every file of that name)', () => {
    assert.deepEqual(list({ files: ['broker/shell/policy'], except: false }), ['broker/shell/policy.test.js']);
    assert.deepEqual(list({ files: ['policy', 'queue'], except: false }), ['broker/policy.test.js', 'broker/shell/policy.test.js', 'queue.test.js']);
    assert.deepEqual(list({ files: ['parser', 'broker/policy'], except: true }), ['broker/shell/policy.test.js', 'queue.test.js']);
  });

  test('a name that matches no test file is an error, not a part that runs nothing or everything', () => {
    assert.throws(() => list({ files: ['queue', 'polcy'], except: false }), /no test file named "polcy"/);
    assert.throws(() => list({ files: ['helpers'], except: true }), /no test file named "helpers"/);
  });
});
