import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { button, FOUR_KINDS, invoke, toolResult, waitForRequest } from './panelHelpers';
import { queueRows, ROOT, useWorkbench, type Workbench } from './workbench';

// The expected text comes from the zh-cn bundle itself, so the test checks that VS Code in
// Chinese shows the bundle's strings, not any one wording.
const zh = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const say = (message: string, ...args: Array<string | number>) => {
  const text = zh[message];
  assert.ok(text, `the zh-cn bundle has "${message}"`);
  return text.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)]));
};
const text = async (panel: Frame, selector: string) => (await panel.locator(selector).first().innerText()).trim();

suite('Localization: VS Code in Simplified Chinese (zh-cn)', () => {
  let workbench: Workbench;
  let panel: Frame;

  useWorkbench(
    (opened, openedPanel) => {
      workbench = opened;
      panel = openedPanel;
    },
    { locale: 'zh-cn' },
  );

  test('the panel, its notices and the Queue show the zh-cn translation, sent once by the host', async () => {
    assert.equal(await panel.evaluate(() => document.documentElement.lang), 'zh-cn', 'the page says its language');
    await panel.locator('.empty').waitFor();
    assert.equal(await text(panel, '.empty'), say('No agent is waiting for you.'));
    assert.equal(await panel.locator('main#app').getAttribute('aria-label'), say('Agent question'));

    const call = await invoke(workbench, FOUR_KINDS);
    await waitForRequest(panel, 'Database');
    // The host's own strings (the tool's source label) and the panel's, in one sentence.
    assert.equal(await text(panel, '.request-source'), say('{0} asks · {1}', say('Chat tool'), say('just now')));
    assert.equal(await text(panel, '.progress'), say('Question {0} of {1}', 1, 4));
    assert.equal(await text(panel, '.recommended'), say('Recommended'));
    assert.equal(await panel.locator('.note-field').getAttribute('placeholder'), say('Add a note for the agent (optional)'));
    assert.equal(await panel.locator('.chips').getAttribute('aria-label'), say('Questions'));
    assert.equal(await text(panel, '.review-chip'), say('Review'));
    assert.equal(await text(panel, '.request vscode-button[data-action="next"]'), say('Next'));
    assert.equal(await text(panel, '.request vscode-button[data-action="reject"]'), say('Reject'));
    assert.equal(await text(panel, '.image-attach'), say('Attach image'));

    // The Queue is the host's tree: its group label comes through vscode.l10n.t, and the view's name
    // (which queueRows finds it by) from package.nls.zh-cn.json, like the Question view the workbench opened.
    await queueRows(workbench.page).filter({ hasText: say('Questions') }).first().waitFor();

    // A sentence with a count and a list: the skip confirmation (the recommended database is preselected).
    await panel.locator('.review-chip').click();
    assert.equal(await text(panel, '.step-title'), say('Review your answers'));
    await button(panel, 'submit').click();
    assert.equal(await text(panel, '.confirm p'), say('{0} questions are unanswered ({1}) and will be sent as skipped.', 3, ['Extras', 'Name', 'API key'].join(say(', '))));
    assert.equal(await text(panel, '.confirm vscode-button[data-action="confirm-skip"]'), say('Submit anyway'));
    await workbench.screenshot('zh-cn-panel');
    await button(panel, 'confirm-skip').click();

    const { json } = await toolResult(workbench, call);
    assert.equal(json.status, 'answered');
    await panel.locator('.empty').waitFor();
    assert.equal(await text(panel, '.history summary'), say('History ({0})', 1));
  });
});
