import * as assert from 'node:assert/strict';
import { formatQuestionResult } from '../../../../src/broker/contract/resultText';
import { PanelToHostSchema } from '../../../../src/broker/contract/protocol';
import { LIMITS } from '../../../../src/broker/contract/schemas';

const questions = [
  { id: 'db', kind: 'single' as const, question: 'Which database?' },
  { id: 'extras', kind: 'multi' as const, question: 'Which extras?' },
  { id: 'key', kind: 'secret' as const, question: 'Your API key?' },
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
      'The user answered 3 questions, "Which database?", "Which extras?" and "Your API key?" (request id "r1"): db = "PostgreSQL" (note: "use v16"); extras = ["Redis", other: "Kafka"]; key = stored in $API_KEY. New integrated terminals have $API_KEY set; use it from there and never print or ask for the value.',
    );
    assert.equal(JSON.parse(json!).status, 'answered');
  });

  test('a note on the whole batch: in the line after the answers, and typed at the top level of the JSON', () => {
    const note = 'All of this is for the "staging" cluster only.\nAsk again before production.';
    const text = formatQuestionResult(questions.slice(0, 2), {
      requestId: 'r1',
      status: 'answered',
      answers: { db: { selected: ['SQLite'], skipped: false }, extras: { selected: [], skipped: true } },
      note,
    });
    const newline = text.indexOf('\n');
    const line = text.slice(0, newline);
    assert.equal(
      line,
      'The user answered 2 questions, "Which database?" and "Which extras?" (request id "r1"): db = "SQLite"; extras = skipped. The user\'s note on all of these answers: "All of this is for the \\"staging\\" cluster only.\\nAsk again before production.".',
    );
    const json = JSON.parse(text.slice(newline + 1));
    assert.equal(json.note, note);
    assert.deepEqual(Object.keys(json), ['requestId', 'status', 'answers', 'note']);
    assert.equal(json.answers.db.note, undefined, "the batch note is not any one answer's note");
  });

  test('the batch note comes before the sentence about stored secrets, and no note means no note sentence', () => {
    const answers = { key: { selected: [], skipped: false, secret: { stored: true as const, envVar: 'API_KEY' } } };
    const withNote = formatQuestionResult(questions, { requestId: 'r1', status: 'answered', answers, note: 'rotate it monthly' }).split('\n')[0]!;
    assert.match(withNote, /key = stored in \$API_KEY\. The user's note on all of these answers: "rotate it monthly"\. New integrated terminals have \$API_KEY set/);
    const withoutNote = formatQuestionResult(questions, { requestId: 'r1', status: 'answered', answers }).split('\n');
    assert.equal(withoutNote[0]!.includes('note on all'), false);
    assert.equal('note' in JSON.parse(withoutNote[1]!), false);
  });

  test('every non-answer tells the model to go on without asking again', () => {
    for (const status of ['rejected', 'timed_out', 'unavailable'] as const) {
      const line = formatQuestionResult(questions, { requestId: 'r1', status }).split('\n')[0]!;
      assert.match(line, /do not ask again for the same thing/, status);
    }
  });

  test('names the questions and the request id, so a result delivered late (a CLI moved the call to the background) still reads as the answer to that call', () => {
    const one = [{ id: 'db', kind: 'single' as const, question: 'Which database?' }];
    const line = (status: 'answered' | 'rejected' | 'cancelled' | 'timed_out' | 'unavailable', qs: typeof questions = one) =>
      formatQuestionResult(qs, { requestId: 'req-7', status, ...(status === 'answered' ? { answers: { db: { selected: ['SQLite'], skipped: false } } } : {}) }).split('\n')[0]!;
    assert.equal(line('answered'), 'The user answered 1 question, "Which database?" (request id "req-7"): db = "SQLite".');
    assert.match(line('rejected'), /^The user declined to answer "Which database\?" \(request id "req-7"\)\. Continue/);
    assert.equal(line('cancelled'), 'The question was cancelled before the user answered: "Which database?" (request id "req-7").');
    assert.match(line('timed_out'), /^The user did not answer in time: "Which database\?" \(request id "req-7"\)\. Continue/);
    assert.match(line('unavailable'), /^No one can answer questions right now: "Which database\?" \(request id "req-7"\)\. Continue/);
    // A long question is cut, and the JSON after the line is unchanged.
    const long = [{ id: 'db', kind: 'single' as const, question: `${'x'.repeat(200)}?` }];
    assert.match(line('answered', long), new RegExp(`^The user answered 1 question, "${'x'.repeat(119)}…" \\(request id "req-7"\\): db = "SQLite"\\.$`));
    assert.deepEqual(JSON.parse(formatQuestionResult(one, { requestId: 'req-7', status: 'cancelled' }).split('\n')[1]!), { requestId: 'req-7', status: 'cancelled' });
  });
});

suite('panel protocol', () => {
  test('accepts a well-formed reply and drops malformed messages', () => {
    assert.ok(PanelToHostSchema.safeParse({ type: 'reply', requestId: 'r1', answers: { db: { selected: ['A'], skipped: false } } }).success);
    assert.ok(PanelToHostSchema.safeParse({ type: 'reply', requestId: 'r1', answers: {}, note: 'n'.repeat(LIMITS.batchNoteMax) }).success, 'a batch note up to the limit');
    assert.equal(PanelToHostSchema.safeParse({ type: 'reply', requestId: 'r1', answers: {}, note: 'n'.repeat(LIMITS.batchNoteMax + 1) }).success, false, 'a longer one is refused');
    for (const bad of [
      null,
      'ready',
      { type: 'reply' },
      { type: 'reply', requestId: 'r1', answers: { db: { selected: 'A' } } },
      { type: 'eval', code: '1' },
      { type: 'ready', extra: 1 },
    ]) {
      assert.equal(PanelToHostSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });
});
