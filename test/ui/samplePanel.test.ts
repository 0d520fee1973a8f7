import * as assert from 'node:assert/strict';
import { openAgentQuestionsView, openWorkbench, queueRows, screenshotFailures, type Workbench } from './workbench';

suite('Question panel in the real workbench', () => {
  let workbench: Workbench;

  suiteSetup(async () => {
    workbench = await openWorkbench();
  });

  screenshotFailures(() => workbench);

  suiteTeardown(async () => {
    await workbench?.close();
  });

  test('answers the sample question by clicking inside the webview, and the tool returns that answer', async () => {
    const { page } = workbench;
    await openAgentQuestionsView(page);
    const panel = await workbench.panel();
    await panel.locator('.empty', { hasText: 'No agent is waiting for you.' }).waitFor();

    await workbench.runCommand('Agent Questions: Ask a Sample Question');
    const sqlite = panel.locator('vscode-radio[value="SQLite"]');
    await sqlite.waitFor();
    // The toolkit sets aria-checked as its elements upgrade, so wait for it rather than read it once.
    await panel.locator('vscode-radio[value="PostgreSQL"][aria-checked="true"]').waitFor(); // the recommended option is preselected
    await queueRows(page).filter({ hasText: 'Database' }).first().waitFor();

    await workbench.screenshot('ui-sample-question');
    // One question, one choice: the click that chooses answers it.
    await panel.locator('.request[data-one-action="ready"]').waitFor();
    await sqlite.click();

    await panel.locator('.empty', { hasText: 'No agent is waiting for you.' }).waitFor();
    // The smoke-test driver the harness needs keeps toasts hidden, so read the notification centre.
    await workbench.runCommand('Notifications: Show Notifications');
    const notification = page.locator('.notifications-center .notification-list-item', { hasText: 'Sample question returned' });
    await notification.waitFor();
    assert.match(await notification.innerText(), /The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./);
    await workbench.screenshot('ui-sample-answered');
  });
});
