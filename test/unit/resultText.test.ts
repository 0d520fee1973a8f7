import * as assert from 'node:assert/strict';
import { formatQuestionResult } from '../../src/broker/resultText';
import { PanelToHostSchema } from '../../src/broker/protocol';

const questions = [
  { id: 'db', kind: 'single' as const },
  { id: 'extras', kind: 'multi' as const },
  { id: 'key', kind: 'secret' as const },
];

suite('tool result text', () => {
  test('answered: one readable line, then the JSON', () => {
    const text = formatQuestionResult(questions, {
      requestId: 'r1',
      status: 'answered',
      answers: {
        db: { selected: ['PostgreSQL'], note: 'use v16', skipped: false },
        extras: { selected: ['Redis'], other: 'Kafka', skipped: false },
        key: { selected: [], skipped: false, secret: { stored: true, envVar: 'API_KEY' } },
      },
    });
    const [line, json] = text.split('\n');
    assert.equal(
      line,
      'The user answered 3 questions: db = "PostgreSQL" (note: "use v16"); extras = ["Redis", other: "Kafka"]; key = stored in $API_KEY. New integrated terminals have $API_KEY set; use it from there and never print or ask for the value.',
    );
    assert.equal(JSON.parse(json!).status, 'answered');
  });

  test('every non-answer tells the model to go on without asking again', () => {
    for (const status of ['rejected', 'timed_out', 'unavailable'] as const) {
      const line = formatQuestionResult(questions, { requestId: 'r1', status }).split('\n')[0]!;
      assert.match(line, /do not ask again for the same thing/, status);
    }
  });
});

suite('panel protocol', () => {
  test('accepts a well-formed reply and drops malformed messages', () => {
    assert.ok(PanelToHostSchema.safeParse({ type: 'reply', requestId: 'r1', answers: { db: { selected: ['A'], skipped: false } } }).success);
    for (const bad of [null, 'ready', { type: 'reply' }, { type: 'reply', requestId: 'r1', answers: { db: { selected: 'A' } } }, { type: 'eval', code: '1' }, { type: 'ready', extra: 1 }]) {
      assert.equal(PanelToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
