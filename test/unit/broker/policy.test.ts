import * as assert from 'node:assert/strict';
import { askPermission, askQuestions } from '../../../src/broker/askWithPolicy';
import { isUnattendedEnvironment, routeFor } from '../../../src/broker/policy';
import { answersFromScript, parseAnswersFile } from '../../../src/broker/scriptedAnswers';
import type { Question } from '../../../src/broker/contract/schemas';
import { DB_QUESTION, makeBroker, makePolicy } from '../helpers/fakes';

const PERMISSION = { source: { type: 'extension' as const, label: 'Extension a.b' }, title: 'Run the tests?', detail: '`npm test`', permissionKey: 'run-tests' };

suite('availability policy', () => {
  test('routes every mode and environment', () => {
    const base = { mode: 'interactive' as const, unattended: false, canShowPanel: true };
    assert.deepEqual(routeFor(base), { kind: 'ask' });
    assert.equal(routeFor({ ...base, mode: 'off' }).kind, 'unavailable');
    assert.deepEqual(routeFor({ ...base, mode: 'answersFile', unattended: true }), { kind: 'script' });
    assert.match((routeFor({ ...base, unattended: true }) as { reason: string }).reason, /AGENT_QUESTIONS_UNATTENDED=1/);
    assert.match((routeFor({ ...base, canShowPanel: false }) as { reason: string }).reason, /No VS Code window/);
    assert.equal(isUnattendedEnvironment({ AGENT_QUESTIONS_UNATTENDED: '1' }), true);
    assert.equal(isUnattendedEnvironment({ AGENT_QUESTIONS_UNATTENDED: '0' }), false);
  });

  test('unavailable answers at once, never waits, and nothing stays pending', async () => {
    const { broker } = makeBroker();
    const settled: string[] = [];
    broker.onDidChange((c) => settled.push(c.type));
    const response = await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'unavailable', reason: 'off', setting: 'mode' }));
    assert.deepEqual(response, { requestId: 'r1', status: 'unavailable', reason: 'off' });
    assert.equal(broker.size, 0);
    assert.deepEqual(settled, ['settled'], 'recorded for history, never shown');
  });

  test('answersFile mode answers from the script', async () => {
    const { broker } = makeBroker();
    const response = await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'script' }, { ok: true, entries: { db: 'B' } }));
    assert.deepEqual(response, {
      requestId: 'r1',
      status: 'answered',
      answers: { db: { selected: ['B'], skipped: false } },
      reason: 'Answered from the answers file agentQuestions.answersFile, not by the user.',
    });
  });

  test('answersFile mode fails closed on a missing id, naming it', async () => {
    const { broker } = makeBroker();
    const response = await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'script' }, { ok: true, entries: { other: 'x' } }));
    assert.equal(response.status, 'unavailable');
    assert.equal(response.reason, 'The answers file has no entry for question "db".');
  });

  test('a malformed answers file answers nothing', async () => {
    const { broker } = makeBroker();
    const file = parseAnswersFile('{"db": 42}', 'answers.json');
    assert.equal(file.ok, false);
    const response = await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'script' }, file));
    assert.equal(response.status, 'unavailable');
    assert.match(response.reason!, /answers\.json is malformed at entry "db"/);
    assert.match((parseAnswersFile('{nope', 'a.json') as { error: string }).error, /not valid JSON/);
  });

  test('scripted answers map labels, lists, other text, skips and notes', () => {
    const questions: Question[] = [
      { id: 'one', header: 'One', question: '?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true },
      { id: 'many', header: 'Many', question: '?', kind: 'multi', options: [{ label: 'A' }, { label: 'B' }], allowOther: false },
      { id: 'free', header: 'Free', question: '?', kind: 'text', options: [], allowOther: false },
      { id: 'skip', header: 'Skip', question: '?', kind: 'text', options: [], allowOther: false },
    ];
    const result = answersFromScript(questions, { one: 'Custom', many: ['A', 'B'], free: 'hello', skip: { skipped: true, note: 'later' } });
    assert.deepEqual(result, {
      ok: true,
      answers: {
        one: { selected: [], other: 'Custom', skipped: false },
        many: { selected: ['A', 'B'], skipped: false },
        free: { selected: ['hello'], skipped: false },
        skip: { selected: [], skipped: true, note: 'later' },
      },
    });
    assert.deepEqual(answersFromScript(questions.slice(1, 2), { many: ['C'] }), {
      ok: false,
      reason: 'The answers file\'s entry for "many" does not fit the question: no option "C".',
    });
  });

  test('scripted answers never answer a secret question', () => {
    const secret: Question = { id: 'key', header: 'Key', question: '?', kind: 'secret', options: [], allowOther: false, envVar: 'KEY' };
    assert.equal(answersFromScript([secret], { key: 'hunter2' }).ok, false);
  });

  test('a scripted answer that does not fit the request settles unavailable, not answered', () => {
    const { broker } = makeBroker();
    const response = broker.answerWithoutAsking(DB_QUESTION, { status: 'answered', answers: { db: { selected: ['Z'], skipped: false } }, decidedBy: { by: 'answersFile' } });
    assert.equal(response.status, 'unavailable');
  });
});

suite('permissions', () => {
  test('allow_always is remembered per extension and key and answered without asking next time', async () => {
    const { broker } = makeBroker();
    const policy = makePolicy();
    const first = askPermission(broker, PERMISSION, policy);
    await Promise.resolve();
    assert.equal(broker.list()[0]?.kind, 'permission');
    broker.decide(broker.list()[0]!.id, 'allow_always', { by: 'user', where: 'panel' });
    assert.equal((await first).decision, 'allow_always');
    await new Promise((r) => setImmediate(r));

    const second = await askPermission(broker, PERMISSION, policy);
    assert.equal(second.decision, 'allow_always');
    assert.equal(broker.size, 0, 'nothing was queued the second time');

    const otherKey = askPermission(broker, { ...PERMISSION, permissionKey: 'deploy' }, policy);
    assert.equal(broker.size, 1, 'another key still asks');
    broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' });
    assert.equal((await otherKey).decision, 'deny');

    const otherExtension = askPermission(broker, { ...PERMISSION, source: { type: 'extension', label: 'Extension c.d' } }, policy);
    assert.equal(broker.size, 1, 'the same key from another extension still asks');
    broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' });
    await otherExtension;
    assert.deepEqual(
      policy.permissions.list().map((r) => [r.label, r.source]),
      [['run-tests', 'Extension a.b']],
    );

    await policy.permissions.forget(policy.permissions.list()[0]!.key);
    void askPermission(broker, PERMISSION, policy);
    assert.equal(broker.size, 1, 'after forgetting the rule, it asks again');
    broker.decide(broker.list()[0]!.id, 'allow_always', { by: 'user', where: 'panel' });
    await new Promise((r) => setImmediate(r));

    await policy.permissions.clear();
    void askPermission(broker, PERMISSION, policy);
    assert.equal(broker.size, 1, 'after clearing, it asks again');
  });

  test('allow_once and deny are not remembered', async () => {
    const { broker } = makeBroker();
    const policy = makePolicy();
    for (const decision of ['allow_once', 'deny'] as const) {
      const pending = askPermission(broker, PERMISSION, policy);
      broker.decide(broker.list()[0]!.id, decision, { by: 'user', where: 'panel' });
      assert.equal((await pending).decision, decision);
    }
    assert.deepEqual(policy.permissions.list(), []);
  });

  test('permission requests are unavailable when no one can answer, and in answersFile mode', async () => {
    const { broker } = makeBroker();
    assert.equal((await askPermission(broker, PERMISSION, makePolicy({ kind: 'unavailable', reason: 'off', setting: 'mode' }))).status, 'unavailable');
    assert.equal((await askPermission(broker, PERMISSION, makePolicy({ kind: 'script' }))).status, 'unavailable');
    assert.equal(broker.size, 0);
  });
});
