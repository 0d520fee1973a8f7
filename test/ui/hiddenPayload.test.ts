// Issue 41's variation-selector payload end to end: a command whose program hides in variation
// selectors between quotes that look empty. The panel and the answer page mark each selector and say
// how many there are, and a rule the user gave its visible twin does not decide it: it is asked.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { QuestionBroker } from '../../src/broker/broker';
import { renderMarkdownTree } from '../../src/broker/markdown/markdownRender';
import { permissionRequestFor } from '../../src/broker/permissions/approveTool';
import { AnswerPageServer } from '../../src/answerPage/answerPageServer';
import { button, waitForRequest } from './panelHelpers';
import { openPhone } from './phone';
import { RESULTS, useWorkbench } from './workbench';

const PROGRAM = 'require("fs").rmSync("x")';
const hiddenIn = (selectors: string) => `node -e "eval([...'${selectors}'].map(c=>String.fromCharCode(c.codePointAt(0)-0xE0100)).join(''))"`;
/** One selector (U+E0100 + byte) for each byte of the program: it reads as `[...'']`. */
const PAYLOAD = hiddenIn([...PROGRAM].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0))).join(''));
/** What the payload looks like: the same line without its selectors. */
const TWIN = hiddenIn('');
const MARKER = /⟨U\+E01[0-9A-F]{2}⟩/g;
/** The warning's start: how many, then the code points, the first being `r`'s (U+E0100 + 0x72). */
const COUNTED = new RegExp(`Contains ${PROGRAM.length} invisible characters \\(U\\+E0172, `);

suite('The variation-selector payload: marked with its count, and always asked', () => {
  const ui = useWorkbench();

  const ask = (command: string) =>
    ui.workbench.driver<{ callId: number }>('permission', { request: { extensionId: 'tests.hidden', title: 'Run a command?', detail: command, command } });
  const settled = async (call: { callId: number }) => (await ui.workbench.driver<{ value: { decision?: string } }>('await', { callId: call.callId })).value;

  test('the panel marks each selector and counts them; a rule for its visible twin does not decide it', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    try {
      // The user allows the visible twin always, with the rule the prompt offers for it.
      let call = await ask(TWIN);
      await ui.panel.locator('.tool-call pre.command', { hasText: TWIN }).waitFor();
      await ui.panel.locator('.scope-choice vscode-radio', { hasText: 'This session' }).click();
      await button(ui.panel, 'allow_always').click();
      assert.equal((await settled(call)).decision, 'allow_always');
      // The rule decides the twin now, without asking.
      call = await ask(TWIN);
      assert.equal((await settled(call)).decision, 'allow_always');

      // The payload reaches the panel: asked, with a marker for each selector and their count.
      call = await ask(PAYLOAD);
      await waitForRequest(ui.panel, 'Run a command?');
      const request = ui.panel.locator('.request:not([inert])').first();
      const command = await request.locator('.tool-call pre.command').innerText();
      assert.equal(command.match(MARKER)?.length, PROGRAM.length, command);
      assert.doesNotMatch(command, /\[\.\.\.''\]/);
      assert.match(await request.locator('.warnings').innerText(), COUNTED);
      assert.equal(await request.locator('vscode-button[data-action="allow_always"]').count(), 0, 'no rule is offered for it');
      await ui.workbench.screenshot('hidden-payload-panel');
      await button(ui.panel, 'deny').click();
      assert.equal((await settled(call)).decision, 'deny');
    } finally {
      await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    }
  });

  test('the answer page marks each selector and counts them', async function () {
    const broker = new QuestionBroker({ newId: () => 'payload' });
    const server = new AnswerPageServer(broker, { linkTtlMs: 10 * 60_000, renderMarkdown: renderMarkdownTree });
    await server.start();
    const { context, page, errors } = await openPhone(ui.workbench.page.context().browser()!);
    try {
      // The request as Claude Code's hook makes it.
      const request = permissionRequestFor({ tool_name: 'Bash', input: { command: PAYLOAD, description: 'Run it' } }, { type: 'mcp', label: 'Claude Code' }, []);
      assert.ok(!('refused' in request), 'the hook shows the payload');
      let id = '';
      const response = broker.requestPermission(request, { onQueued: (queued) => (id = queued) });
      await page.goto(server.urlFor(id)!);
      const command = await page.locator('pre.command').innerText();
      assert.equal(command.match(MARKER)?.length, PROGRAM.length, command);
      assert.doesNotMatch(command, /\[\.\.\.''\]/);
      assert.match(await page.locator('.warnings').innerText(), COUNTED);
      mkdirSync(join(RESULTS, 'answer-page'), { recursive: true });
      await page.screenshot({ path: join(RESULTS, 'answer-page', 'hidden-payload.png'), fullPage: true });
      await page.getByRole('button', { name: 'Deny' }).tap();
      await page.getByRole('heading', { name: 'Answered' }).waitFor();
      assert.equal((await response).decision, 'deny');
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
      server.dispose();
      await server.stop();
      broker.dispose();
    }
  });
});
