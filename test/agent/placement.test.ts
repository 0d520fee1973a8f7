/// <reference lib="dom" />
import * as assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { answerByClick, invoke, toolResult, waitForRequest } from '../ui/panelHelpers';
import { queueRows, useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

// Where the question shows: in VS Code's default layout with the Chat view open, the Question view sits
// in the Chat's own container (secondary side bar), so a question from the agent and the chat
// transcript are on screen together; the chat's progress line links to the question; the Queue, its
// badge and the status bar count follow what is answered there.
suite('Placement: the question next to the chat', () => {
  const ui = useWorkbench();

  teardown(async () => {
    await ui.workbench.driver('command', { id: 'workbench.action.closeAllEditors' });
  });

  const secondary = () => ui.workbench.page.locator('.part.auxiliarybar');
  const questionHeader = (where: Locator) => where.locator('.pane-header[aria-label^="Question"]');
  /** The step of the last response whose progress line is ours. */
  const progressLine = (chat: Locator) => chat.locator('.interactive-response .progress-step', { hasText: /Asking \d+ questions? \(/ }).last();

  test('a question from the agent shows next to the chat: the transcript and the first option are on screen together, uncovered', async function () {
    const { page } = ui.workbench;
    // The first prompt also enables the built-in agent ("chat.allowAnonymousAccess"), which takes a while.
    const chat = await send(ui.workbench, 'Set up the service; ask me which database to use. scenario:database');
    await progressLine(chat).waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    await ui.panel.locator('vscode-radio[value="PostgreSQL"][aria-checked="true"]').waitFor();

    // One container in the secondary side bar holds both: the Chat view and the Question view.
    await questionHeader(secondary()).waitFor();
    assert.equal((await secondary().locator('.composite.title').innerText()).split('\n')[0], 'Chat', 'the Chat container is the one shown');
    const list = secondary().locator('.interactive-list');
    await assertUncovered(page, list, 'the chat response list');
    await assertUncovered(page, progressLine(chat), "the chat's progress line");
    await assertOptionUncovered(page, ui.panel, ui.panel.locator('vscode-radio').first());
    await ui.workbench.screenshot('placement-question-next-to-chat');

    await answerByClick(ui.panel, 'SQLite');
    assert.match(await finalReply(chat), /database = "SQLite"/);
    await ui.workbench.screenshot('placement-answered-next-to-chat');
  });

  test("the chat's progress line links to the question: clicking it focuses the question's first option", async function () {
    const { page } = ui.workbench;
    const chat = await send(ui.workbench, 'Which database? scenario:database');
    const line = progressLine(chat);
    await line.waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    // The request arrived without taking the keyboard: it is still in the chat input.
    await assertFocusInChatInput(page);

    const link = line.locator('a');
    assert.equal(await link.count(), 1, 'one link in the progress line');
    assert.equal(await link.innerText(), 'Go to the question');
    assert.equal(await link.getAttribute('data-href'), 'command:agentQuestions.focusPanel');
    await ui.workbench.screenshot('placement-progress-link');
    await link.click();
    await ui.panel.locator('vscode-radio:focus').waitFor();
    const focused = await ui.panel.evaluate(() => {
      const first = document.querySelector('.request vscode-radio');
      return { isFirst: document.activeElement === first, value: document.activeElement?.getAttribute('value') };
    });
    assert.deepEqual(focused, { isFirst: true, value: 'PostgreSQL' }, "the webview's active element is the first option");
    // Keys now reach the question: 2 picks SQLite, Enter submits.
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    assert.match(await finalReply(chat), /database = "SQLite"/);
  });

  test('a collapsed Question view opens for a new question, beside the chat and without taking the keyboard (even after Focus Question Panel was used)', async function () {
    const { page } = ui.workbench;
    // The user focused the panel earlier (nothing waiting): that request for focus is spent, not kept for the next load.
    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    const header = questionHeader(secondary());
    // The command expands the view when it gets to it: collapse it only after that, or it opens again behind the click.
    await header.and(page.locator('[aria-expanded="true"]')).waitFor();
    await header.click();
    await header.and(page.locator('[aria-expanded="false"]')).waitFor();
    const chat = await send(ui.workbench, 'Which database? scenario:database');
    await header.and(page.locator('[aria-expanded="true"]')).waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    await assertUncovered(page, progressLine(chat), "the chat's progress line");
    await assertOptionUncovered(page, ui.panel, ui.panel.locator('vscode-radio').first());
    await assertFocusInChatInput(page);
    await ui.workbench.screenshot('placement-revealed-from-collapsed');
    await answerByClick(ui.panel, 'SQLite');
    assert.match(await finalReply(chat), /database = "SQLite"/);
  });

  test('answered next to the chat: the Queue, the badge and the status bar count go 2 → 1 → none', async function () {
    await countsFollowAnswers('next-to-chat');
  });

  test('Move Question to the Primary Side Bar and back: the counts stay right there too, and the chat stays visible', async function () {
    const { page } = ui.workbench;
    await ui.workbench.runCommand('Agent Questions: Move Question to the Primary Side Bar');
    await questionHeader(page.locator('.part.sidebar')).waitFor();
    assert.equal(await questionHeader(secondary()).count(), 0, 'no longer beside the chat');
    try {
      await countsFollowAnswers('primary-side-bar');
      await assertUncovered(page, secondary().locator('.interactive-list'), 'the chat response list');
    } finally {
      await ui.workbench.runCommand('Agent Questions: Move Question Next to Chat');
    }
    await questionHeader(secondary()).waitFor();
    ui.panel = await ui.workbench.panel();
    await ui.panel.locator('.empty').waitFor();
  });

  /** Two requests wait (one from the agent in the chat, one through invokeTool); each is answered in the panel. */
  async function countsFollowAnswers(label: string): Promise<void> {
    const { page, driver } = ui.workbench;
    const badge = page.locator('.activitybar li.action-item:has(a[aria-label^="Agent Questions"]) .badge-content');
    const statusBar = page.locator('.statusbar-item').filter({ has: page.locator('.codicon-question') });
    const rows = queueRows(page);
    const chat = await send(ui.workbench, 'Which database? scenario:database');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    const second = await invoke(ui.workbench, {
      questions: [{ id: 'runner', header: 'Runner', question: 'Which test runner?', options: [{ label: 'Mocha' }, { label: 'Jest' }] }],
    });
    await rows.filter({ hasText: 'Runner' }).waitFor();
    await rows.filter({ hasText: 'Database' }).waitFor();
    await expectCounts('2');
    await ui.workbench.screenshot(`placement-${label}-two-waiting`);

    // The panel keeps the older request; answer it.
    await answerByClick(ui.panel, 'SQLite');
    await rows.filter({ hasText: 'Database' }).waitFor({ state: 'detached' });
    await rows.filter({ hasText: 'Runner' }).waitFor();
    await expectCounts('1');
    assert.match(await finalReply(chat), /database = "SQLite"/);

    await waitForRequest(ui.panel, 'Which test runner?');
    await answerByClick(ui.panel, 'Jest');
    assert.equal((await toolResult(ui.workbench, second)).json.answers.runner.selected[0], 'Jest');
    await rows.first().waitFor({ state: 'detached' });
    await badge.waitFor({ state: 'hidden' });
    await statusBar.waitFor({ state: 'hidden' });
    assert.deepEqual(await driver('list'), []);
    await ui.workbench.screenshot(`placement-${label}-none-waiting`);

    async function expectCounts(count: string): Promise<void> {
      await badge.filter({ hasText: new RegExp(`^${count}$`) }).waitFor();
      await statusBar.filter({ hasText: new RegExp(`^\\s*${count}\\s*$`) }).waitFor();
      const questions = await rows.filter({ hasText: /Database|Runner/ }).count();
      assert.equal(String(questions), count, `the Queue lists ${count}`);
    }
  }
});

/** The keyboard is still where the user typed the prompt. */
async function assertFocusInChatInput(page: Page): Promise<void> {
  const where = await page.evaluate(() => {
    const active = document.activeElement;
    return active?.closest('.interactive-input-part') ? 'chat input' : `${active?.tagName}.${active?.className} in ${active?.closest('[id]')?.id}`;
  });
  assert.equal(where, 'chat input', 'focus stays in the chat input');
}

/** The element's centre is inside the viewport and the element there is this one (or inside it). */
async function assertUncovered(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  assert.ok(box, `${what} is rendered`);
  const viewport = page.viewportSize()!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  assert.ok(x > 0 && y > 0 && x < viewport.width && y < viewport.height, `${what} is inside the viewport (centre ${x}, ${y})`);
  const hit = await target.evaluate((element, [px, py]) => element.contains(document.elementFromPoint(px!, py!)), [x, y]);
  assert.equal(hit, true, `${what} is not covered at its centre (${x}, ${y})`);
}

/**
 * An option inside the webview: on the page, its centre hits the webview's iframe; inside the webview,
 * the same point hits the option.
 */
async function assertOptionUncovered(page: Page, panel: Frame, option: Locator): Promise<void> {
  const box = await option.boundingBox();
  assert.ok(box, 'the first option is rendered');
  const viewport = page.viewportSize()!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  assert.ok(x > 0 && y > 0 && x < viewport.width && y < viewport.height, `the first option is inside the viewport (centre ${x}, ${y})`);
  // A webview is an iframe (ours, holding main#app) inside VS Code's iframe on the page.
  const outer = await (await panel.parentFrame()!.frameElement()).evaluate((frame, [px, py]) => frame === document.elementFromPoint(px!, py!), [x, y]);
  assert.equal(outer, true, `the webview is on top at the first option's centre (${x}, ${y})`);
  const inner = await option.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const inView = r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.top >= 0 && r.left >= 0;
    return inView && element.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
  assert.equal(inner, true, 'inside the webview, the first option is scrolled into view and on top');
}
