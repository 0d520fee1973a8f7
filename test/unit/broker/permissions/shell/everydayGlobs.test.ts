// Issue 40, item 7: globs that expand inside the workspace, and `npx <tool>` with the tool installed in
// the workspace, are covered by the rule the prompt offers for their twin (each rule remembered alone);
// a glob that may match a link out of the workspace or a protected file, and npx that may download, stay
// asked. The workspace ships `docs/keys -> ~/.ssh`; paths and globs are read from the real file system.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expandGlob } from '../../../../../src/extension/realPath';
import { loadTwins, type Twins } from './twinRules';

/** [the twin whose prompt offered the rules, the later command]. */
const COVERED: readonly (readonly [string, string])[] = [
  ['ls src/a.ts', 'ls src/*.ts'],
  ['wc -l src/a.ts', 'wc -l src/*.ts'],
  ['grep -rn foo .', 'grep -rn foo --include=*.ts .'],
  ['grep -rn foo src', 'grep -rn foo src/*'],
  ['cat src/a.ts', 'cat src/?.ts'],
  // Nothing matches: bash passes the word as written, a path inside the workspace.
  ['ls src/a.ts', 'ls src/*.md'],
  ['ls src/a.ts', 'cd src && ls *.ts'],
];

/** [what it prevents, the twin, the later commands that stay asked]. */
const ASKED: readonly (readonly [string, string, readonly string[]])[] = [
  ['a glob matching a link the repository ships out of the workspace', 'grep -rn foo src', ['grep -r PRIVATE docs/*', 'grep -rn PRIVATE docs/k*']],
  ['a glob matching a link the repository ships, listed', 'ls src/a.ts', ['ls docs/*', 'ls -l docs/*']],
  // echo's operands are text: only the check of each match keeps it from naming the files in ~/.ssh.
  ['a glob listing the names behind a link out of the workspace', 'echo hello', ['echo docs/keys/*', 'echo docs/*/*']],
  ['a glob matching protected files', 'cat src/a.ts', ['cat .claude/*', 'cat .git/*', 'cat src/../.git/*']],
  ['a glob listing protected files', 'ls src/a.ts', ['ls .git/*', 'ls .claude/*']],
  ['a glob that matches the parent folder (`.*` gives `..` in older bash)', 'ls src/a.ts', ['ls .*', 'ls -d .*']],
  ['a glob outside the workspace', 'ls src/a.ts', ['ls /etc/*', 'ls ../*']],
  ['a glob the checker does not expand', 'ls src/a.ts', ['ls src/**/*.ts', 'ls src/[ab].ts', 'ls "src"/*.ts', 'ls src/*.ts~']],
  ['a glob beside another command that could change the files first', 'ls src/a.ts', ['ls src/*.ts | head', 'ls src/*.ts; ls src/*.ts']],
  ['a glob expanding to a file named like an option', 'grep -n foo src/a.ts', ['cd opts && grep -n foo *']],
];

suite('everyday globs and npx (issue 40, item 7)', () => {
  let twins: Twins;
  suiteSetup(async () => {
    twins = await loadTwins();
    for (const dir of ['.git', '.claude', 'opts']) mkdirSync(join(twins.ws, dir));
    writeFileSync(join(twins.ws, '.git', 'HEAD'), '');
    writeFileSync(join(twins.ws, '.claude', 'settings.json'), '{}');
    writeFileSync(join(twins.ws, 'opts', '-R'), '');
  });
  suiteTeardown(() => twins.dispose());

  /** Each later command some offered rule allowed, with the rules that did. */
  const allowedOf = (twin: string, laters: readonly string[]) =>
    laters.flatMap((later) => {
      const by = twins.allowing(twin, later);
      return by.length > 0 ? [`${later} ⟵ «${by.join('», «')}»`] : [];
    });
  /** Installs a tool in `node_modules/.bin` of a folder, for what npx finds. */
  const install = (folder: string, tool: string) => {
    mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(folder, 'node_modules', '.bin', tool), '');
  };

  test('a glob that expands inside the workspace is covered by the rule offered for its twin', () => {
    const failures = COVERED.filter(([twin, later]) => twins.allowing(twin, later).length === 0).map(
      ([twin, later]) => `${later} ⟵ none of «${twins.offered(twin).join('», «')}» offered for ${twin}`,
    );
    assert.deepEqual(failures, []);
  });

  for (const [what, twin, laters] of ASKED) {
    test(`prevents ${what}`, () => {
      assert.ok(twins.offered(twin).length > 0, `no rule offered for ${twin}`);
      assert.deepEqual(allowedOf(twin, laters), []);
    });
  }

  test('a glob without a file named like an option is covered (the control of the case above)', () => {
    assert.deepEqual(twins.allowing('grep -n foo src/a.ts', 'cd src && grep -n foo *').length > 0, true);
  });

  test('prevents npx downloading a tool the workspace does not have: asked until it is installed in the workspace', () => {
    // Installed above the workspace folder: npx would find it, but nothing in the workspace decides it.
    install(dirname(twins.ws), 'jest');
    install(dirname(twins.ws), 'vitest');
    assert.deepEqual(allowedOf('jest src', ['npx jest', 'npx jest src']), []);
    assert.ok(!twins.offered('npx jest').includes('jest …'));
    assert.deepEqual(allowedOf('tsc --noEmit', ['npx tsc --noEmit']), []);
    assert.deepEqual(allowedOf('vitest run', ['npx vitest run']), []);
    install(twins.ws, 'jest');
    install(twins.ws, 'tsc');
    install(join(twins.ws, 'src'), 'vitest');
    try {
      // npx's options before the tool (`-y` installs without asking) are not read.
      assert.deepEqual(allowedOf('jest src', ['npx -y jest', 'npx --yes jest src', 'npx --package=evil jest', 'npx jest --config ./x.js']), []);
      // vitest is installed in src/ only: from the workspace's top, npx would not find it there.
      assert.deepEqual(allowedOf('vitest run', ['npx vitest run']), []);
    } finally {
      rmSync(join(twins.ws, 'node_modules'), { recursive: true, force: true });
      rmSync(join(twins.ws, 'src', 'node_modules'), { recursive: true, force: true });
    }
  });

  test('npx <tool> with the tool installed in the workspace is covered by the rule its own prompt offers («jest …»)', () => {
    install(twins.ws, 'jest');
    install(twins.ws, 'tsc');
    install(join(twins.ws, 'src'), 'vitest');
    try {
      assert.ok(twins.offered('npx jest').includes('jest …'), `offered: ${twins.offered('npx jest').join(', ')}`);
      const covered: readonly (readonly [string, string])[] = [
        ['npx jest', 'npx jest src --ci -t login'],
        ['jest src', 'npx jest'],
        ['jest src', 'npx jest src'],
        ['tsc --noEmit', 'npx tsc --noEmit'],
        ['vitest run', 'cd src && npx vitest run'],
        ['vitest run', 'cd src && npx vitest run --silent -t login'],
      ];
      const failures = covered.filter(([twin, later]) => twins.allowing(twin, later).length === 0).map(([twin, later]) => `${later} ⟵ «${twins.offered(twin).join('», «')}»`);
      assert.deepEqual(failures, []);
    } finally {
      rmSync(join(twins.ws, 'node_modules'), { recursive: true, force: true });
      rmSync(join(twins.ws, 'src', 'node_modules'), { recursive: true, force: true });
    }
  });

  test('jest and vitest options that load code or write where told stay asked', () => {
    assert.deepEqual(
      allowedOf('jest src', ['jest --config ./x.js src', 'jest -c ./x.js src', 'jest --outputFile=/tmp/x src', 'jest --reporters ./x.js src', 'jest --watch src', 'jest -o src']),
      [],
    );
    assert.deepEqual(allowedOf('vitest run', ['vitest run --reporter=./x.mjs', 'vitest run --config ./x.mjs', 'vitest run --pool ./x.mjs', 'vitest init']), []);
  });
});

suite('expandGlob: what bash may match, as a superset', () => {
  let twins: Twins;
  suiteSetup(async () => {
    twins = await loadTwins();
    writeFileSync(join(twins.ws, 'src', '.hidden.ts'), '');
    writeFileSync(join(twins.ws, 'src', 'B.TS'), '');
  });
  suiteTeardown(() => twins.dispose());

  test('hidden names, any case, `.` and `..` for a part starting with a dot; [] when nothing matches', () => {
    assert.deepEqual(expandGlob('src/*.ts', twins.ws), ['src/.hidden.ts', 'src/B.TS', 'src/a.ts']);
    assert.deepEqual(expandGlob('src/.*', twins.ws), ['src/.', 'src/..', 'src/.hidden.ts']);
    assert.deepEqual(expandGlob('docs/k*/id_*', twins.ws), ['docs/keys/id_rsa']);
    assert.deepEqual(expandGlob('src/*.md', twins.ws), []);
    assert.deepEqual(expandGlob('nothing/*', twins.ws), []);
  });

  test('undefined (asked) for `**`, brackets, empty parts and more than 1,000 matches', () => {
    assert.equal(expandGlob('src/**/*.ts', twins.ws), undefined);
    assert.equal(expandGlob('src/[ab].ts', twins.ws), undefined);
    assert.equal(expandGlob('src//*.ts', twins.ws), undefined);
    const many = join(twins.ws, 'many');
    mkdirSync(many);
    for (let i = 0; i < 1001; i++) writeFileSync(join(many, `f${i}`), '');
    assert.equal(expandGlob('many/*', twins.ws), undefined);
  });
});
