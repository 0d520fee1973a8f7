import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentQuestionsApi } from '../../src/extension/api';
import { until } from '../harness/deadline';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhookReceiver';
import { getApi, nextAdded } from './helpers';

interface State {
  nudgesDue: number;
  panelVisible: boolean;
  windowFocused: boolean;
}

const state = () => vscode.commands.executeCommand<State>('agentQuestions.internal.nudgeState');
const config = () => vscode.workspace.getConfiguration('agentQuestions');

type ShowWarning = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Runs `run` with the modal that Set Where Nudges Go shows for a URL it was given answered: its
 * button when `confirm`, dismissed otherwise. A modal cannot be clicked from the extension host, and
 * this test shares the extension's `vscode` API object, so its showWarningMessage stands in.
 */
async function answeringModal<T>(confirm: boolean, run: () => Thenable<T>): Promise<{ result: T; asked: string[] }> {
  const window = vscode.window as unknown as { showWarningMessage: ShowWarning };
  const original = window.showWarningMessage;
  const asked: string[] = [];
  window.showWarningMessage = async (message: string, ...rest: unknown[]) => {
    const [options, ...buttons] = rest;
    asked.push(`${(options as { modal?: boolean }).modal ? 'modal: ' : ''}${message}`);
    return confirm ? buttons[0] : undefined;
  };
  try {
    return { result: await run(), asked };
  } finally {
    window.showWarningMessage = original;
  }
}

const setChannel = (channel: { kind: string; url: string }) => answeringModal(true, () => vscode.commands.executeCommand<boolean>('agentQuestions.setNudgeChannel', channel));

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}

// A local HTTP receiver stands in for ntfy or a Slack/Discord-style webhook.
suite('Nudges when a request waits unseen (a local webhook receiver)', () => {
  let receiver: WebhookReceiver;
  let received: WebhookReceiver['received'] = [];
  // The topic part of the URL is the credential: it must never be written anywhere.
  const secretPath = `/hooks/${randomBytes(12).toString('hex')}`;
  let url = '';
  let api: AgentQuestionsApi;
  const question = (text: string) => ({ extensionId: 'test.nudges', questions: [{ id: 'db', header: 'Database', question: text, options: [{ label: 'A' }, { label: 'B' }] }] });

  suiteSetup(async () => {
    api = await getApi();
    receiver = await startWebhookReceiver();
    received = receiver.received;
    url = `${receiver.origin}${secretPath}`;
    await config().update('nudge.afterSeconds', 1, vscode.ConfigurationTarget.Global);
    await config().update('revealOnAsk', false, vscode.ConfigurationTarget.Global);
    assert.equal((await setChannel({ kind: 'webhook', url })).result, true);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('agentQuestions.clearNudgeChannel');
    for (const key of ['nudge.afterSeconds', 'nudge.maxPerHour', 'revealOnAsk']) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    for (const request of api.list()) api.reject(request.id);
    await receiver.close();
  });

  const hidePanel = async () => {
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await until('hiding the Question view', async () => !(await state()).panelVisible);
  };

  test('exactly one nudge per request left unseen, after the delay; the default message holds no question text', async () => {
    await hidePanel();
    const canary = `CANARY-${randomBytes(6).toString('hex')}`;
    const before = received.length;
    const added = nextAdded(api);
    const asked = Date.now();
    void api.ask(question(`Which database? ${canary}`));
    const first = await added;
    await until('the first nudge', () => received.length === before + 1);
    assert.ok(Date.now() - asked >= 950, 'not before the delay');
    const { body, path } = received[before]!;
    assert.equal(path, secretPath);
    assert.equal(body.kind, 'question');
    assert.equal(body.waiting, 1);
    assert.match(String(body.text), /^Extension test nudges asks you a question in VS Code/);
    assert.equal(JSON.stringify(received).includes(canary), false, 'the question text is not in the nudge');
    // Nothing more is due for it: no second nudge for the same request.
    await until('the first request is done with', async () => (await state()).nudgesDue === 0);

    const second = nextAdded(api);
    void api.ask(question('Which cache?'));
    const other = await second;
    await until("the second request's nudge", () => received.length === before + 2);
    assert.equal(received[before + 1]!.body.waiting, 2);
    await until('both requests are done with', async () => (await state()).nudgesDue === 0);
    assert.equal(received.length, before + 2);
    api.reject(first.id);
    api.reject(other.id);
  });

  test('no nudge for a request seen first (the Question view visible in a focused window)', async () => {
    await vscode.commands.executeCommand('agentQuestions.focusPanel');
    await until('showing the Question view', async () => (await state()).panelVisible);
    const seen = await state();
    assert.equal(seen.windowFocused, true, 'the test window has focus');
    const before = received.length;
    const added = nextAdded(api);
    void api.ask(question('Which queue?'));
    const request = await added;
    await until('the request counted as seen', async () => (await state()).nudgesDue === 0);
    api.reject(request.id);
    assert.equal(received.length, before);
  });

  test('a burst of 50 requests stays within the hourly limit: one nudge counts them all', async () => {
    await hidePanel();
    const before = received.length;
    await config().update('nudge.maxPerHour', before + 2, vscode.ConfigurationTarget.Global);
    const ids: string[] = [];
    const subscription = api.onDidChange((change) => change.type === 'added' && ids.push(change.request.id));
    for (let i = 0; i < 50; i++) void api.ask(question(`Burst ${i}?`));
    await until('a nudge for the burst', () => received.length > before);
    await until('every request of the burst done with', async () => (await state()).nudgesDue === 0);
    subscription.dispose();
    assert.equal(received.length, before + 1);
    assert.equal(received[before]!.body.waiting, 50);
    for (const id of ids) api.reject(id);
  });

  test('an ntfy topic gets the nudge as plain text with a title (Send a Test Nudge)', async () => {
    const before = received.length;
    try {
      assert.equal((await setChannel({ kind: 'ntfy', url: `${url}-ntfy` })).result, true);
      assert.equal(await vscode.commands.executeCommand('agentQuestions.sendTestNudge'), true);
      await until('the test nudge', () => received.length === before + 1);
      const { raw, headers, path } = received[before]!;
      assert.equal(path, `${secretPath}-ntfy`);
      assert.equal(headers['title'], 'Agent Questions');
      assert.match(String(headers['content-type']), /^text\/plain/);
      assert.equal(raw, 'Agent Questions: a test nudge from VS Code.');
    } finally {
      await setChannel({ kind: 'webhook', url });
    }
  });

  test('prevents another extension or a command link from redirecting nudges: a URL passed to Set Where Nudges Go is stored only once the user confirms its host in a modal', async () => {
    const host = new URL(url).host;
    const elsewhere = `${url}-elsewhere`;
    try {
      const declined = await answeringModal(false, () => vscode.commands.executeCommand<boolean>('agentQuestions.setNudgeChannel', { kind: 'webhook', url: elsewhere }));
      assert.deepEqual(declined, { result: false, asked: [`modal: Send nudges to ${host}?`] });
      let before = received.length;
      assert.equal(await vscode.commands.executeCommand('agentQuestions.sendTestNudge'), true);
      await until('the test nudge', () => received.length === before + 1);
      assert.equal(received[before]!.path, secretPath, 'declined: the channel did not change');

      const confirmed = await setChannel({ kind: 'webhook', url: elsewhere });
      assert.deepEqual(confirmed, { result: true, asked: [`modal: Send nudges to ${host}?`] });
      before = received.length;
      assert.equal(await vscode.commands.executeCommand('agentQuestions.sendTestNudge'), true);
      await until('the test nudge', () => received.length === before + 1);
      assert.equal(received[before]!.path, `${secretPath}-elsewhere`, 'confirmed: nudges go there');
    } finally {
      await setChannel({ kind: 'webhook', url });
    }
  });

  test('the channel URL never appears in logs, settings or history', async () => {
    assert.ok(received.length > 0, 'nudges were sent through it');
    const history = JSON.stringify(api.history());
    assert.equal(history.includes(secretPath), false, 'history');
    const userData = join(dirname(process.env.HOME ?? ''), 'user-data');
    const logs = filesUnder(join(userData, 'logs'));
    assert.ok(
      logs.some((f) => f.text.includes('Nudge sent')),
      'the extension log was found and mentions the nudges',
    );
    const settings = [
      ...filesUnder(join(userData, 'User')).filter((f) => f.path.endsWith('.json')),
      ...(vscode.workspace.workspaceFolders ?? []).flatMap((f) => filesUnder(join(f.uri.fsPath, '.vscode'))),
    ];
    for (const file of [...logs, ...settings]) assert.equal(file.text.includes(secretPath.slice(7)), false, `${file.path} holds the channel URL`);
  });
});
