// The runner table names only tools the known-tool table models, and finds the runner behind a rule's key.
import * as assert from 'node:assert/strict';
import { KNOWN_TOOLS } from '../../../../../src/broker/permissions/shell/knownTools';
import { RUNNERS, runnerFor } from '../../../../../src/broker/permissions/shell/runners';

suite("Runners: the known tools that run the workspace's code", () => {
  test('every runner is a known tool, and says what decides what it runs', () => {
    for (const [key, runner] of Object.entries(RUNNERS)) {
      assert.ok(KNOWN_TOOLS[key], `${key} is not in knownTools.ts`);
      assert.ok(runner.decidedBy.length > 0, `${key} names no file`);
    }
  });

  test('a rule key finds its runner; a read-only tool is no runner', () => {
    assert.equal(runnerFor('npm run build')?.runs, "package.json's scripts");
    assert.equal(runnerFor('make test')?.decidedBy[0], 'Makefile');
    assert.equal(runnerFor('git status'), RUNNERS['git status']);
    assert.equal(runnerFor('git log'), undefined);
    assert.equal(runnerFor('ls'), undefined);
    assert.equal(runnerFor('cat'), undefined);
  });
});
