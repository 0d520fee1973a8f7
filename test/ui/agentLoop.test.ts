import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { button, waitForRequest } from './panelHelpers';
import { useWorkbench, type Workbench } from './workbench';

// VS Code's own agent mode, with the driver's scripted language model (test/fixtures/driver):
// the model calls ask_user, the user answers in the sidebar, and the model's reply quotes what it received.
suite('The real agent loop (VS Code agent mode, scripted model)', () => {
  let workbench: Workbench;
  let panel: Frame;
  useWorkbench((opened, openedPanel) => {
    workbench = opened;
    panel = openedPanel;
  });

  test('agent mode calls ask_user, the question is answered in the panel, and the model receives the typed answer', async function () {
    this.timeout(180_000);
    const { page } = workbench;
    await page.locator('.interactive-input-part .monaco-editor').first().click();
    await page.keyboard.type('Set up the service; ask me which database to use.');
    await page.keyboard.press('Enter');
    // The first prompt also enables the built-in agent ("chat.allowAnonymousAccess"), which takes a while.
    await page.locator('.interactive-list', { hasText: 'Asking 1 question (Database)' }).waitFor({ timeout: 90_000 });
    panel = await workbench.panel();
    await waitForRequest(panel, 'Which database should I use?');
    await panel.locator('vscode-radio[value="SQLite"]').click();
    await button(panel, 'submit').click();
    const reply = page.locator('.interactive-list', { hasText: 'MODEL RECEIVED' });
    await reply.waitFor({ timeout: 60_000 });
    await workbench.screenshot('agent-loop-answered');
    assert.match(await reply.innerText(), /MODEL RECEIVED: The user answered 1 question: database = "SQLite"\./);
  });
});
