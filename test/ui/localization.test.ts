import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { button, FOUR_KINDS, invoke, toolResult, waitForRequest } from './panelHelpers';
import { queueRows, ROOT, useWorkbench } from './workbench';

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
  const ui = useWorkbench({ locale: 'zh-cn' });

  test('the panel, its notices and the Queue show the zh-cn translation, sent once by the host', async () => {
    assert.equal(await ui.panel.evaluate(() => document.documentElement.lang), 'zh-cn', 'the page says its language');
    await ui.panel.locator('.empty').waitFor();
    assert.equal(await text(ui.panel, '.empty'), say('No agent is waiting for you.'));
    assert.equal(await ui.panel.locator('main#app').getAttribute('aria-label'), say('Agent question'));

    const call = await invoke(ui.workbench, FOUR_KINDS);
    await waitForRequest(ui.panel, 'Database');
    // The host's own strings (the tool's source label) and the panel's, in one sentence.
    assert.equal(await text(ui.panel, '.request-source'), say('{0} asks · {1}', say('Chat tool'), say('just now')));
    assert.equal(await text(ui.panel, '.progress'), say('Question {0} of {1}', 1, 4));
    assert.equal(await text(ui.panel, '.recommended'), say('Recommended'));
    assert.equal(await ui.panel.locator('.note-field').getAttribute('placeholder'), say('Add a note for the agent (optional)'));
    assert.equal(await ui.panel.locator('.chips').getAttribute('aria-label'), say('Questions'));
    assert.equal(await text(ui.panel, '.review-chip'), say('Review'));
    assert.equal(await text(ui.panel, '.request vscode-button[data-action="next"]'), say('Next'));
    assert.equal(await text(ui.panel, '.request vscode-button[data-action="reject"]'), say('Reject'));
    assert.equal(await text(ui.panel, '.image-attach'), say('Attach image'));

    // The Queue is the host's tree: its group label comes through vscode.l10n.t, and the view's name
    // (which queueRows finds it by) from package.nls.zh-cn.json, like the Question view the workbench opened.
    await queueRows(ui.workbench.page)
      .filter({ hasText: say('Questions') })
      .first()
      .waitFor();

    // A sentence with a count and a list: the skip confirmation (the recommended database is preselected).
    await ui.panel.locator('.review-chip').click();
    assert.equal(await text(ui.panel, '.step-title'), say('Review your answers'));
    await button(ui.panel, 'submit').click();
    assert.equal(await text(ui.panel, '.confirm p'), say('{0} questions are unanswered ({1}) and will be sent as skipped.', 3, ['Extras', 'Name', 'API key'].join(say(', '))));
    assert.equal(await text(ui.panel, '.confirm vscode-button[data-action="confirm-skip"]'), say('Submit anyway'));
    await ui.workbench.screenshot('zh-cn-panel');
    await button(ui.panel, 'confirm-skip').click();

    const { json } = await toolResult(ui.workbench, call);
    assert.equal(json.status, 'answered');
    await ui.panel.locator('.empty').waitFor();
    assert.equal(await text(ui.panel, '.history summary'), say('History ({0})', 1));
  });
});
