// One decision, one reading: a command line is parsed and analysed once per request, whatever it
// is decided; the offers and their previews are computed only when the prompt asks.
import * as assert from 'node:assert/strict';
import type { NewPermissionRequest } from '../../../../src/broker/broker';
import type { CommandChecker } from '../../../../src/broker/permissions/permissionRules';
import { memoryStore, RememberedPermissions } from '../../../../src/broker/permissions/rememberedPermissions';
import { displayToolCall } from '../../../../src/broker/permissions/toolCallDisplay';
import { loadTestChecker } from '../../helpers/fakes';

const WORKSPACE = '/home/dev/project';

function bash(command: string): NewPermissionRequest {
  const shown = displayToolCall('Bash', { command }, [WORKSPACE]);
  assert.ok(shown.ok);
  return { source: { type: 'mcp', label: 'Claude Code' }, title: 'Claude Code wants to run a command', detail: command, toolCall: shown.toolCall };
}

type Counted = 'parse' | 'analyse' | 'decide' | 'offer';

/** The checker, counting how often each step runs. */
function countingChecker(checker: CommandChecker) {
  const calls: Record<Counted, number> = { parse: 0, analyse: 0, decide: 0, offer: 0 };
  const counted =
    <A extends unknown[], R>(name: Counted, step: (...args: A) => R) =>
    (...args: A): R => {
      calls[name]++;
      return step(...args);
    };
  return {
    checker: {
      ...checker,
      parse: counted('parse', checker.parse),
      analyse: counted('analyse', checker.analyse),
      decide: counted('decide', checker.decide),
      offer: counted('offer', checker.offer),
    },
    counts: { reset: () => void Object.assign(calls, { parse: 0, analyse: 0, decide: 0, offer: 0 }), now: () => ({ ...calls }) },
  };
}

async function permissionsCounting() {
  const { checker, counts } = countingChecker(await loadTestChecker());
  const permissions = new RememberedPermissions(memoryStore(), { loadChecker: async () => checker, workspaceFolders: () => [WORKSPACE] });
  return { permissions, counts };
}

suite('One decision: a command line is read once', () => {
  test('`git log --oneline -n 5` under «git log …»: parsed once, analysed once, decided once, nothing offered', async () => {
    const { permissions, counts } = await permissionsCounting();
    const asked = await permissions.decide(bash('git log'));
    const rule = asked.options.find((o) => o.label === 'git log …');
    assert.ok(rule, 'the prompt for `git log` offers «git log …»');
    await permissions.remember(rule, 'Claude Code');
    counts.reset();
    const outcome = await permissions.decide(bash('git log --oneline -n 5'));
    assert.deepEqual(counts.now(), { parse: 1, analyse: 1, decide: 1, offer: 0 });
    assert.ok(outcome.decision === 'allow', outcome.decision);
    assert.deepEqual(outcome.options, [], 'nothing is offered for a request that is not asked');
    assert.match(outcome.summary ?? '', /^Runs git\b/, "the card's line comes from the same reading");
  });

  test('an asked line is read once too; only the previews read the recent commands they look at', async () => {
    const { permissions, counts } = await permissionsCounting();
    permissions.noteCommand('npm test -- --bail', false);
    counts.reset();
    const outcome = await permissions.decide(bash('npm test'));
    assert.equal(outcome.decision, 'ask');
    const offered = outcome.options.length;
    assert.ok(offered >= 2, 'the exact line and «npm test …» are offered');
    // The line itself once; each offered rule's preview reads the one recent command.
    assert.deepEqual(counts.now(), { parse: 1 + offered, analyse: 1 + offered, decide: 1 + offered, offer: 1 });
  });

  test('with no one to ask, nothing is read: the route decides first', async () => {
    const { permissions, counts } = await permissionsCounting();
    counts.reset();
    const outcome = await permissions.decide(bash('git status'), { route: { kind: 'unavailable', reason: 'off', setting: 'mode' } });
    assert.equal(outcome.decision, 'unavailable');
    assert.deepEqual(counts.now(), { parse: 0, analyse: 0, decide: 0, offer: 0 });
  });
});
