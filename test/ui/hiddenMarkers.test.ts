// Issue 41's hidden characters outside the panel: VS Code's own UI (the Queue's row and its hover, the
// notification, Check a Command's dialog) shows each invisible character as a marker, and Check a
// Command says such a command is always asked.
import * as assert from 'node:assert/strict';
import { startEmpty } from './auditHelpers';
import { button, waitForRequest } from './panelHelpers';
import { hideQuestionPanel, queueRows, useWorkbench } from './workbench';

/** Text hidden in variation selectors (U+E0100 + each byte): it reads as nothing. */
const hidden = (text: string) => [...text].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0))).join('');
const PROGRAM = 'require("fs").rmSync("x")';
/** Issue 41's payload: reads as `[...'']`. */
const PAYLOAD = `node -e "eval([...'${hidden(PROGRAM)}'].map(c=>String.fromCharCode(c.codePointAt(0)-0xE0100)).join(''))"`;
/** A title with a zero-width space and a hidden word in it. */
const TITLE = `Run the\u200Btests${hidden('rm')}?`;
const MARKERS = /⟨U\+(E01[0-9A-F]{2}|200B)⟩/g;
const markersIn = (text: string) => text.match(MARKERS)?.length ?? 0;

suite('Hidden characters are marked in the Queue, notifications and Check a Command', () => {
  const ui = useWorkbench();
  setup(() => startEmpty(ui));

  const ask = (title: string, command: string) =>
    ui.workbench.driver<{ callId: number }>('permission', { request: { extensionId: 'tests.hidden', title, detail: command, command } });
  const settled = async (call: { callId: number }) => (await ui.workbench.driver<{ value: { decision?: string } }>('await', { callId: call.callId })).value;

  test("the Queue's row marks the title's hidden characters, and its hover the command's", async function () {
    const { page } = ui.workbench;
    const call = await ask(TITLE, PAYLOAD);
    await waitForRequest(ui.panel, 'Run the');
    const row = queueRows(page).filter({ hasText: 'Run the' }).first();
    const label = (await row.locator('.label-name').innerText()).trim();
    assert.equal(label, 'Run the⟨U+200B⟩tests⟨U+E0172⟩⟨U+E016D⟩?');
    await row.hover();
    const hover = page.locator('.monaco-hover:visible', { hasText: 'node -e' }).first();
    await hover.waitFor();
    const shown = await hover.innerText();
    assert.equal(markersIn(shown), 3 + PROGRAM.length, shown);
    assert.doesNotMatch(shown, /\[\.\.\.''\]/);
    await ui.workbench.screenshot('queue-hidden-markers');
    await page.mouse.move(640, 600);
    await button(ui.panel, 'deny').click();
    assert.equal((await settled(call)).decision, 'deny');
  });

  test('Check a Command marks each hidden character and says the command is always asked', async function () {
    const page = ui.workbench.page;
    await ui.workbench.runCommand('Agent Questions: Check a Command…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(PAYLOAD);
    await input.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    try {
      const message = (await dialog.locator('.dialog-message-text').textContent()) ?? '';
      assert.match(message, /^Asked: node -e "eval\(\[\.\.\.'⟨U\+E0172⟩⟨U\+E0165⟩/);
      assert.equal(markersIn(message), PROGRAM.length, message);
      const detail = (await dialog.locator('.dialog-message-detail').textContent()) ?? '';
      assert.match(detail, new RegExp(`Why: Contains ${PROGRAM.length} invisible characters \\(U\\+E0172, .*always asked`));
      assert.ok(![...detail].some((c) => /\p{Default_Ignorable_Code_Point}/u.test(c)), `no raw hidden character in the detail: ${detail}`);
      await ui.workbench.screenshot('check-a-command-hidden');
    } finally {
      // A dialog left open would keep the next test from the palette.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    }
  });

  // Last: it hides the Question panel.
  test('the notification marks the hidden characters', async function () {
    const { page, driver } = ui.workbench;
    await driver('config', { section: 'agentQuestions', key: 'revealOnAsk', value: false });
    try {
      await hideQuestionPanel(page);
      await page.mouse.move(640, 600);
      const call = await ask(TITLE, PAYLOAD);
      await ui.workbench.runCommand('Notifications: Show Notifications');
      const item = page.locator('.notifications-center .notification-list-item', { hasText: 'asks permission' }).first();
      await item.waitFor();
      const text = await item.locator('.notification-list-item-message').innerText();
      assert.match(text, /Run the⟨U\+200B⟩tests⟨U\+E0172⟩⟨U\+E016D⟩\?/);
      await ui.workbench.screenshot('notification-hidden-markers');
      await item.locator('.monaco-button', { hasText: 'Reject' }).click();
      assert.equal((await ui.workbench.driver<{ value: { status: string } }>('await', { callId: call.callId })).value.status, 'rejected');
    } finally {
      await driver('config', { section: 'agentQuestions', key: 'revealOnAsk', value: null });
    }
  });
});
