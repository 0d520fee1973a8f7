import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApiChange } from '../../src/extension/api';
import { until } from '../harness/deadline';
import { DATABASE_QUESTION, getApi, invokeAskUser, nextAdded, parseResult, resultText } from './helpers';

// ask_user shows its question when VS Code prepares the call (vscode.lm.invokeTool prepares, then
// invokes): held in the panel until the invocation queues it, withdrawn when no invocation comes.
// What happened is read from the extension's test-only marks (see src/extension/benchTrace.ts).

type Mark = { name: string; at: number };
const marks = (keepOn: boolean) => vscode.commands.executeCommand<Mark[]>('agentQuestions.internal.panelProbe', { op: 'marks', keepOn });
const names = (list: Mark[]) => list.map((m) => m.name);
const panelVisible = async () => (await vscode.commands.executeCommand<{ panelVisible: boolean }>('agentQuestions.internal.nudgeState')).panelVisible;

suite('The question shown at prepareInvocation', () => {
  const seen: Mark[] = [];
  const changes: ApiChange['type'][] = [];
  let subscription: vscode.Disposable | undefined;

  // Only a panel on screen gets a prepared call's question.
  suiteSetup(async () => {
    await vscode.commands.executeCommand('agentQuestions.panel.focus');
    await until('the Question view showing', panelVisible);
  });
  setup(async () => {
    await marks(true);
    seen.length = 0;
    changes.length = 0;
    subscription = (await getApi()).onDidChange((change) => changes.push(change.type));
  });
  teardown(async () => {
    subscription?.dispose();
    await marks(false);
  });
  const collect = async () => (seen.push(...(await marks(true))), names(seen));

  test('prepare then invoke: exactly one request, taken over from the prepared question and answered normally', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const pending = invokeAskUser(DATABASE_QUESTION);
    const request = await added;
    // The panel reports the queued request interactive once it has taken over the prepared one.
    await vscode.commands.executeCommand('agentQuestions.internal.panelProbe', { op: 'whenShown', requestId: request.id });
    assert.deepEqual(
      api.list().map((r) => r.id),
      [request.id],
    );
    assert.equal(api.reply(request.id, { database: { selected: ['SQLite'], skipped: false } }), true);
    const { json } = parseResult(resultText(await pending));
    assert.deepEqual(json, { requestId: request.id, status: 'answered', answers: { database: { selected: ['SQLite'], skipped: false } } });
    assert.deepEqual(api.list(), []);

    const happened = await collect();
    const order = ['prepareInvocation', 'preview posted', 'invoke'].map((name) => happened.indexOf(name));
    assert.ok(
      order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1]!)),
      `prepared, shown, then invoked: ${happened.join(', ')}`,
    );
    assert.equal(happened.includes('preview withdrawn'), false, 'the invocation took the prepared question over');
    assert.deepEqual(changes, ['added', 'settled']);
  });

  test('a prepared call that is never invoked leaves nothing in the queue, and its question is withdrawn', async function () {
    const api = await getApi();
    const source = new vscode.CancellationTokenSource();
    // Cancelled right after the call goes out: VS Code has asked the tool to prepare, and then never invokes it.
    const outcome = invokeAskUser(DATABASE_QUESTION, source.token).then(resultText, (error: unknown) => error);
    source.cancel();
    const result = await outcome;
    assert.ok(result instanceof Error && /cancel/i.test(result.message), `the call was cancelled before invoke: ${String(result)}`);
    await until('the prepared question shown', async () => (await collect()).includes('preview posted'));
    assert.deepEqual(api.list(), [], 'nothing is queued for a prepared call');

    // The withdraw condition: no invocation within the hold time.
    await until('the prepared question withdrawn', async () => (await collect()).includes('preview withdrawn'));
    const happened = names(seen);
    assert.equal(happened.includes('invoke'), false, `never invoked: ${happened.join(', ')}`);
    assert.deepEqual(api.list(), []);
    assert.deepEqual(changes, [], 'the broker never saw it: no added, no settled, nothing in the history');

    // The same question asked afterwards is an ordinary request of its own.
    const added = nextAdded(api);
    const pending = invokeAskUser(DATABASE_QUESTION);
    const request = await added;
    assert.deepEqual(
      api.list().map((r) => r.id),
      [request.id],
    );
    api.reply(request.id, { database: { selected: ['PostgreSQL'], skipped: false } });
    assert.match(parseResult(resultText(await pending)).line, /^The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "PostgreSQL"\.$/);
    source.dispose();
  });
});
