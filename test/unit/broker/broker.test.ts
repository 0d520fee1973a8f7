import * as assert from 'node:assert/strict';
import type { BrokerChange } from '../../../src/broker/broker';
import { cancellation as token, DB_QUESTION as QUESTION, makeBroker as makeBareBroker } from '../helpers/fakes';

function makeBroker() {
  const made = makeBareBroker();
  const changes: BrokerChange[] = [];
  made.broker.onDidChange((c) => changes.push(c));
  return { ...made, changes };
}

suite('QuestionBroker', () => {
  test('ask waits until reply, then resolves answered and leaves nothing pending', async () => {
    const { broker, changes } = makeBroker();
    const response = broker.ask(QUESTION);
    assert.deepEqual(
      broker.list().map((r) => r.id),
      ['r1'],
    );
    assert.equal(broker.reply('r1', { db: { selected: ['B'], skipped: false } }, { by: 'user', where: 'panel' }), true);
    assert.deepEqual(await response, { requestId: 'r1', status: 'answered', answers: { db: { selected: ['B'], skipped: false } } });
    assert.equal(broker.size, 0);
    assert.deepEqual(
      changes.map((c) => c.type),
      ['added', 'settled'],
    );
  });

  test('a batch note reaches the response, and a request with a timeout says when it expires', async () => {
    const { broker } = makeBroker();
    const response = broker.ask(QUESTION, { timeoutMs: 60_000 });
    const request = broker.list()[0]!;
    assert.equal(request.kind === 'questions' && request.expiresAt, request.createdAt + 60_000);
    broker.reply('r1', { db: { selected: ['B'], skipped: false } }, { by: 'user', where: 'panel' }, 'Ship it on Friday');
    assert.equal((await response).note, 'Ship it on Friday');
    void broker.ask(QUESTION);
    const untimed = broker.list()[0]!;
    assert.equal(untimed.kind === 'questions' && 'expiresAt' in untimed, false);
  });

  test('prevents a malformed reply from reaching the history and the panel: answers not of the answer shape are refused and logged', () => {
    const { broker, changes, logs } = makeBroker();
    void broker.ask(QUESTION);
    for (const answers of [{ db: { selected: ['B'] } }, { db: { selected: ['B'], skipped: false, extra: 1 } }, { db: { selected: 'B', skipped: false } }]) {
      assert.equal(broker.reply('r1', answers as never, { by: 'user', where: 'panel' }), false, JSON.stringify(answers));
    }
    assert.equal(broker.size, 1, 'still waiting for a proper answer');
    assert.deepEqual(
      changes.map((c) => c.type),
      ['added'],
    );
    assert.match(logs.at(-1)!, /Ignored a reply for request r1: the answers are malformed at db\.selected/);
  });

  test('lists permission requests before questions, FIFO within each', () => {
    const { broker } = makeBroker();
    void broker.ask(QUESTION);
    void broker.requestPermission({ source: { type: 'extension', label: 'Extension a.b' }, title: 'Run tests?', detail: 'npm test' });
    void broker.ask(QUESTION);
    void broker.requestPermission({ source: { type: 'mcp', label: 'Claude Code' }, title: 'Run rm?', detail: 'rm -rf out' });
    assert.deepEqual(
      broker.list().map((r) => r.id),
      ['r2', 'r4', 'r1', 'r3'],
    );
  });

  test('settles exactly once: a late reply after a reject is ignored and logged', async () => {
    const { broker, logs, changes } = makeBroker();
    const response = broker.ask(QUESTION);
    assert.equal(broker.reject('r1', { by: 'user', where: 'panel' }, 'not now'), true);
    assert.equal(broker.reply('r1', { db: { selected: ['A'], skipped: false } }, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.cancel('r1', { by: 'asker' }), false);
    assert.deepEqual(await response, { requestId: 'r1', status: 'rejected', reason: 'not now' });
    assert.equal(changes.filter((c) => c.type === 'settled').length, 1);
    assert.match(logs.join('\n'), /Ignored a reply for request r1: it is not pending/);
  });

  test('a reply to an unknown id returns false, never throws', () => {
    const { broker, logs } = makeBroker();
    assert.equal(broker.reply('nope', {}, { by: 'user', where: 'panel' }), false);
    assert.equal(logs.length, 1);
  });

  test('a reply that does not fit the request is refused and the request stays pending', () => {
    const { broker, logs } = makeBroker();
    void broker.ask(QUESTION);
    assert.equal(broker.reply('r1', { db: { selected: ['Z'], skipped: false } }, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.reply('r1', { other_id: { selected: ['A'], skipped: false } }, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.reply('r1', { db: { selected: ['A', 'B'], skipped: false } }, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.size, 1);
    assert.match(logs[0]!, /has no option "Z"/);
  });

  test('prevents a throw on Object.prototype names: a reply missing the answer to a question named "constructor" is refused, not thrown', () => {
    const { broker, logs } = makeBroker();
    void broker.ask({ ...QUESTION, questions: [{ id: 'constructor', header: 'C', question: 'C?', kind: 'text', options: [], allowOther: false }] });
    assert.equal(broker.reply('r1', {}, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.size, 1);
    assert.match(logs[0]!, /no answer for question "constructor"/);
  });

  test('cancelling the token settles as cancelled and removes the request', async () => {
    const { broker } = makeBroker();
    const t = token();
    const response = broker.ask(QUESTION, { token: t });
    t.cancel();
    assert.equal((await response).status, 'cancelled');
    assert.equal(broker.size, 0);
  });

  test('an already-cancelled token settles at once', async () => {
    const { broker } = makeBroker();
    const t = token();
    t.cancel();
    assert.equal((await broker.ask(QUESTION, { token: t })).status, 'cancelled');
    assert.equal(broker.size, 0);
  });

  test('a timeout settles as timed_out, never as an answer', async () => {
    const { broker } = makeBroker();
    const response = await broker.ask(QUESTION, { timeoutMs: 5 });
    assert.equal(response.status, 'timed_out');
    assert.equal(response.answers, undefined);
    assert.equal(broker.size, 0);
  });

  test('dispose settles every pending request as cancelled', async () => {
    const { broker } = makeBroker();
    const all = [broker.ask(QUESTION), broker.requestPermission({ source: QUESTION.source, title: 't', detail: 'd' })];
    broker.dispose();
    assert.deepEqual(
      (await Promise.all(all)).map((r) => r.status),
      ['cancelled', 'cancelled'],
    );
  });

  test('permission requests are decided, not replied', async () => {
    const { broker } = makeBroker();
    const response = broker.requestPermission({ source: QUESTION.source, title: 'Run?', detail: 'npm test', permissionKey: 'npm-test' });
    assert.equal(broker.reply('r1', {}, { by: 'user', where: 'panel' }), false);
    assert.equal(broker.decide('r1', 'allow_once', { by: 'user', where: 'panel' }), true);
    assert.deepEqual(await response, { requestId: 'r1', status: 'answered', decision: 'allow_once' });
  });

  test('a denial may carry a message for the asker; an allow never does', async () => {
    const { broker } = makeBroker();
    const denied = broker.requestPermission({ source: QUESTION.source, title: 'Run?', detail: 'rm -rf out' });
    const allowed = broker.requestPermission({ source: QUESTION.source, title: 'Run?', detail: 'npm test' });
    broker.decide('r1', 'deny', { by: 'user', where: 'panel' }, 'use the staging box');
    broker.decide('r2', 'allow_once', { by: 'user', where: 'panel' }, 'ignored');
    assert.deepEqual(await denied, { requestId: 'r1', status: 'answered', decision: 'deny', reason: 'use the staging box' });
    assert.deepEqual(await allowed, { requestId: 'r2', status: 'answered', decision: 'allow_once' });
  });

  test('a throwing listener does not break the broker', async () => {
    const { broker } = makeBroker();
    broker.onDidChange(() => {
      throw new Error('listener bug');
    });
    const response = broker.ask(QUESTION);
    broker.reject('r1', { by: 'user', where: 'panel' });
    assert.equal((await response).status, 'rejected');
  });
});
