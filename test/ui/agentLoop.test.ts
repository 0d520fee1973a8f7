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

  async function send(prompt: string): Promise<void> {
    const { page, driver } = workbench;
    await driver('command', { id: 'workbench.action.chat.newChat' });
    await page.locator('.interactive-input-part .monaco-editor').first().click();
    await page.keyboard.type(prompt);
    await page.keyboard.press('Enter');
  }

  const lastReply = () => workbench.page.locator('.interactive-item-container.interactive-response').last();

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

  test('invalid input first: the model reads the error, retries with valid input, and the loop completes', async function () {
    this.timeout(120_000);
    await send('Pick a database. scenario:invalid-first');
    panel = await workbench.panel();
    await waitForRequest(panel, 'Which database?');
    await panel.locator('vscode-radio[value="PostgreSQL"]').click();
    await button(panel, 'submit').click();
    const reply = lastReply();
    await reply.filter({ hasText: 'MODEL RECEIVED' }).waitFor({ timeout: 60_000 });
    assert.match(await reply.innerText(), /database = "PostgreSQL"/);
    const received = JSON.stringify(await workbench.driver('received'));
    // VS Code's agent checks inputs against the JSON Schema first; cross-field mistakes (here a
    // duplicate id) pass that check and reach ask_user, whose model-readable message the model gets.
    assert.match(received, /ask_user input is invalid; nothing was asked\. Fix 1 problem and call ask_user again:\\+n- questions\[1\]\.id: .{0,8}database.{0,8} is already used by questions\[0\]; every id must be unique/);
  });

  test('Stop in the chat while the question is shown settles it as cancelled and clears the panel and queue', async function () {
    this.timeout(120_000);
    await send('Which database? scenario:default-stop');
    panel = await workbench.panel();
    await waitForRequest(panel, 'Which database should I use?');
    await workbench.driver('command', { id: 'workbench.action.chat.cancel' });
    await panel.locator('.notice', { hasText: 'The agent cancelled' }).waitFor({ timeout: 30_000 });
    await panel.locator('.empty').waitFor();
    assert.deepEqual(await workbench.driver('list'), []);
    const history = await workbench.driver<Array<{ status: string }>>('history');
    assert.equal(history[0]!.status, 'cancelled');
  });

  test('a secret typed in the panel reaches the model only as its handle', async function () {
    this.timeout(120_000);
    const canary = `sk-agent-canary-${Date.now().toString(36)}`;
    await send('Run the staging tests. scenario:secret');
    panel = await workbench.panel();
    await waitForRequest(panel, 'Your staging API key?');
    await panel.locator('.secret-field').click();
    await workbench.page.keyboard.type(canary);
    await button(panel, 'submit').click();
    const reply = lastReply();
    await reply.filter({ hasText: 'MODEL RECEIVED' }).waitFor({ timeout: 60_000 });
    assert.match(await reply.innerText(), /api_key = stored in \$STAGING_API_KEY/);
    const received = JSON.stringify(await workbench.driver('received'));
    assert.match(received, /STAGING_API_KEY/);
    assert.equal(received.includes(canary), false, 'the model never received the value');
    await workbench.driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] });
  });
});
