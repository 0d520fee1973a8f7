// Issue 41: after the page restarted (a linkMinutes change, turned off and on) it listened on a new
// port, so an old link reached nothing (code-server's raw "500 ECONNREFUSED") or whatever bound the
// freed port next. The page now comes back on the port the window kept.
import * as assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import * as vscode from 'vscode';
import type { AgentQuestionsApi } from '../../src/extension/api';
import { until } from '../harness/deadline';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhookReceiver';
import { getApi, nextAdded } from './helpers';

/** A GET in a new connection, as a phone opening the link makes; rejects while nothing listens. */
function get(url: URL): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { Connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

const config = () => vscode.workspace.getConfiguration('agentQuestions');
type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;
const window = vscode.window as unknown as { showWarningMessage: ShowMessage };

/** Runs `action` with showWarningMessage answering as `answer` does (a modal's button, or nothing). */
async function withWarnings<T>(answer: (rest: unknown[]) => unknown, action: () => Thenable<T>): Promise<T> {
  const original = window.showWarningMessage;
  window.showWarningMessage = async (_message: string, ...rest: unknown[]) => answer(rest);
  try {
    return await action();
  } finally {
    window.showWarningMessage = original;
  }
}

suite('The answer page after a restart', () => {
  let receiver: WebhookReceiver;
  let api: AgentQuestionsApi;

  suiteSetup(async () => {
    api = await getApi();
    receiver = await startWebhookReceiver();
    await config().update('nudge.afterSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('nudge.maxPerHour', 60, vscode.ConfigurationTarget.Global);
    await config().update('revealOnAsk', false, vscode.ConfigurationTarget.Global);
    const set = await withWarnings(
      (rest) => rest[1],
      () => vscode.commands.executeCommand<boolean>('agentQuestions.setNudgeChannel', { kind: 'webhook', url: `${receiver.origin}/hooks/restart` }),
    );
    assert.equal(set, true);
    // A request counts as seen while the panel shows: it must not, for the nudge to go.
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentQuestions.clearNudgeChannel');
    for (const key of ['nudge.afterSeconds', 'nudge.maxPerHour', 'revealOnAsk', 'answerPage.enabled', 'answerPage.linkMinutes'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    for (const request of api.list()) api.reject(request.id);
    await receiver.close();
  });

  test('prevents an old link from reaching nothing after the page restarts: after a linkMinutes change, and off and on, it opens the page\'s own "No longer waiting"', async () => {
    await withWarnings(
      () => undefined,
      () => vscode.commands.executeCommand<string>('agentQuestions.turnOnAnswerPage'),
    );
    const before = receiver.received.length;
    const added = nextAdded(api);
    void api.ask({ extensionId: 'test.answerPageRestart', questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'A' }, { label: 'B' }] }] });
    const request = await added;
    const nudge = await until('the nudge with a link', () => receiver.received.slice(before).find((post) => post.body.answerUrl));
    const oldLink = new URL(String(nudge.body.answerUrl));
    assert.equal((await get(oldLink)).status, 200);

    const noLongerWaiting = async (what: string) => {
      const reply = await until(what, async () => {
        const reply = await get(oldLink);
        return reply.status === 404 ? reply : undefined;
      });
      assert.match(reply.body, /No longer waiting/);
    };
    await config().update('answerPage.linkMinutes', 45, vscode.ConfigurationTarget.Global);
    await noLongerWaiting('the old link, after a linkMinutes change, reaching the restarted page');
    await config().update('answerPage.enabled', false, vscode.ConfigurationTarget.Global);
    // Off, the link reaches nothing: refused, or the proxy's own error under code-server.
    await until('the page off', async () =>
      get(oldLink).then(
        (reply) => reply.status >= 500,
        () => true,
      ),
    );
    await config().update('answerPage.enabled', true, vscode.ConfigurationTarget.Global);
    await noLongerWaiting('the old link, after the page was turned off and on, reaching it again');
    assert.ok(
      api.list().some((r) => r.id === request.id),
      'the request still waits',
    );
    api.reject(request.id);
  });
});
