// Issue 42: VS Code's own agent asks to run a terminal command (run_in_terminal, from the scripted
// model) while the user is away from the desk: with agentQuestions.vscodeAgent.hooks on, our hook
// holds the call in our Queue, a nudge reaches a webhook (a receiver in this test), and the
// phone-sized answer page opened from the nudge's link allows it once. The command runs and the
// model receives its output.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhookReceiver';
import { assertPhoneLayout, openPhone, type Phone } from '../ui/phone';
import { enableEndpoint, hideQuestionPanel, useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';
import { turnOnPhoneAnswers } from './phoneSetup';

suite("VS Code's agent: a held terminal command answered on the phone", () => {
  const ui = useWorkbench();
  let receiver: WebhookReceiver;
  let phone: Phone | undefined;
  // The folder the workbench opened (test/harness/fixtureWorkspace.mjs).
  const folder = () => join(ui.workbench.stateDir, 'workspace');

  suiteSetup(async () => {
    receiver = await startWebhookReceiver();
    const { workbench } = ui;
    await turnOnPhoneAnswers(workbench, `${receiver.origin}/hooks/agent-questions`);
    // The hook finds the endpoint through its discovery file, written while the endpoint is on.
    await enableEndpoint(workbench);
    await workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.hooks', value: true });
    // Away from the desk: the Question view is hidden, so the request waits unseen.
    await hideQuestionPanel(workbench.page);
  });

  teardown(async () => {
    await phone?.context.close();
    phone = undefined;
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await receiver?.close();
  });

  test("the nudge's link opens the page; Allow once there runs the command, and the model receives its output", async () => {
    const marker = join(folder(), 'held-marker');
    const chat = await send(ui.workbench, 'Make the marker. scenario:terminal-allow', 'editor');
    await until('an approval nudge to reach the webhook', () => receiver.received.length > 0, { everyMs: 50 });
    const nudge = receiver.received[0]!.body;
    assert.equal(nudge['kind'], 'approval');
    assert.doesNotMatch(JSON.stringify(nudge), /touch /, 'the nudge carries no command');
    const pending = await ui.workbench.driver<Array<{ kind?: string }>>('list');
    assert.equal(pending[0]?.kind, 'permission', 'held in our Queue as a permission request');
    assert.equal(existsSync(marker), false, 'nothing runs while the request waits');
    assert.equal(await chat.locator('.chat-confirmation-widget-buttons').count(), 0, 'no VS Code confirmation in the chat');

    phone = await openPhone(ui.workbench.page.context().browser()!);
    await phone.page.goto(String(nudge['answerUrl']));
    await phone.page
      .getByText(/touch held-marker && printf/)
      .first()
      .waitFor();
    assert.equal(await phone.page.getByRole('button', { name: /Always/ }).count(), 0, 'the page allows once, never always');
    await assertPhoneLayout(phone.page);
    await phone.page.getByRole('button', { name: 'Allow once' }).tap();
    await phone.page.getByRole('heading', { name: 'Answered' }).waitFor();

    const reply = await finalReply(chat);
    assert.match(reply, /MODEL RECEIVED: made held-marker/, "the command's output, which its text does not hold");
    assert.equal(existsSync(marker), true, 'the command the phone allowed ran');
    const history = await ui.workbench.driver<Array<{ decidedBy?: unknown }>>('history');
    assert.deepEqual(history[0]?.decidedBy, { by: 'user', where: 'page' });
    assert.deepEqual(phone.errors, []);
  });
});
