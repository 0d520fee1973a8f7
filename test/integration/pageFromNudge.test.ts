import * as assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import * as vscode from 'vscode';
import type { AgentQuestionsApi } from '../../src/extension/api';
import { until } from '../harness/deadline';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhookReceiver';
import { getApi, nextAdded } from './helpers';

interface Reply {
  status: number;
  body: string;
}

/** Plain HTTP to the page: in the test host asExternalUri leaves its links on the loopback. */
function http(url: URL, method: string, body?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'Content-Type': 'application/x-www-form-urlencoded' };
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const config = () => vscode.workspace.getConfiguration('agentQuestions');
const setChannel = (kind: string, url: string) => vscode.commands.executeCommand<boolean>('agentQuestions.setNudgeChannel', { kind, url });
type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;

suite('The answer page through a nudge (a local webhook receiver)', () => {
  let receiver: WebhookReceiver;
  // One receiver stands in for both channels: a webhook's JSON, and ntfy at the path ending -ntfy.
  const received = () => receiver.received.filter((post) => !post.path.endsWith('-ntfy')).map((post) => post.body);
  const ntfy = () => receiver.received.filter((post) => post.path.endsWith('-ntfy'));
  let url = '';
  let api: AgentQuestionsApi;

  suiteSetup(async () => {
    api = await getApi();
    receiver = await startWebhookReceiver();
    url = `${receiver.origin}/hooks/answer-page`;
    await config().update('nudge.afterSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('revealOnAsk', false, vscode.ConfigurationTarget.Global);
    // The hourly limit counts every nudge this window sent (nudges.test.ts fills it on purpose).
    await config().update('nudge.maxPerHour', 60, vscode.ConfigurationTarget.Global);
    // A URL passed to the command asks for a modal, answered here by standing in for showWarningMessage.
    const window = vscode.window as unknown as { showWarningMessage: ShowMessage };
    const original = window.showWarningMessage;
    window.showWarningMessage = async (_message: string, ...rest: unknown[]) => rest[1];
    try {
      assert.equal(await setChannel('webhook', url), true);
    } finally {
      window.showWarningMessage = original;
    }
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentQuestions.clearNudgeChannel');
    for (const key of ['nudge.afterSeconds', 'nudge.maxPerHour', 'revealOnAsk', 'answerPage.enabled']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    for (const request of api.list()) api.reject(request.id);
    await receiver.close();
  });

  test('with the page off, a nudge carries no answerUrl', async () => {
    const before = received().length;
    const added = nextAdded(api);
    void api.ask({ extensionId: 'test.answerPage', questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'A' }, { label: 'B' }] }] });
    const request = await added;
    await until('the nudge', () => received().length > before);
    assert.equal('answerUrl' in received()[before]!, false);
    api.reject(request.id);
  });

  test("Turn On the Answer Page, a nudge's answerUrl opens the request, and the asker gets exactly the answer given there, recorded as decided on the page", async () => {
    // The test host's links stay on a loopback address (through code-server's /proxy/<port>/ or not): the command says so.
    const window = vscode.window as unknown as { showWarningMessage: ShowMessage };
    const original = window.showWarningMessage;
    const warned: string[] = [];
    window.showWarningMessage = async (message: string) => void warned.push(message);
    let base: string | undefined;
    try {
      base = await vscode.commands.executeCommand<string>('agentQuestions.turnOnAnswerPage');
    } finally {
      window.showWarningMessage = original;
    }
    assert.equal(config().inspect('answerPage.enabled')?.globalValue, true);
    assert.match(String(base), /^http:\/\/127\.0\.0\.1:\d+\//);
    assert.equal(warned.length, 1);
    assert.match(warned[0]!, /loopback address \(http:\/\/127\.0\.0\.1:\d+\), which a phone cannot open/);

    const before = received().length;
    const added = nextAdded(api);
    const answered = api.ask({
      extensionId: 'test.answerPage',
      questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
    });
    const request = await added;
    await until('the nudge', () => received().length > before);
    const answerUrl = new URL(String(received()[before]!.answerUrl));
    assert.equal(answerUrl.origin, new URL(base!).origin);
    assert.equal(answerUrl.pathname, `${new URL(base!).pathname}answer`);

    const page = await http(answerUrl, 'GET');
    assert.equal(page.status, 200);
    assert.match(page.body, /Which database\?/);
    const c = /name="c" value="([^"]+)"/.exec(page.body)?.[1];
    const n = /name="n" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(c && n, 'the page carries a capability and a nonce');
    const reply = await http(new URL('answer', answerUrl), 'POST', new URLSearchParams({ c, n, q0: '1' }).toString());
    assert.equal(reply.status, 200);

    const response = await answered;
    assert.equal(response.status, 'answered');
    assert.deepEqual(response.answers, { db: { selected: ['Postgres'], skipped: false } });
    const entry = api.history().find((e) => e.requestId === request.id);
    assert.deepEqual(entry?.decidedBy, { by: 'user', where: 'page' });
    // Used once: the same link now reveals nothing.
    assert.equal((await http(answerUrl, 'GET')).status, 404);
  });

  test('an ntfy nudge opens the page on a tap and offers an Answer action, and its text stays as by default', async () => {
    const window = vscode.window as unknown as { showWarningMessage: ShowMessage };
    const original = window.showWarningMessage;
    window.showWarningMessage = async (_message: string, ...rest: unknown[]) => rest[1];
    try {
      assert.equal(await setChannel('ntfy', `${url}-ntfy`), true);
    } finally {
      window.showWarningMessage = original;
    }
    const before = ntfy().length;
    const added = nextAdded(api);
    void api.ask({ extensionId: 'test.answerPage', questions: [{ id: 'db', header: 'Database', question: 'CANARY-NTFY?', options: [{ label: 'A' }, { label: 'B' }] }] });
    const request = await added;
    await until('the ntfy nudge', () => ntfy().length > before);
    const { raw, headers } = ntfy()[before]!;
    const click = String(headers['click']);
    assert.match(click, /^http:\/\/127\.0\.0\.1:\d+\/.*answer\?c=/);
    assert.equal(headers['actions'], `view, Answer, ${click}`);
    assert.doesNotMatch(raw, /CANARY/);
    api.reject(request.id);
  });
});
