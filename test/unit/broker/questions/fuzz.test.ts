// 10,000 random or mutated inputs through the ask_user entry point: each is either asked
// (and then settled) or answered with a model-readable error; nothing throws, nothing hangs.
import * as assert from 'node:assert/strict';
import { callAskUser } from '../../../../src/broker/questions/askUserCall';
import { cancellation, makeBroker, makePolicy } from '../../helpers/fakes';
import { seededRandom, type Random } from '../../helpers/random';

const VALID = {
  context: 'Why I ask',
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database?',
      options: [
        { label: 'PostgreSQL', recommended: true },
        { label: 'SQLite', description: 'a file' },
      ],
    },
    { id: 'extras', header: 'Extras', question: 'Which extras?', kind: 'multi', options: [{ label: 'Redis' }, { label: 'Kafka' }, { label: 'S3' }] },
    { id: 'notes', header: 'Notes', question: 'Anything else?', kind: 'text', placeholder: 'optional' },
    { id: 'api_key', header: 'API key', question: 'Your key?', kind: 'secret', envVar: 'OPENAI_API_KEY' },
  ],
};

const WEIRD_VALUES: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1e308,
  NaN,
  true,
  false,
  '',
  ' ',
  'x'.repeat(5000),
  '<script>alert(1)</script>',
  '\u202eevil',
  '💥'.repeat(40),
  [],
  [null],
  {},
  { label: 'x' },
  'single',
  'multi',
  'text',
  'secret',
  'dropdown',
  'Database',
  'snake_case',
  'UPPER',
  '__proto__',
  { __proto__: { polluted: true } },
];
const KEYS = [
  'questions',
  'context',
  'id',
  'header',
  'question',
  'kind',
  'options',
  'allowOther',
  'placeholder',
  'envVar',
  'label',
  'description',
  'recommended',
  'extra',
  '__proto__',
  'constructor',
];

function mutate(value: unknown, random: Random, depth = 0): unknown {
  if (depth > 6 || random.chance(0.15)) return random.pick(WEIRD_VALUES);
  if (Array.isArray(value)) {
    const copy = value.map((v) => (random.chance(0.3) ? mutate(v, random, depth + 1) : v));
    if (random.chance(0.2)) copy.splice(random.int(copy.length + 1), 0, mutate(random.pick(copy.length ? copy : [{}]), random, depth + 1));
    if (random.chance(0.2)) copy.splice(random.int(copy.length), 1);
    return copy;
  }
  if (value && typeof value === 'object') {
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of Object.keys(copy)) if (random.chance(0.3)) copy[key] = mutate(copy[key], random, depth + 1);
    if (random.chance(0.15)) delete copy[random.pick(Object.keys(copy).length ? Object.keys(copy) : ['x'])];
    if (random.chance(0.1)) copy[random.pick(KEYS)] = random.pick(WEIRD_VALUES);
    return copy;
  }
  return random.chance(0.5) ? random.pick(WEIRD_VALUES) : value;
}

function randomInput(random: Random): unknown {
  if (random.chance(0.1)) return random.pick(WEIRD_VALUES);
  const seed = random.chance(0.5) ? VALID : { questions: VALID.questions.slice(0, 1 + random.int(4)) };
  return mutate(structuredClone(seed), random);
}

const ERROR_LINE = /^- (\(input\)|[A-Za-z_$][\w$]*(\[\d+\]|\.[A-Za-z_$][\w$]*)*): \S/;

suite('fuzz: ask_user entry point', () => {
  test('10,000 random or mutated inputs: asked and settled, or a model-readable error; 0 pending afterwards', async function () {
    this.timeout(120_000);
    const random = seededRandom(20261202);
    const { broker } = makeBroker();
    const policy = makePolicy();
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 10_000; i++) {
      const input = randomInput(random);
      const token = cancellation();
      const call = callAskUser(input, { broker, policy, source: { type: 'tool', label: 'Fuzz' }, options: { token } });
      // A valid call is pending now; settle it one way or another so nothing can hang.
      const pending = broker.list()[0];
      if (pending) {
        if (random.chance(0.5)) broker.reject(pending.id, { by: 'user', where: 'panel' });
        else token.cancel();
      }
      const result = await Promise.race([call, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`input ${i} hung: ${JSON.stringify(input)}`)), 1000))]);
      assert.equal(typeof result.text, 'string');
      if (result.response) {
        accepted++;
        assert.ok(['rejected', 'cancelled'].includes(result.response.status));
      } else {
        refused++;
        const [intro, ...lines] = result.text.split('\n');
        assert.match(intro!, /^ask_user input is invalid; nothing was asked\. Fix \d+ problems? and call ask_user again:$/, `input ${i}`);
        assert.ok(lines.length > 0);
        for (const line of lines) assert.match(line, ERROR_LINE, `input ${i}: ${line}`);
      }
    }
    assert.equal(broker.size, 0);
    assert.ok(accepted > 500 && refused > 5000, `a useful mix: ${accepted} accepted, ${refused} refused`);
  });
});
