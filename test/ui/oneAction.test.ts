import * as assert from 'node:assert/strict';
import { until } from '../harness/deadline';
import { startEmpty } from './auditHelpers';
import { button, invoke, toolResult, waitForRequest } from './panelHelpers';
import { useWorkbench } from './workbench';

const DATABASE = {
  questions: [
    { id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL', recommended: true }, { label: 'SQLite' }, { label: 'MongoDB' }] },
  ],
};
const yesNo = (id: string, header: string) => ({ questions: [{ id, header, question: `${header} question?`, options: [{ label: 'Yes', recommended: true }, { label: 'No' }] }] });
/** What the panel saw in the task in which the request appeared, and clicked then. */
interface EarlyClick {
  state?: string;
  locked?: boolean;
}
/** How long a lone single-choice request guards against a click after it shows (src/webview/questionRequestView.ts). */
const ARRIVAL_GUARD_MS = 400;
const ONE_CLICK_HINT = 'Click an option (or press Space on it) to send it as your answer.';

suite('One decision, one action: a lone single-choice question is answered by the choice itself', () => {
  const ui = useWorkbench();

  const pendingCount = async () => (await ui.workbench.driver<unknown[]>('list')).length;
  const ready = () => ui.panel.locator('.request[data-one-action="ready"]').waitFor();
  /** Before asserting that a click or key did not answer: a round trip through the panel, which a reply it sent would have reached the host before. */
  const panelRoundTrip = () => ui.workbench.driver('ping');

  // A request a failed test left waiting would stay on screen in front of the next test's.
  setup(() => startEmpty(ui));

  test('one click on an option answers the request, and the panel says that choosing sends', async () => {
    const call = await invoke(ui.workbench, DATABASE);
    await waitForRequest(ui.panel, 'Which database?');
    assert.equal(await ui.panel.locator('.request .one-action-hint').innerText(), ONE_CLICK_HINT);
    await ready();
    await ui.workbench.screenshot('one-action-question');
    // The click time is taken inside the webview, on the same clock as the extension host.
    await ui.panel.evaluate(() => document.addEventListener('click', () => ((window as unknown as { clickedAt: number }).clickedAt = Date.now()), { capture: true, once: true }));
    await ui.panel.locator('.request vscode-radio[value="SQLite"]').click();
    const { json, line } = await toolResult(ui.workbench, call);
    const { settledAt } = await ui.workbench.driver<{ settledAt: number }>('await', { callId: call.callId });
    const clickedAt = await ui.panel.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt);
    console.log(`      one click -> tool call returns: ${settledAt - clickedAt} ms`);
    assert.equal(json.status, 'answered');
    assert.deepEqual(json.answers, { database: { selected: ['SQLite'], skipped: false } });
    assert.equal(line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''), 'The user answered 1 question: database = "SQLite".');
    await ui.panel.locator('.empty').waitFor();
  });

  test('a click on the preselected option answers with it', async () => {
    const call = await invoke(ui.workbench, DATABASE);
    await waitForRequest(ui.panel, 'Which database?');
    await ready();
    await ui.panel.locator('.request vscode-radio[value="PostgreSQL"]').click();
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers, { database: { selected: ['PostgreSQL'], skipped: false } });
  });

  test('prevents a double-click answer: a click in the first moments of a request only chooses', async () => {
    // The arrival guard's timer is held until the click is done, as a busy machine may hold it: the
    // click surely lands while the request is still arriving, however long the test takes to get there.
    await ui.panel.evaluate((guardMs) => {
      const w = window as unknown as { earlyClick: EarlyClick };
      const seen: EarlyClick = {};
      w.earlyClick = seen;
      const realSetTimeout = window.setTimeout;
      const held: Array<() => void> = [];
      window.setTimeout = ((handler: TimerHandler, ms?: number, ...args: unknown[]) => {
        if (ms !== guardMs || typeof handler !== 'function') return realSetTimeout(handler, ms, ...args);
        held.push(() => handler(...args));
        return 0;
      }) as typeof window.setTimeout;
      const release = () => {
        window.setTimeout = realSetTimeout;
        for (const fire of held) fire();
      };
      // The click a user's second click would be: on the request as it shows (answerable, its options upgraded).
      const clickWhenShown = () => {
        const request = document.querySelector<HTMLElement>('.request:not([inert])');
        if (!request?.querySelector('vscode-radio[aria-checked="true"]')) return requestAnimationFrame(clickWhenShown);
        seen.state = request.dataset.oneAction;
        request.querySelector<HTMLElement>('vscode-radio[value="SQLite"]')!.click();
        // An answer sent locks the request's buttons at once, in this same task.
        seen.locked = [...request.querySelectorAll<HTMLElement & { disabled: boolean }>('vscode-button')].some((b) => b.disabled);
        release();
      };
      requestAnimationFrame(clickWhenShown);
    }, ARRIVAL_GUARD_MS);
    const call = await invoke(ui.workbench, DATABASE);
    await waitForRequest(ui.panel, 'Which database?');
    const during = await until('the early click', () =>
      ui.panel.evaluate(() => {
        const seen = (window as unknown as { earlyClick: EarlyClick }).earlyClick;
        return seen.state ? seen : undefined;
      }),
    );
    assert.equal(during.state, 'arriving', 'the request was still arriving when clicked');
    assert.equal(during.locked, false, 'the early click sent nothing');
    await ui.panel.locator('.request vscode-radio[value="SQLite"][aria-checked="true"]').waitFor();
    await ready();
    assert.equal(await pendingCount(), 1, 'the early click chose but did not answer');
    await ui.panel.locator('.request vscode-radio[value="SQLite"]').click();
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers, { database: { selected: ['SQLite'], skipped: false } });
  });

  test('a request with several questions: a click on an option only chooses', async () => {
    const call = await invoke(ui.workbench, { questions: [...DATABASE.questions, yesNo('tests', 'Tests').questions[0]] });
    await waitForRequest(ui.panel, 'Which database?');
    assert.equal(await ui.panel.locator('.request .one-action-hint').count(), 0, 'no one-click hint');
    assert.equal(await ui.panel.locator('.request[data-one-action]').count(), 0);
    await ui.panel.locator('.request vscode-radio[value="SQLite"]').click();
    await ui.panel.locator('.request vscode-radio[value="SQLite"][aria-checked="true"]').waitFor();
    await panelRoundTrip();
    assert.equal(await pendingCount(), 1, 'still waiting');
    assert.equal(await ui.panel.locator('.request .question-text').innerText(), 'Which database?', 'still on the first question');
    await ui.workbench.page.keyboard.press('Escape');
    await button(ui.panel, 'confirm-reject').click();
    assert.equal((await toolResult(ui.workbench, call)).json.status, 'rejected');
  });

  test('with a note typed, a click only chooses; Submit sends the choice with the note', async () => {
    const call = await invoke(ui.workbench, DATABASE);
    await waitForRequest(ui.panel, 'Which database?');
    await ready();
    await ui.panel.locator('.request .note-field').click();
    await ui.workbench.page.keyboard.type('v3 is fine');
    assert.equal(await ui.panel.locator('.request .one-action-hint').innerText(), 'With a note or images, choose an option and press Submit.');
    await ui.panel.locator('.request vscode-radio[value="SQLite"]').click();
    await ui.panel.locator('.request vscode-radio[value="SQLite"][aria-checked="true"]').waitFor();
    await panelRoundTrip();
    assert.equal(await pendingCount(), 1, 'the click did not answer');
    await ui.workbench.screenshot('one-action-with-note');
    await button(ui.panel, 'submit').click();
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers, { database: { selected: ['SQLite'], note: 'v3 is fine', skipped: false } });
  });

  test('"Other…" is chosen by a click and answered with the typed text', async () => {
    const call = await invoke(ui.workbench, DATABASE);
    await waitForRequest(ui.panel, 'Which database?');
    await ready();
    await ui.panel.locator('.request vscode-radio').last().click();
    await ui.panel.locator('.request .other-field:visible').waitFor();
    await panelRoundTrip();
    assert.equal(await pendingCount(), 1, 'choosing "Other…" did not answer');
    await ui.panel.locator('.request .other-field').click();
    await ui.workbench.page.keyboard.type('CockroachDB');
    await ui.workbench.page.keyboard.press('Enter');
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers, { database: { selected: [], other: 'CockroachDB', skipped: false } });
  });

  test('prevents a stolen answer: keys before the user came to the next request do not answer it; Space on an option after does', async () => {
    const { page } = ui.workbench;
    const first = await invoke(ui.workbench, yesNo('first', 'First'));
    await waitForRequest(ui.panel, 'First question?');
    const second = await invoke(ui.workbench, yesNo('second', 'Second'));
    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    await ui.panel.locator('.request vscode-radio:focus').waitFor();
    await page.keyboard.press('ArrowDown'); // moves to "No" (and chooses it), does not answer
    await ui.panel.locator('.request vscode-radio[value="No"][aria-checked="true"]').waitFor();
    await panelRoundTrip();
    assert.equal(await pendingCount(), 2, 'an arrow key only moves');
    await page.keyboard.press('Space');
    assert.equal((await toolResult(ui.workbench, first)).json.answers.first.selected[0], 'No');

    // The second request replaces the first under the keyboard: its keys still reach the webview.
    await waitForRequest(ui.panel, 'Second question?');
    assert.equal(await ui.panel.evaluate(() => document.hasFocus()), true, 'the webview still has the keyboard');
    await ui.panel.evaluate(() => {
      const w = window as unknown as { keysSeen: number };
      w.keysSeen = 0;
      window.addEventListener('keydown', () => w.keysSeen++, { capture: true });
    });
    await page.keyboard.press('Space');
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await until('the webview to get the three keys', () => ui.panel.evaluate(() => (window as unknown as { keysSeen: number }).keysSeen === 3));
    await panelRoundTrip();
    assert.equal(await pendingCount(), 1, 'the second request still waits');
    assert.equal(await ui.panel.locator('.request vscode-radio[value="No"][aria-checked="true"]').count(), 0, 'nothing was chosen');

    // The user comes to it: a digit only chooses, Enter sends.
    await ui.panel.locator('.request .question-text').click();
    await page.keyboard.press('2');
    await ui.panel.locator('.request vscode-radio[value="No"][aria-checked="true"]').waitFor();
    await panelRoundTrip();
    assert.equal(await pendingCount(), 1, 'a digit alone does not answer');
    await page.keyboard.press('Enter');
    assert.equal((await toolResult(ui.workbench, second)).json.answers.second.selected[0], 'No');
  });
});
