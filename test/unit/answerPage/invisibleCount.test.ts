// Issue 41: a warning about invisible characters says how many there are, so a program hidden in
// variation selectors is not summed up as a short list of code points. It counts what is shown: a
// hook's detail repeats the command, and is not shown beside it.
import * as assert from 'node:assert/strict';
import { permissionRequestFor } from '../../../src/broker/permissions/approveTool';
import { askPermission, openPage, withPage } from './answerPageHelpers';

const PROGRAM = 'require("fs").rmSync("x")';
const PAYLOAD = `node -e "eval([...'${[...PROGRAM].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0))).join('')}'].map(c=>String.fromCharCode(c.codePointAt(0)-0xE0100)).join(''))"`;
const hookRequest = (command: string) => {
  const request = permissionRequestFor({ tool_name: 'Bash', input: { command } }, { type: 'mcp', label: 'Claude Code' }, []);
  assert.ok(!('refused' in request));
  return request;
};

suite('answer page: how many invisible characters', () => {
  test('prevents a hidden program from passing for a few characters: the warning counts each selector of the payload, once', async () => {
    await withPage(async (f) => {
      const { id } = askPermission(f.broker, hookRequest(PAYLOAD));
      const { page } = await openPage(f, id);
      assert.match(page.body, new RegExp(`Contains ${PROGRAM.length} invisible characters \\(U\\+E0172, U\\+E0165, `));
    });
  });

  test('one invisible character keeps the warning without a count', async () => {
    await withPage(async (f) => {
      const { id } = askPermission(f.broker, hookRequest('echo safe\u202E'));
      const { page } = await openPage(f, id);
      assert.match(page.body, /Contains invisible characters \(U\+202E\)/);
    });
  });
});
