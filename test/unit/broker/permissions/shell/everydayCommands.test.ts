// Issue 40, item 7: everyday commands covered by the rule the prompt offers for their obvious twin
// (each offered rule remembered alone, as alwaysAllowCorpus.test.ts does).
import * as assert from 'node:assert/strict';
import { loadTwins, type Twins } from './twinRules';

/** [the twin whose prompt offered the rules, the everyday command]. */
const COVERED: readonly (readonly [string, string])[] = [
  ['git log -5', 'git --no-pager log -5'],
  ['git log -5', 'git -P log --oneline -5'],
  ['npm test', 'npm test -- --watch=false'],
  ['npm test', 'npm t'],
  ['npm test', 'npm tst'],
  ['npm run build', 'npm run-script build'],
  ['tsc --noEmit', 'npx --no-install tsc --noEmit'],
  ['pytest tests', 'python -m pytest tests'],
  ['pytest tests', 'python3 -m pytest -x tests'],
  ['make test', 'make -j4 test'],
  ['make test', 'make --jobs=4 -k test'],
  ['find . -name "*.ts"', 'find . -newermt 2024-01-01'],
  ['find . -name "*.ts"', 'find src -newer src/a.ts -newermm src/a.ts'],
];

/** Still asked, and why: each would run or read what the twin's rule does not show. */
const ASKED: readonly (readonly [string, string])[] = [
  // Globs and `npx <tool>`: everydayGlobs.test.ts.
  ['find . -newermt 2024-01-01', 'find . -newermm /etc/passwd'],
  ['make test', 'make -j 4 test'],
  ['npm test', 'npm test -- --watch=maybe'],
];

suite('everyday commands (issue 40, item 7)', () => {
  let twins: Twins;
  suiteSetup(async () => {
    twins = await loadTwins();
  });
  suiteTeardown(() => twins.dispose());

  test('each is covered by a rule offered for its twin', () => {
    const failures = COVERED.filter(([twin, later]) => twins.allowing(twin, later).length === 0).map(
      ([twin, later]) => `${later} ⟵ none of «${twins.offered(twin).join('», «')}» offered for ${twin}`,
    );
    assert.deepEqual(failures, []);
  });

  test('the spellings that would run or read more stay asked', () => {
    const allowed = ASKED.flatMap(([twin, later]) => {
      const by = twins.allowing(twin, later);
      return by.length > 0 ? [`${later} ⟵ «${by.join('», «')}»`] : [];
    });
    assert.deepEqual(allowed, []);
  });
});
