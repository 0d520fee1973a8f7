import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { emptyReason, LAYERS, parseLayers } from '../harness/layers.mjs';

const ROOT = join(__dirname, '..', '..', '..');

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

  test('a layer that ran nothing says why: the pattern matched no title, or there were no tests', () => {
    assert.equal(emptyReason({ passed: 0, failed: 0, pending: 0 }, 'zzz'), 'no test title matches AGENT_QUESTIONS_GREP="zzz"');
    assert.equal(emptyReason({ passed: 0, failed: 0, pending: 0 }, undefined), 'no tests found');
    assert.equal(emptyReason({ passed: 1, failed: 0, pending: 0 }, 'zzz'), undefined);
    assert.equal(emptyReason({ passed: 0, failed: 1, pending: 0, crashed: true }, 'zzz'), undefined, 'a crash is reported as a crash');
  });

  test('`npm test -- unti` stops at once with exit code 2 and the valid layers, before building anything', () => {
    const started = Date.now();
    const result = spawnSync(process.execPath, [join(ROOT, 'test', 'run.mjs'), 'unti'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, /npm test: unknown layer "unti"; the layers are: unit, integration, ui, agent, external/);
    assert.doesNotMatch(result.stdout, /===/, 'no layer ran');
    assert.ok(Date.now() - started < 10_000, 'it did not build or provision');
  });
});
