// The tables in README.md and docs/ that restate code are generated from it (docTables.ts): a stale
// one fails here. AGENT_QUESTIONS_UPDATE_DOCS=1 npm test -- unit (or AGENT_QUESTIONS_UPDATE_README=1)
// rewrites them instead.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMITS } from '../../../src/broker/contract/schemas';
import { ASK_USER_FIELD_ROWS, currentTable, DOC_TABLES, ROOT, withTable } from './docTables';

const UPDATE = process.env['AGENT_QUESTIONS_UPDATE_DOCS'] === '1' || process.env['AGENT_QUESTIONS_UPDATE_README'] === '1';

suite('generated doc tables (AGENT_QUESTIONS_UPDATE_DOCS=1 npm test -- unit rewrites them)', () => {
  for (const table of DOC_TABLES) {
    test(`${table.file} shows the ${table.name} table as the code has it`, () => {
      const file = join(ROOT, table.file);
      const text = readFileSync(file, 'utf8');
      const current = currentTable(text, table.name);
      assert.notEqual(current, undefined, `${table.file} has the <!-- ${table.name}:start --> and <!-- ${table.name}:end --> markers`);
      const generated = `${table.generate()}\n`;
      if (UPDATE) writeFileSync(file, withTable(text, table.name, table.generate()));
      else assert.equal(current, generated, `the ${table.name} table in ${table.file} is stale: run AGENT_QUESTIONS_UPDATE_DOCS=1 npm test -- unit`);
    });
  }

  test('every ask_user limit is stated in the field table (a new limit needs a row)', () => {
    const stated = new Set(ASK_USER_FIELD_ROWS.flatMap((row) => row.limits));
    assert.deepEqual(
      Object.keys(LIMITS).filter((key) => !stated.has(key as keyof typeof LIMITS)),
      [],
    );
  });

  test('no two tables share a marker name, and each file holds each marker pair once', () => {
    assert.equal(new Set(DOC_TABLES.map((t) => t.name)).size, DOC_TABLES.length);
    for (const table of DOC_TABLES) {
      const text = readFileSync(join(ROOT, table.file), 'utf8');
      assert.equal(text.split(`<!-- ${table.name}:start -->`).length, 2, `${table.file}: ${table.name} start marker`);
      assert.equal(text.split(`<!-- ${table.name}:end -->`).length, 2, `${table.file}: ${table.name} end marker`);
    }
  });
});
