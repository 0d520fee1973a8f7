// Issue 40, item 3: operands that are instructions to the tool. Each attack is decided under every rule
// the prompt offers for its benign twin, remembered alone as "Always allow" (as alwaysAllowCorpus.test.ts
// does); none may allow it. The workspace ships `docs/keys -> ~/.ssh`.
import * as assert from 'node:assert/strict';
import { loadTwins, type Twins } from './twinRules';

/** [what it prevents, the benign twin, the attacks]. */
const CASES: readonly (readonly [string, string, readonly string[]])[] = [
  ['pytest reading its options from a response file', 'pytest tests', ['pytest @tests/ci.args tests', 'pytest -k @tests/ci.args tests', 'python -m pytest @tests/ci.args tests']],
  ['tsc reading its options from a response file', 'tsc --noEmit', ['tsc --noEmit @tests/ci.args', 'tsc @tests/ci.args --noEmit']],
  [
    'tsc --noEmit turned off by a following false',
    'tsc --noEmit',
    ['tsc --noEmit false -p tsconfig.bundle.json', 'tsc --noEmit false', 'tsc --noEmit=false -p tsconfig.json', 'tsc --noEmit true --noEmit false'],
  ],
  [
    'jq reading the environment, its own location or other files',
    'jq .name package.json',
    [
      `jq -n '$ ENV'`,
      `jq -n '$ENV'`,
      `jq -n '$ENV.HOME'`,
      `jq -n '$__loc__'`,
      `jq -n 'env'`,
      `jq -n 'env.HOME'`,
      `jq -n '[env][0]'`,
      `jq -n '.[env:1]'`,
      `jq -n '"\\(env)"'`,
      `jq -n '@sh "\\(env)"'`,
      `jq input_filename src/a.ts`,
      `jq -n 'import "x" as x; .'`,
      `jq -n 'include "x"; .'`,
      `jq -n '. # a comment'`,
      `jq -n 'getpath(["a"])'`,
      `jq -n 'builtins'`,
      `jq -n 'get_search_list'`,
      `jq -n '$__prog_args'`,
      `jq -n --rawfile k docs/keys/id_rsa '$k'`,
      `jq -n --slurpfile k docs/keys/id_rsa '$k'`,
    ],
  ],
  [
    'a recursion that follows a link the repository ships',
    'grep -rn foo src',
    ['grep -R PRIVATE docs', 'grep -rR PRIVATE docs', 'grep --dereference-recursive PRIVATE docs', 'grep -r PRIVATE docs/keys'],
  ],
  ['find following links', 'find . -name "*.ts"', ['find -L docs -name id_rsa', 'find docs -follow -name id_rsa', 'find docs -L']],
  ['ls following links while it recurses', 'ls src', ['ls -RL docs', 'ls -R -L docs', 'ls -R --dereference docs', 'ls -LR docs']],
  ['du following links', 'du -sh src', ['du -L docs', 'du -sL docs', 'du --dereference docs']],
  ['rg following links', 'rg foo src', ['rg -L PRIVATE docs', 'rg --follow PRIVATE docs']],
  ['tree following links', 'tree src', ['tree -l docs', 'tree -al docs']],
  ['a make rule running a second target', 'make test', ['make test install', 'make test -j4 install', 'make -j4 test install', 'make -k test deploy']],
];

suite('operands that are instructions to the tool (issue 40, item 3)', () => {
  let twins: Twins;
  suiteSetup(async () => {
    twins = await loadTwins();
  });
  suiteTeardown(() => twins.dispose());

  for (const [what, twin, attacks] of CASES) {
    test(`prevents ${what}: no rule offered for \`${twin}\` allows it`, () => {
      assert.ok(
        twins.offered(twin).some((label) => label.endsWith('…')),
        `${twin} is offered a prefix rule (else the case proves nothing): ${twins.offered(twin).join(', ')}`,
      );
      const allowed = attacks.flatMap((attack) => {
        const by = twins.allowing(twin, attack);
        return by.length > 0 ? [`${attack} ⟵ «${by.join('», «')}»`] : [];
      });
      assert.deepEqual(allowed, []);
    });
  }

  test('the benign spellings next to them are still covered', () => {
    const covered: readonly (readonly [string, string])[] = [
      ['pytest tests', 'pytest -k "a or b" tests/test_a.py'],
      ['tsc --noEmit', 'tsc --noEmit true -p tsconfig.json'],
      ['tsc --noEmit', 'tsc --noEmit --strict false -p tsconfig.json'],
      ['jq .name package.json', `jq -r '.items[] | select(.a == "x") | {name, id: .id} | @base64' src/a.ts`],
      ['jq .name package.json', `jq -n --arg v 1 '[$v, (1 + 2), ("a" | ascii_upcase), .env, {env: 1}] | map(tostring) | join(",")'`],
      ['jq .name package.json', `jq 'reduce .[] as $x (0; . + $x) // empty' src/a.ts`],
      ['jq .name package.json', `jq --rawfile k src/a.ts -n '$k | length'`],
      ['grep -rn foo src', 'grep -r PRIVATE docs'],
      ['find . -name "*.ts"', 'find docs -H -name "*.md"'],
      ['ls src', 'ls -R src'],
      ['du -sh src', 'du -sh docs'],
      ['tree src', 'tree -L 2 docs'],
      ['make test', 'make test -j4'],
    ];
    const failures = covered.filter(([twin, later]) => twins.allowing(twin, later).length === 0).map(([twin, later]) => `${later} (twin ${twin})`);
    assert.deepEqual(failures, []);
  });
});
