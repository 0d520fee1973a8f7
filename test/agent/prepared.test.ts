import * as assert from 'node:assert/strict';
import { answerByClick, waitForRequest } from '../ui/panelHelpers';
import { useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

// The question on screen when VS Code prepares the ask_user call, in VS Code's own agent mode
// (scripted model). Made "not eligible for auto-approval", the call waits for VS Code's Allow / Skip
// between prepareInvocation and invoke: the panel shows the question held (inert), the queue holds
// nothing, and only the invocation queues the one request the user answers.
suite('The question shown at prepareInvocation, held until invoke (VS Code agent mode, scripted model)', () => {
  const ui = useWorkbench();

  const ELIGIBLE = { section: 'chat.tools', key: 'eligibleForAutoApproval' };
  setup(async () => {
    await ui.workbench.driver('config', { ...ELIGIBLE, value: { 'openoxide.agent-questions/askUser': false } });
  });
  teardown(async () => {
    await ui.workbench.driver('config', { ...ELIGIBLE, value: null });
  });

  const pending = () => ui.workbench.driver<Array<{ id: string }>>('list');
  const history = () => ui.workbench.driver<Array<{ requestId: string; status: string }>>('history');
  /** The question on screen, held: seen, but no click, key or focus reaches it. */
  const held = () => ui.panel.locator('.request[inert]', { hasText: 'Which database should I use?' });
  /** VS Code's own confirmation of the tool call, above the chat's input. */
  const confirmation = (name: RegExp) => ui.workbench.page.locator('.chat-confirmation-widget-buttons a.monaco-text-button:visible', { hasText: name }).first();

  test('a prepared call the user skips: shown held, never queued, withdrawn, and the model is told it was skipped', async function () {
    const before = (await history()).length;
    const chat = await send(ui.workbench, 'Which database? scenario:database');
    // Shown as VS Code prepares the call, before it asks to allow it. The first prompt also enables the built-in agent, which takes a while.
    await held().waitFor();
    await confirmation(/^Skip/).waitFor();
    assert.deepEqual(await pending(), [], 'a prepared call is not in the queue');
    await ui.workbench.screenshot('agent-prepared-held');

    await confirmation(/^Skip/).click();
    assert.match(await finalReply(chat), /MODEL RECEIVED: The user chose to skip the tool call/);
    // Withdrawn when its invocation does not come (within PREPARED_HOLD_MS).
    await ui.panel.locator('.empty').waitFor();
    assert.equal(await ui.panel.locator('.request').count(), 0);
    assert.deepEqual(await pending(), []);
    assert.equal((await history()).length, before, 'nothing was asked, so nothing was recorded');
  });

  test('a prepared call the user allows: the held question becomes the one request, answered normally', async function () {
    const before = (await history()).length;
    const chat = await send(ui.workbench, 'Which database? scenario:database');
    await held().waitFor();
    await confirmation(/^Allow/).waitFor();
    assert.deepEqual(await pending(), []);

    await confirmation(/^Allow/).click();
    // The same view is taken over: answerable under the queued request's id.
    await waitForRequest(ui.panel, 'Which database should I use?');
    const queued = await pending();
    assert.equal(queued.length, 1, 'exactly one request');
    assert.equal(await ui.panel.locator('.request').getAttribute('data-request-id'), queued[0]!.id);
    await answerByClick(ui.panel, 'SQLite');
    assert.match(await finalReply(chat), /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./);
    await ui.panel.locator('.empty').waitFor();
    assert.deepEqual(await pending(), []);
    const recorded = await history();
    assert.equal(recorded.length, before + 1);
    assert.deepEqual({ id: recorded[0]!.requestId, status: recorded[0]!.status }, { id: queued[0]!.id, status: 'answered' });
  });
});
