import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAskUserInput } from '../../src/broker/askUserInput';
import { askUserJsonSchema } from '../../src/broker/toolSchema';

const options = (...labels: string[]) => labels.map((label) => ({ label }));
const question = (extra: object = {}) => ({ id: 'db', header: 'Database', question: 'Which database?', options: options('A', 'B'), ...extra });

function errorOf(input: unknown): string {
  const parsed = parseAskUserInput(input);
  assert.equal(parsed.ok, false, 'expected the input to be refused');
  return (parsed as { message: string }).message;
}

suite('ask_user input', () => {
  test('normalizes kind and allowOther defaults', () => {
    const parsed = parseAskUserInput({ questions: [question(), { id: 'why', header: 'Why', question: 'Why?' }] });
    assert.ok(parsed.ok);
    assert.deepEqual(
      parsed.questions.map((q) => [q.kind, q.allowOther, q.options.length]),
      [
        ['single', true, 2],
        ['text', false, 0],
      ],
    );
  });

  test('one option: names the field and suggests kind text', () => {
    assert.equal(
      errorOf({ questions: [question({ options: options('Only') })] }),
      'ask_user input is invalid; nothing was asked. Fix 1 problem and call ask_user again:\n- questions[0].options: needs 2 to 6 options (got 1); use kind "text" for an open question',
    );
  });

  test('five questions', () => {
    const five = [1, 2, 3, 4, 5].map((n) => question({ id: `q${n}` }));
    assert.match(errorOf({ questions: five }), /^- questions: needs 1 to 4 questions \(got 5\); ask the most important now and the rest in a later call$/m);
  });

  test('duplicate ids', () => {
    assert.match(errorOf({ questions: [question(), question()] }), /^- questions\[1\]\.id: "db" is already used by questions\[0\]; every id must be unique$/m);
  });

  test('header too long', () => {
    assert.match(errorOf({ questions: [question({ header: 'A header that is far too long for a chip' })] }), /^- questions\[0\]\.header: must be 1 to 30 characters \(got 40\); use a 1-3 word label such as "Database"$/m);
  });

  test('secret without envVar', () => {
    assert.match(errorOf({ questions: [{ id: 'key', header: 'API key', question: 'Your key?', kind: 'secret' }] }), /^- questions\[0\]\.envVar: is required for kind "secret"/m);
  });

  test('two recommended options on a single-choice question', () => {
    const two = [{ label: 'A', recommended: true }, { label: 'B', recommended: true }];
    assert.match(errorOf({ questions: [question({ options: two })] }), /^- questions\[0\]\.options: at most one option may be recommended on a single-choice question \(got 2: "A", "B"\); keep one$/m);
  });

  test('unknown kind', () => {
    assert.match(errorOf({ questions: [question({ kind: 'dropdown' })] }), /^- questions\[0\]\.kind: must be one of "single", "multi", "text", "secret" \(got "dropdown"\)/m);
  });

  test('not an object at all', () => {
    assert.match(errorOf('which db?'), /^- \(input\): must be an object like \{"questions"/m);
  });

  test('the same input always gives the same message', () => {
    const bad = { questions: [question({ header: '', options: options('x') })], extra: 1 };
    assert.equal(errorOf(bad), errorOf(structuredClone(bad)));
  });

  test('package.json carries exactly the schema generated from zod (no drift)', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
    const tool = manifest.contributes.languageModelTools.find((t: { name: string }) => t.name === 'ask_user');
    assert.deepEqual(tool.inputSchema, askUserJsonSchema(), 'run `npm run build` to regenerate the inputSchema');
  });
});
