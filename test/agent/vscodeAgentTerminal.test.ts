// Issue 42: VS Code's own agent asks to run a terminal command (run_in_terminal, from the scripted
// model); with agentQuestions.vscodeAgent.hooks on, our hook holds the call in our Queue, permission
// first, and nothing runs until a person decides in our panel. Allow once: the command runs and the
// model receives its output. Deny: nothing runs and the model receives our reason.
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

interface Pending {
  id: string;
  kind?: string;
}

suite("VS Code's agent: a terminal command held in our Queue", () => {
  const ui = useWorkbench();
  // The folder the workbench opened (test/harness/fixtureWorkspace.mjs).
  const folder = () => join(ui.workbench.stateDir, 'workspace');

  suiteSetup(async () => {
    // The hook finds the endpoint through its discovery file, written while the endpoint is on.
    await enableEndpoint(ui.workbench);
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.hooks', value: true });
  });

  teardown(async () => {
    for (const pending of await ui.workbench.driver<Pending[]>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  /** Sends the prompt and waits until its run_in_terminal call is the first request in our Queue, shown in the panel. */
  async function heldInQueue(prompt: string, command: string): Promise<Awaited<ReturnType<typeof send>>> {
    const chat = await send(ui.workbench, prompt);
    const queue = await until('the terminal command to join our Queue', async () => {
      const pending = await ui.workbench.driver<Pending[]>('list');
      return pending.length > 0 ? pending : undefined;
    });
    assert.equal(queue[0]!.kind, 'permission', 'a permission request, first in the Queue');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, command);
    return chat;
  }

  test('Allow once in our panel runs the held command, and the model receives its output', async () => {
    const marker = join(folder(), 'held-marker');
    const chat = await heldInQueue('Make the marker. scenario:terminal-allow', 'touch held-marker');
    assert.equal(existsSync(marker), false, 'nothing runs while the request waits');
    assert.equal(await chat.locator('.chat-confirmation-widget-buttons').count(), 0, 'no VS Code confirmation in the chat');
    await button(ui.panel, 'allow_once').click();
    const reply = await finalReply(chat);
    assert.match(reply, /MODEL RECEIVED: made held-marker/, "the command's output, which its text does not hold");
    assert.equal(existsSync(marker), true, 'the command ran');
  });

  test('Deny in our panel: nothing runs, and the model receives our reason', async () => {
    const marker = join(folder(), 'denied-marker');
    const chat = await heldInQueue('Make the other marker. scenario:terminal-deny', 'touch denied-marker');
    await ui.panel.locator('.request.permission .deny-message').click();
    await ui.workbench.page.keyboard.type('Not this marker');
    await button(ui.panel, 'deny').click();
    const reply = await finalReply(chat);
    assert.match(reply, /MODEL RECEIVED: Tool execution denied: Not this marker/);
    assert.equal(existsSync(marker), false, 'the denied command never ran');
  });
});
