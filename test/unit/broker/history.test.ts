import * as assert from 'node:assert/strict';
import { History } from '../../../src/broker/history';
import type { NewQuestionRequest } from '../../../src/broker/broker';
import { makeBroker, MemoryStore } from '../helpers/fakes';

const SECRET_AND_CHOICE: NewQuestionRequest = {
  source: { type: 'extension', label: 'Extension a.b' },
  questions: [
    { id: 'key', header: 'API key', question: 'Key?', kind: 'secret', options: [], allowOther: false, envVar: 'OPENAI_API_KEY' },
    { id: 'db', header: 'Database', question: 'Which?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true },
  ],
};

function setup(limit = 100) {
  const { broker } = makeBroker();
  const store = new MemoryStore();
  const history = new History(store, () => limit);
  broker.onDidChange((c) => c.type === 'settled' && history.record(c));
  return { broker, store, history };
}

suite('history', () => {
  test('records every settled request with status, source, timings and answers, newest first', async () => {
    const { broker, history } = setup();
    const a = broker.ask(SECRET_AND_CHOICE);
    broker.reject('r1', { by: 'user', where: 'panel' }, 'busy');
    await a;
    const b = broker.ask(SECRET_AND_CHOICE);
    broker.reply(
      'r2',
      { key: { selected: [], skipped: false, secret: { stored: true, envVar: 'OPENAI_API_KEY' } }, db: { selected: ['A'], note: 'ok', skipped: false } },
      { by: 'user', where: 'panel' },
    );
    await b;
    const [latest, first] = history.list();
    assert.equal(first!.status, 'rejected');
    assert.equal(first!.reason, 'busy');
    assert.equal(latest!.status, 'answered');
    assert.equal(latest!.summary, 'API key, Database');
    assert.equal(latest!.source.label, 'Extension a.b');
    assert.ok(latest!.settledAt >= latest!.createdAt);
    assert.deepEqual(latest!.answers, {
      key: { selected: [], skipped: false, secret: { stored: true, envVar: 'OPENAI_API_KEY' } },
      db: { selected: ['A'], note: 'ok', skipped: false },
    });
  });

  test('a secret value smuggled into an answer never reaches history or its store', async () => {
    const { broker, store, history } = setup();
    const canary = 'sk-canary-9f8e7d';
    const smuggled = { selected: [canary], other: canary, note: canary, skipped: false, secret: { stored: true as const, envVar: 'OPENAI_API_KEY' } };
    const pending = broker.ask(SECRET_AND_CHOICE);
    assert.equal(
      broker.reply('r1', { key: smuggled, db: { selected: ['A'], skipped: false } }, { by: 'user', where: 'panel' }),
      false,
      'the broker refuses text on a secret answer',
    );
    broker.cancel('r1', { by: 'asker' });
    await pending;
    // Even if a settled response carried it, history keeps only the handle.
    const request = { ...SECRET_AND_CHOICE, id: 'x', kind: 'questions' as const, createdAt: 1 };
    history.record({
      type: 'settled',
      request,
      settledAt: 2,
      decidedBy: { by: 'user', where: 'panel' },
      response: { requestId: 'x', status: 'answered', answers: { key: smuggled, db: { selected: ['A'], skipped: false } } },
    });
    assert.deepEqual(history.list()[0]!.answers!.key, { selected: [], skipped: false, secret: { stored: true, envVar: 'OPENAI_API_KEY' } });
    assert.equal(JSON.stringify([...store.data.values()]).includes(canary), false);
  });

  test('is capped by the limit and persisted', async () => {
    const { broker, store, history } = setup(3);
    for (let i = 0; i < 5; i++) {
      const p = broker.ask(SECRET_AND_CHOICE);
      broker.cancel(`r${i + 1}`, { by: 'asker' });
      await p;
    }
    assert.deepEqual(
      history.list().map((e) => e.requestId),
      ['r5', 'r4', 'r3'],
    );
    const reloaded = new History(store, () => 3);
    assert.deepEqual(
      reloaded.list().map((e) => e.requestId),
      ['r5', 'r4', 'r3'],
    );
  });

  test('survives corrupt saved state', () => {
    const store = new MemoryStore();
    void store.update('agentQuestions.history', 'garbage');
    assert.deepEqual(new History(store, () => 10).list(), []);
  });
});
