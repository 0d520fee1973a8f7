import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/repoRoot';

// A test waits for a condition until its own deadline (test/harness/deadline.ts), never a fixed time
// shorter than a minute for something a busy machine can make slower. These catch the usual shapes.
const MINUTE = 60_000;
const SHAPES: Array<{ what: string; pattern: RegExp; literal?: boolean }> = [
  { what: 'a `timeout:` under a minute', pattern: /\btimeout:\s*(\d[\d_]*)\s*(?=[,})]|$)/g, literal: true },
  { what: 'a wait helper given a deadline under a minute', pattern: /\b(?:waitFor|until|finished|arrival|ready)\([^()\n]*,\s*(\d[\d_]*)\)/g, literal: true },
  { what: 'a default deadline under a minute', pattern: /\b(?:ms|timeoutMs|waitMs)\s*=\s*(\d[\d_]*)\s*(?=[,)]|$)/g, literal: true },
  { what: 'a fixed Playwright timeout (pages follow the test deadline: followDeadline)', pattern: /\.setDefault(?:Navigation)?Timeout\((?!remainingMs\(\))/g },
  { what: 'a fixed pause (quietFor before asserting nothing happened, else wait for the condition)', pattern: /\.waitForTimeout\(/g },
];
const SKIP = new Set(['node_modules', 'bench', 'fixtures']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIP.has(name) ? [] : sources(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.mts') ? [path] : [];
  });
}

suite('Tests wait for conditions, until their own deadline', () => {
  test('no test or harness file waits a fixed time under a minute for something that could take longer on a busy machine', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'test'))) {
      if (file === __filename.replace(/\.js$/, '.ts') || file.endsWith(join('project', 'testWaits.test.ts'))) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const { what, pattern, literal } of SHAPES) {
          for (const match of line.matchAll(pattern)) {
            if (literal && Number(match[1]!.replaceAll('_', '')) >= MINUTE) continue;
            found.push(`${relative(ROOT, file)}:${i + 1}: ${what}: ${line.trim()}`);
          }
        }
      });
    }
    assert.deepEqual(found, []);
  });

  test('the check sees each shape it names', () => {
    const samples = [
      'await x.waitFor({ timeout: 20_000 });',
      'await session.waitFor(/ready/, 30_000);',
      'async waitFor(pattern, ms = 30_000) {',
      'page.setDefaultTimeout(30_000);',
      'await page.waitForTimeout(500);',
    ];
    samples.forEach((sample, i) => {
      const shape = SHAPES[i]!;
      const match = [...sample.matchAll(shape.pattern)][0];
      assert.ok(match, `${shape.what} not seen in ${sample}`);
      if (shape.literal) assert.ok(Number(match[1]!.replaceAll('_', '')) < MINUTE);
    });
    for (const longEnough of ['await x.waitFor({ timeout: 120_000 });', 'spawnSync(x, [], { timeout: 10 * 60_000 });']) {
      assert.equal([...longEnough.matchAll(SHAPES[0]!.pattern)].filter((m) => Number(m[1]!.replaceAll('_', '')) < MINUTE).length, 0, longEnough);
    }
  });
});
