// Issue 42: VS Code's own agent under our remembered rules, with agentQuestions.vscodeAgent.hooks on
// (scripted model). What an «Always allow» rule (or, honoured, VS Code's terminal auto-approve)
// covers runs with no prompt anywhere; a protected file is asked in our Queue; and a call no one
// answers within agentQuestions.vscodeAgent.waitSeconds is handed back to VS Code's own
// confirmation, with nothing run and nothing left in our Queue.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { until } from '../harness/deadline';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

interface Pending {
  id: string;
  kind?: string;
}

interface Settled {
  requestId: string;
  kind: string;
  status: string;
  decision?: string;
  decidedBy?: { by: string; at?: string; rules?: Array<{ text: string }> };
}

suite("VS Code's agent under our rules: allowed without a prompt, protected files asked, unanswered calls handed back", () => {
  const ui = useWorkbench();
  // The folder the workbench opened (test/harness/fixtureWorkspace.mjs).
  const folder = () => join(ui.workbench.stateDir, 'workspace');
  const pending = () => ui.workbench.driver<Pending[]>('list');
  const history = () => ui.workbench.driver<Settled[]>('history');
  /** Entries settled since `count` entries were recorded (history is newest first). */
  const since = async (count: number) => {
    const all = await history();
    return all.slice(0, all.length - count);
  };
  /** VS Code's own confirmation buttons on screen (an earlier chat's stay in the page, hidden). */
  const vscodeConfirmation = (chat: Locator) => chat.locator('.chat-confirmation-widget-buttons a.monaco-text-button:visible');

  suiteSetup(async () => {
    // The hook finds the endpoint through its discovery file, written while the endpoint is on.
    await enableEndpoint(ui.workbench);
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.hooks', value: true });
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  teardown(async () => {
    // A failed test's chat would go on to its next step, into the next test's Queue.
    await ui.workbench.driver('command', { id: 'workbench.action.chat.cancel' });
    for (const request of await pending()) await ui.workbench.driver('reject', { requestId: request.id });
  });

  /** Waits until the agent's call is the one request in our Queue, a permission, shown in the panel with `text`. */
  async function heldInQueue(text: string): Promise<void> {
    const queue = await until('the tool call to join our Queue', async () => {
      const waiting = await pending();
      return waiting.length > 0 ? waiting : undefined;
    });
    assert.equal(queue.length, 1);
    assert.equal(queue[0]!.kind, 'permission');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, text);
  }

  /** Chooses `rule` on the card on screen and answers Always allow. */
  async function alwaysAllow(rule: string): Promise<void> {
    await ui.panel.locator('.rule-choice vscode-radio', { hasText: rule }).first().click();
    await button(ui.panel, 'allow_always').click();
  }

  // Not «git status …»: git status runs the repository's core.fsmonitor, so its rule covers a call
  // only inside an agent's sandbox, and VS Code's agent runs its terminal in none (runnerConfinement.ts).
  test('a command «wc …» allows runs with no prompt anywhere, and the model receives its output', async () => {
    const before = (await history()).length;
    // The scripted model runs `wc -l app.js`, then `wc -c README.md`.
    const chat = await send(ui.workbench, 'Count the lines and bytes. scenario:rules-wc');
    // The first, before any rule: held in our Queue, where the user grants «wc …».
    await heldInQueue('wc -l app.js');
    await alwaysAllow('wc …');
    // The second runs under that rule: its output (the byte count, which its command line does not hold) reaches the model.
    const bytes = statSync(join(folder(), 'README.md')).size;
    assert.match(await finalReply(chat), new RegExp(`MODEL RECEIVED:[\\s\\S]*\\b${bytes} README\\.md`), "wc -c's output");
    assert.equal(await vscodeConfirmation(chat).count(), 0, 'no VS Code confirmation in the chat');
    assert.deepEqual(await pending(), [], 'nothing waits in our Queue');
    const settled = await since(before);
    assert.equal(settled.length, 2, 'the first asked, the second decided by the rule');
    assert.deepEqual(settled[0]!.decidedBy, { by: 'rule', rules: [{ text: 'wc …', origin: 'remembered', scope: 'workspace' }] });
    assert.deepEqual(settled[1]!.decidedBy, { by: 'user', where: 'panel' });
  });

  test("one policy: with honorTerminalAutoApprove on, a command VS Code's terminal auto-approve allows runs with no prompt, decided by that setting; Check a Command says the same, and asks once it is off", async () => {
    const check = (line: string) =>
      ui.workbench.driver<{ value: { decision: string; rules: Array<{ label: string; source: string }> } }>('command', { id: 'agentQuestions.checkCommand', args: [line] });
    await ui.workbench.driver('config', { section: 'chat.tools.terminal', key: 'autoApprove', value: { head: true } });
    try {
      assert.equal((await check('head -n 1 README.md')).value.decision, 'ask', 'not honoured until the user says so');
      await ui.workbench.driver('config', { section: 'agentQuestions', key: 'permissions.honorTerminalAutoApprove', value: true });
      const checked = (await check('head -n 1 README.md')).value;
      assert.equal(checked.decision, 'allow');
      assert.match(checked.rules[0]!.source, /chat\.tools\.terminal\.autoApprove/);
      const before = (await history()).length;
      const chat = await send(ui.workbench, "Read the README's title. scenario:terminal-auto-approve");
      assert.match(await finalReply(chat), /MODEL RECEIVED:[\s\S]*# Sample workspace/, "head's output");
      assert.equal(await vscodeConfirmation(chat).count(), 0, 'no VS Code confirmation in the chat');
      assert.deepEqual(await pending(), [], 'nothing waits in our Queue');
      const settled = await since(before);
      assert.equal(settled.length, 1);
      assert.deepEqual(settled[0]!.decidedBy, { by: 'rule', rules: [{ text: 'head', origin: 'terminalSettings' }] });
    } finally {
      await ui.workbench.driver('config', { section: 'agentQuestions', key: 'permissions.honorTerminalAutoApprove', value: null });
      await ui.workbench.driver('config', { section: 'chat.tools.terminal', key: 'autoApprove', value: null });
    }
  });

  test('a create_file into .vscode/ is asked in our Queue, with no rule offered; Deny writes nothing', async () => {
    const settings = join(folder(), '.vscode', 'settings.json');
    const chat = await send(ui.workbench, 'Set the tab size. scenario:edit-protected');
    await heldInQueue('.vscode/settings.json');
    assert.equal(await ui.panel.locator('.rule-choice vscode-radio').count(), 0, 'no rule for a protected file');
    assert.equal(await vscodeConfirmation(chat).count(), 0, 'no VS Code confirmation in the chat');
    await button(ui.panel, 'deny').click();
    assert.match(await finalReply(chat), /MODEL RECEIVED: Tool execution denied/);
    assert.equal(existsSync(settings), false, 'the denied file was not written');
  });

  test('a create_file into src/ runs with no prompt once «Write in the workspace» is remembered', async () => {
    const before = (await history()).length;
    // The scripted model creates src/first.ts, then src/second.ts.
    const chat = await send(ui.workbench, 'Add two modules. scenario:edit-workspace');
    await heldInQueue('src/first.ts');
    await alwaysAllow('Write in the workspace');
    await finalReply(chat);
    // VS Code writes the file from its editor buffer, a moment after the tool call returns.
    const second = join(folder(), 'src', 'second.ts');
    await until('src/second.ts to be written', () => existsSync(second) && readFileSync(second, 'utf8') === 'export const second = 2;\n');
    assert.equal(await vscodeConfirmation(chat).count(), 0, 'no VS Code confirmation in the chat');
    assert.deepEqual(await pending(), []);
    const settled = await since(before);
    assert.equal(settled.length, 2);
    assert.deepEqual(settled[0]!.decidedBy, { by: 'rule', rules: [{ text: 'Write in the workspace', origin: 'remembered', scope: 'workspace' }] });
  });

  test('prevents an unanswered terminal command from waiting unseen: after waitSeconds VS Code shows its own confirmation, nothing ran, and our Queue is empty', async () => {
    const marker = join(folder(), 'handback-marker');
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.waitSeconds', value: 20 });
    try {
      const before = (await history()).length;
      const chat = await send(ui.workbench, 'Make the hand-back marker. scenario:terminal-handback');
      await heldInQueue('touch handback-marker');
      // No one answers: the hook hands the call back to VS Code, whose own card asks.
      const skip = vscodeConfirmation(chat).filter({ hasText: /^Skip/ }).first();
      await skip.waitFor();
      assert.equal(existsSync(marker), false, 'nothing ran');
      const settled = await until('the request to leave our Queue with its outcome', async () => {
        const entries = await since(before);
        return entries.length > 0 && (await pending()).length === 0 ? entries : undefined;
      });
      assert.equal(settled.length, 1);
      assert.deepEqual(settled[0]!.decidedBy, { by: 'asker', at: 'hookDeadline' });
      await skip.click();
      await finalReply(chat);
      assert.equal(existsSync(marker), false, 'skipped in VS Code: still nothing ran');
    } finally {
      await ui.workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.waitSeconds', value: null });
    }
  });
});
