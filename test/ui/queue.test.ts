import * as assert from 'node:assert/strict';
import { until } from '../harness/deadline';
import { answerByClick, invoke, toolResult, waitForRequest } from './panelHelpers';
import { hideQuestionPanel, queueRows, useWorkbench } from './workbench';

/** Not a deadline: how long a press of End is given to show the last row before it is pressed again (the wait lasts until the test's deadline). */
const END_AGAIN_AFTER_MS = 1000;

const yesNo = (id: string, header: string) => ({ questions: [{ id, header, question: `${header} question?`, options: [{ label: 'Yes' }, { label: 'No' }] }] });

suite('Queue and attention in the real workbench', () => {
  const ui = useWorkbench();

  test('the tree lists the permission first; answering the second question from the tree leaves the first pending', async () => {
    const { page, driver } = ui.workbench;
    const first = await invoke(ui.workbench, yesNo('first', 'First'));
    await waitForRequest(ui.panel, 'First question?');
    const second = await invoke(ui.workbench, yesNo('second', 'Second'));
    const permission = await driver<{ callId: number }>('permission', { request: { extensionId: 'tests.queue', title: 'Allow the build?', detail: '`npm run build`' } });

    const rows = page
      .locator('[id="workbench.view.extension.agentQuestions"] .monaco-list-row, .pane-body .monaco-list-row')
      .filter({ hasText: /Permissions|Questions|Allow the build\?|First|Second/ });
    await page.locator('.monaco-list-row', { hasText: 'Allow the build?' }).waitFor();
    // The tree may render the rows in more than one refresh: wait for the last one before reading.
    await page.locator('.monaco-list-row', { hasText: 'Second' }).waitFor();
    const labels = (await rows.locator('.label-name').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(labels.slice(0, 5), ['Permissions', 'Allow the build?', 'Questions', 'First', 'Second']);
    const badge = page.getByRole('tab', { name: /^Agent Questions/ }).locator('.badge-content');
    assert.equal((await badge.innerText()).trim(), '3', 'the badge counts what waits');
    await page
      .locator('.statusbar-item', { hasText: '3' })
      .filter({ has: page.locator('.codicon-question') })
      .first()
      .waitFor();
    await ui.workbench.screenshot('queue-three-waiting');

    await page.locator('.monaco-list-row', { hasText: 'Second' }).first().click();
    await waitForRequest(ui.panel, 'Second question?');
    await answerByClick(ui.panel, 'Yes');
    assert.equal((await toolResult(ui.workbench, second)).json.answers.second.selected[0], 'Yes');

    const pending = await driver<Array<{ kind: string; questions?: Array<{ id: string }> }>>('list');
    assert.deepEqual(
      pending.map((r) => r.questions?.[0]?.id ?? r.kind),
      ['permission', 'first'],
      'the first question is still pending',
    );
    await waitForRequest(ui.panel, 'Allow the build?'); // back to the head of the queue

    // Reject All, from the Queue's title bar, asks first.
    await queueRows(page).first().hover();
    await page.locator('.action-label[aria-label="Reject All Pending"]:visible').click();
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Reject All' }).click();
    assert.equal((await toolResult(ui.workbench, first)).json.status, 'rejected');
    assert.equal((await driver<{ value: { status: string } }>('await', { callId: permission.callId })).value.status, 'rejected');
    await page.locator('.statusbar-item .codicon-question').waitFor({ state: 'detached' });
  });

  test('over 50 waiting questions, the last row "… and N more" counts the rest and opens a quick pick of all of them; choosing one shows it', async () => {
    const { page, driver } = ui.workbench;
    const calls: Array<{ callId: number }> = [];
    const ask = async (i: number) =>
      calls.push(await driver('ask', { request: { extensionId: 'tests.many', questions: [{ id: `many_${i}`, header: `Many ${i}`, question: `Many ${i} question?` }] } }));
    try {
      for (let i = 0; i < 52; i++) await ask(i);
      const more = page.locator('.monaco-list-row', { hasText: '… and 2 more' });
      // End moves to the tree's last row and scrolls to it, without running its command; the tree may still be adding rows.
      await until('the "… and 2 more" row to show', async () => {
        if (await more.isVisible()) return true;
        await driver('command', { id: 'agentQuestions.queue.focus' });
        await page.keyboard.press('End');
        return more.waitFor({ timeout: END_AGAIN_AFTER_MS }).then(
          () => true,
          () => false,
        );
      });
      // A request joining the end, and leaving it, refreshes only this row: its count follows.
      await ask(52);
      await page.locator('.monaco-list-row', { hasText: '… and 3 more' }).waitFor();
      const last = (await driver<Array<{ id: string; questions?: Array<{ id: string }> }>>('list')).find((r) => r.questions?.[0]?.id === 'many_52')!;
      await driver('reject', { requestId: last.id });
      await more.click();
      const picker = page.locator('.quick-input-widget');
      await picker.locator('.quick-input-list .monaco-list-row', { hasText: 'Many 0' }).first().waitFor();
      await ui.workbench.screenshot('queue-more');
      // Neither of the last two has a row in the tree.
      await picker.locator('input').fill('Many 51');
      await picker.locator('.quick-input-list .monaco-list-row', { hasText: 'Many 51' }).first().click();
      await waitForRequest(ui.panel, 'Many 51 question?');
    } finally {
      await driver('command', { id: 'agentQuestions.rejectAll', args: [{ skipConfirmation: true }] });
    }
    for (const call of calls) assert.equal((await driver<{ value: { status: string } }>('await', call)).value.status, 'rejected');
  });

  test('Reject from the tree asks for a reason and hands it to the agent', async () => {
    const { page } = ui.workbench;
    const call = await invoke(ui.workbench, yesNo('reason', 'Reason'));
    const row = page.locator('.monaco-list-row', { hasText: 'Reason' }).first();
    await row.hover();
    await row.locator('.action-label[aria-label="Reject…"]').click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill('Use the existing schema');
    await input.press('Enter');
    const { json, line } = await toolResult(ui.workbench, call);
    assert.equal(json.status, 'rejected');
    assert.match(line, /Reason: Use the existing schema\./);
  });

  test('with the panel hidden, a new request raises a notification whose Answer opens the panel on it', async () => {
    const { page, driver } = ui.workbench;
    await driver('config', { section: 'agentQuestions', key: 'revealOnAsk', value: false });
    try {
      await hideQuestionPanel(page);
      await page.mouse.move(640, 600);
      const call = await invoke(ui.workbench, yesNo('notified', 'Notified'));
      await ui.workbench.runCommand('Notifications: Show Notifications');
      const item = page.locator('.notifications-center .notification-list-item', { hasText: 'asks: Notified' });
      await item.waitFor();
      await ui.workbench.screenshot('queue-notification');
      await item.locator('.monaco-button', { hasText: 'Answer' }).click();
      ui.panel = await ui.workbench.panel();
      await waitForRequest(ui.panel, 'Notified question?');
      await answerByClick(ui.panel, 'No');
      assert.equal((await toolResult(ui.workbench, call)).json.answers.notified.selected[0], 'No');
    } finally {
      await driver('config', { section: 'agentQuestions', key: 'revealOnAsk', value: null });
    }
  });
});
