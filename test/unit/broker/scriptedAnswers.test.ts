import * as assert from 'node:assert/strict';
import { askQuestions } from '../../../src/broker/askWithPolicy';
import { formatQuestionResult } from '../../../src/broker/contract/resultText';
import { answersFromScript, parseAnswersFile } from '../../../src/broker/scriptedAnswers';
import type { Question } from '../../../src/broker/contract/schemas';
import { DB_QUESTION, makeBroker, makePolicy } from '../helpers/fakes';

const text = (id: string): Question => ({ id, header: 'Text', question: '?', kind: 'text', options: [], allowOther: false });
const choice = (id: string): Question => ({ id, header: 'Choice', question: '?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true });
const entriesOf = (json: string) => {
  const file = parseAnswersFile(json, 'answers.json');
  assert.ok(file.ok, JSON.stringify(file));
  return file.entries;
};
const errorOf = (json: string) => {
  const file = parseAnswersFile(json, 'answers.json');
  assert.equal(file.ok, false);
  return (file as { error: string }).error;
};

suite('answers file', () => {
  test('prevents answering a question id from Object.prototype: without an entry it is "no entry"', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      for (const question of [text(id), choice(id)]) {
        assert.deepEqual(
          answersFromScript([question], entriesOf('{"db": "A"}')),
          { ok: false, reason: `The answers file has no entry for question "${id}".` },
          `${id} (${question.kind})`,
        );
      }
    }
  });

  test('a question id that is an Object.prototype name is answered from its own entry', () => {
    const entries = entriesOf('{"constructor": "A", "__proto__": "hello", "toString": ["B"]}');
    assert.deepEqual(answersFromScript([choice('constructor'), text('__proto__'), choice('toString')], entries), {
      ok: true,
      answers: { constructor: { selected: ['A'], skipped: false }, ['__proto__']: { selected: ['hello'], skipped: false }, toString: { selected: ['B'], skipped: false } },
    });
  });

  test('prevents a malformed file from echoing its contents: a syntax error says where, not what', () => {
    const canary = 'sk-live-0123456789abcdef';
    const error = errorOf(`{\n  "db": "A",\n  "key": ${canary}\n}`);
    assert.equal(error, 'The answers file answers.json is not valid JSON (line 3, column 10).');
    for (const json of [`{"${canary}`, `{"db": "${canary}"`, `["${canary}",]`, `{"db": "A"} ${canary}`, `{"db": "${canary}\u0001"}`, `{${canary}: 1}`, `{"db": "\\x${canary}"}`]) {
      const message = errorOf(json);
      assert.equal(message.includes('sk-live'), false, message);
      assert.match(message, /^The answers file answers\.json is not valid JSON \(line 1, column \d+\)\.$/, json);
    }
  });

  test('prevents a malformed file from echoing its contents: a schema error names a safe key or the position only', () => {
    assert.equal(errorOf('{"db": 42}'), 'The answers file answers.json is malformed at entry "db": expected a label, a list of labels, or {"selected","other","note","skipped"}.');
    const canary = 'sk-live-0123456789abcdef';
    const unsafeKey = errorOf(`{"db": "A", "${canary}": {"selected": 1}}`);
    assert.equal(unsafeKey, 'The answers file answers.json is malformed at its entry 2: expected a label, a list of labels, or {"selected","other","note","skipped"}.');
    const badValue = errorOf(`{"db": {"selected": ["A"], "${canary}": true}}`);
    assert.equal(badValue.includes('sk-live'), false, badValue);
    assert.equal(
      errorOf(`["${canary}"]`),
      'The answers file answers.json is malformed at the top level: expected an object mapping question ids to a label, a list of labels, or {"selected","other","note","skipped"}.',
    );
  });

  test('a scripted answer says so: to the model, in the response and in what history records', async () => {
    const { broker } = makeBroker();
    const settled: Array<string | undefined> = [];
    broker.onDidChange((change) => change.type === 'settled' && settled.push(change.response.reason));
    const response = await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'script' }, { ok: true, entries: { db: 'B' } }));
    const reason = 'Answered from the answers file agentQuestions.answersFile, not by the user.';
    assert.deepEqual(response, { requestId: 'r1', status: 'answered', answers: { db: { selected: ['B'], skipped: false } }, reason });
    assert.deepEqual(settled, [reason]);
    const [line] = formatQuestionResult(DB_QUESTION.questions, response).split('\n');
    assert.equal(line, `The answers file answered 1 question (not the user), ${JSON.stringify(DB_QUESTION.questions[0]!.question)} (request id "r1"): db = "B".`);
  });
});
