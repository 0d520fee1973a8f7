// The folder layout the design draws (docs/architecture.md): src/ holds only its named folders, and
// a file's name is unique across src/, so a name in a message, a stack trace or a doc points at one file.
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ROOT } from '../helpers/repoRoot';

const SRC = join(ROOT, 'src');
const TOP_LEVEL = ['agents', 'answerPage', 'broker', 'extension', 'hook', 'mcp', 'webview'];

suite('source layout', () => {
  test('src/ holds only the folders the architecture names', () => {
    const entries = readdirSync(SRC, { withFileTypes: true });
    assert.deepEqual(
      entries.filter((e) => !e.isDirectory()).map((e) => e.name),
      [],
      'no loose files in src/',
    );
    assert.deepEqual(entries.map((e) => e.name).sort(), TOP_LEVEL);
  });

  test('every file name under src/ is unique', () => {
    const byName = new Map<string, string[]>();
    for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
      if (!/\.(ts|js|mjs)$/.test(file)) continue;
      const name = basename(file);
      byName.set(name, [...(byName.get(name) ?? []), file]);
    }
    const twice = [...byName.values()].filter((files) => files.length > 1);
    assert.ok(byName.size > 100, `read ${byName.size} files`);
    assert.deepEqual(twice, []);
  });
});
