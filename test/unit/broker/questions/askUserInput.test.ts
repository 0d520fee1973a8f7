import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAskUserInput } from '../../../../src/broker/questions/askUserInput';
import { ASK_USER_DESCRIPTION, askUserJsonSchema } from '../../../../src/broker/contract/toolSchema';
import { RESTRICTED_SETTINGS } from '../../../../src/broker/policy';
import { ROOT } from '../../helpers/repoRoot';

const options = (...labels: string[]) => labels.map((label) => ({ label }));
const question = (extra: object = {}) => ({ id: 'db', header: 'Database', question: 'Which database?', options: options('A', 'B'), ...extra });

function errorOf(input: unknown): string {
  const parsed = parseAskUserInput(input);
  assert.equal(parsed.ok, false, 'expected the input to be refused');
  return (parsed as { message: string }).message;
}

const INTRO_1_TEXT = 'ask_user input is invalid; nothing was asked. Fix 1 problem and call ask_user again:\n';

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

  test('keeps a question detail and option previews, and refuses markdown that is too long together', () => {
    const previewed = question({ detail: '| a | b |\n|---|---|', options: [{ label: 'A', preview: '```ts\nconst a = 1;\n```' }, { label: 'B' }] });
    const parsed = parseAskUserInput({ questions: [previewed], context: 'Why' });
    assert.ok(parsed.ok);
    assert.equal(parsed.questions[0]!.detail, '| a | b |\n|---|---|');
    assert.equal(parsed.questions[0]!.options[0]!.preview, '```ts\nconst a = 1;\n```');
    const long = 'x'.repeat(2000);
    const heavy = [1, 2].map((n) => question({ id: `q${n}`, detail: long, options: [1, 2, 3].map((k) => ({ label: `O${k}`, preview: long })) }));
    assert.equal(
      errorOf({ questions: heavy, context: long }),
      `${INTRO_1_TEXT}- (input): context, details and previews together are 18000 characters; at most 12000 are allowed: shorten the previews or split the questions over two calls`,
    );
  });

  // The exact text the model reads for typical mistakes: changing one is a contract change.
  const INTRO_1 = 'ask_user input is invalid; nothing was asked. Fix 1 problem and call ask_user again:\n';
  const PINNED: Array<[string, unknown, string]> = [
    ['one option', { questions: [question({ options: options('Only') })] }, '- questions[0].options: needs 2 to 6 options (got 1); use kind "text" for an open question'],
    [
      'five questions',
      { questions: [1, 2, 3, 4, 5].map((n) => question({ id: `q${n}` })) },
      '- questions: needs 1 to 4 questions (got 5); ask the most important now and the rest in a later call',
    ],
    ['duplicate ids', { questions: [question(), question()] }, '- questions[1].id: "db" is already used by questions[0]; every id must be unique'],
    [
      'header too long',
      { questions: [question({ header: 'A header that is far too long for a chip' })] },
      '- questions[0].header: must be 1 to 30 characters (got 40); use a 1-3 word label such as "Database"',
    ],
    [
      'envVar missing',
      { questions: [{ id: 'key', header: 'API key', question: 'Your key?', kind: 'secret' }] },
      '- questions[0].envVar: is required for kind "secret": the environment variable new terminals receive the value in, e.g. "OPENAI_API_KEY"',
    ],
    [
      'recommended on two options',
      {
        questions: [
          question({
            options: [
              { label: 'A', recommended: true },
              { label: 'B', recommended: true },
            ],
          }),
        ],
      },
      '- questions[0].options: at most one option may be recommended on a single-choice question (got 2: "A", "B"); keep one',
    ],
    [
      'unknown kind',
      { questions: [question({ kind: 'dropdown' })] },
      '- questions[0].kind: must be one of "single", "multi", "text", "secret" (got "dropdown"); use "single" for one choice, "multi" for several, "text" for free text, "secret" for a credential',
    ],
    [
      'id not snake_case',
      { questions: [question({ id: 'DbChoice' })] },
      '- questions[0].id: must be snake_case: lowercase letters, digits and underscores, starting with a letter (got "DbChoice"); e.g. "db_choice"',
    ],
    ['id missing', { questions: [{ header: 'Database', question: 'Which?' }] }, '- questions[0].id: is required (a snake_case id, unique within the call, e.g. "database")'],
    ['options on a text question', { questions: [question({ kind: 'text' })] }, '- questions[0].options: not allowed on kind "text"; remove them, or use kind "single" or "multi"'],
    [
      'misspelt field',
      { questions: [question({ allow_other: false })] },
      '- questions[0]: unknown field "allow_other"; rename "allow_other" to "allowOther" (allowed: id, header, question, detail, kind, options, allowOther, placeholder, envVar)',
    ],
  ];
  for (const [name, input, line] of PINNED) {
    test(`pinned message: ${name}`, () => assert.equal(errorOf(input), INTRO_1 + line));
  }

  test('several problems are all listed, in order', () => {
    assert.equal(
      errorOf({ questions: [question({ header: '', options: options('x') })], extra: 1 }),
      [
        'ask_user input is invalid; nothing was asked. Fix 3 problems and call ask_user again:',
        '- questions[0].header: must be 1 to 30 characters (got 0); use a 1-3 word label such as "Database"',
        '- questions[0].options: needs 2 to 6 options (got 1); use kind "text" for an open question',
        '- (input): unknown field "extra"; remove "extra" (allowed: questions, context, wait)',
      ].join('\n'),
    );
  });

  test('not an object at all', () => {
    assert.match(errorOf('which db?'), /^- \(input\): must be an object like \{"questions"/m);
  });

  test('the same input always gives the same message', () => {
    const bad = { questions: [question({ header: '', options: options('x') })], extra: 1 };
    assert.equal(errorOf(bad), errorOf(structuredClone(bad)));
  });

  test("package.json's Restricted Mode settings are exactly the ones readSettings guards (no drift)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    assert.deepEqual(
      manifest.capabilities.untrustedWorkspaces.restrictedConfigurations,
      RESTRICTED_SETTINGS.map((key) => `agentQuestions.${key}`),
    );
    for (const key of RESTRICTED_SETTINGS) assert.ok(manifest.contributes.configuration.properties[`agentQuestions.${key}`], key);
  });

  test('package.json carries exactly the schema and description the MCP endpoint serves (no drift)', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const tool = manifest.contributes.languageModelTools.find((t: { name: string }) => t.name === 'ask_user');
    assert.deepEqual(tool.inputSchema, askUserJsonSchema(), 'run `npm run build` to regenerate the inputSchema');
    assert.equal(tool.modelDescription, ASK_USER_DESCRIPTION, 'run `npm run build` to regenerate the modelDescription');
  });
});
