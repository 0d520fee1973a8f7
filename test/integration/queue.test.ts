import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentQuestionsApi, PermissionResponse, QuestionResponse } from '../../src/extension/api';
import { until } from '../harness/deadline';
import { getApi, invokeAskUser, nextAdded, parseResult, resultText } from './helpers';

interface AttentionState {
  badge: number;
  statusBarText: string | undefined;
  statusBarVisible: boolean;
  tree: Array<{ label: string; children: string[] }>;
  tooltips: Array<{ markdown: string; trusted: boolean; html: boolean }>;
  /** The Queue's "… and N more" quick pick while it is open: its rows, and the one the workbench has active. */
  pick?: { rows: string[]; active: string | undefined };
}

const readAttention = () => vscode.commands.executeCommand<AttentionState>('agentQuestions.internal.attentionState');
/**
 * Counts are batched (a 50 ms timer), so wait until they settle: the same state read twice, the
 * second time after four 25 ms pauses. The batch's timer started before this call, in this same
 * extension host, so it has fired by then: a busy machine makes this slower, never early.
 */
async function attention(): Promise<AttentionState> {
  let last = '';
  let reads = 0;
  return until(
    'the badge, status bar and Queue to settle',
    async () => {
      const state = await readAttention();
      const settled = ++reads >= 5 && JSON.stringify(state) === last;
      last = JSON.stringify(state);
      return settled ? state : undefined;
    },
    { everyMs: 25 },
  );
}
const question = (id: string, header = id) => ({ questions: [{ id, header, question: `${header}?`, options: [{ label: 'Yes' }, { label: 'No' }] }] });

async function askFrom(api: AgentQuestionsApi, extensionId: string, id: string): Promise<{ id: string; response: Promise<QuestionResponse> }> {
  const added = nextAdded(api);
  const response = api.ask({ extensionId, ...question(id) });
  return { id: (await added).id, response };
}

suite('The queue and attention', () => {
  test('prevents command links, forged lines and invisible text in the tree and notifications: agent text becomes one safe line', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const title = 'Read. [Answer](command:workbench.action.terminal.sendSequence?%7B%7D)\n2026-12-02 [info] allowed\u202E';
    const permission = api.requestPermission({ extensionId: 'evil.ext', title, detail: 'd' });
    const request = await added;
    try {
      const state = await attention();
      assert.deepEqual(state.tree, [
        { label: 'Permissions', children: ['Read. [Answer] (command:workbench.action.terminal.sendSequence?%7B%7D) 2026-12-02 [info] allowed⟨U+202E⟩'] },
        { label: 'Questions', children: [] },
      ]);
      // The hover tooltip (built on hover) is untrusted markdown without HTML, its link escaped and the override shown as text.
      const [tooltip] = state.tooltips;
      assert.equal(tooltip!.trusted, false);
      assert.equal(tooltip!.html, false);
      assert.doesNotMatch(tooltip!.markdown, /(?<!\\)\]\(command:/, 'no live command link');
      assert.match(tooltip!.markdown, /\\\[Answer\\\]/, "the agent's brackets are escaped: its text is text, not markdown");
      assert.doesNotMatch(tooltip!.markdown, /\u202E/);
      assert.match(tooltip!.markdown, /allowed⟨U\\?\+202E⟩/, 'the override is shown as text');
    } finally {
      api.decide(request.id, 'deny');
    }
    assert.equal((await permission).decision, 'deny');
  });

  test('mixed permissions and questions from several sources: permissions first, FIFO within each, in the API and the tree', async () => {
    const api = await getApi();
    const q1 = await askFrom(api, 'alpha.one', 'first');
    const toolAdded = nextAdded(api);
    const toolCall = invokeAskUser(question('from_tool', 'From tool'));
    const q2 = (await toolAdded).id;
    const p1Added = nextAdded(api);
    const p1 = api.requestPermission({ extensionId: 'beta.two', title: 'Deploy?', detail: 'to staging' });
    const p1Id = (await p1Added).id;
    const q3 = await askFrom(api, 'gamma.three', 'third');
    const p2Added = nextAdded(api);
    const p2 = api.requestPermission({ extensionId: 'alpha.one', title: 'Delete the cache?', detail: 'rm -rf .cache' });
    const p2Id = (await p2Added).id;

    assert.deepEqual(
      api.list().map((r) => r.id),
      [p1Id, p2Id, q1.id, q2, q3.id],
    );
    assert.deepEqual(
      api.list().map((r) => r.source.label),
      ['Extension beta.two', 'Extension alpha.one', 'Extension alpha.one', 'Chat tool', 'Extension gamma.three'],
    );
    const state = await attention();
    assert.deepEqual(state.tree, [
      { label: 'Permissions', children: ['Deploy?', 'Delete the cache?'] },
      { label: 'Questions', children: ['first', 'From tool', 'third'] },
    ]);

    await vscode.commands.executeCommand('agentQuestions.rejectAll', { skipConfirmation: true });
    const settled = await Promise.all<QuestionResponse | PermissionResponse>([q1.response, q3.response, p1, p2]);
    assert.deepEqual(
      settled.map((r) => r.status),
      ['rejected', 'rejected', 'rejected', 'rejected'],
    );
    assert.equal((parseResult(resultText(await toolCall)).json as { status: string }).status, 'rejected');
    assert.deepEqual(api.list(), []);
  });

  test('the badge and the status bar follow every ask and settle', async () => {
    const api = await getApi();
    assert.deepEqual(await attention(), { badge: 0, statusBarText: undefined, statusBarVisible: false, tree: [], tooltips: [] });
    const a = await askFrom(api, 'one.x', 'a');
    assert.equal((await attention()).badge, 1);
    // Both groups while anything waits: a first permission then refreshes its group, not the whole tree.
    assert.deepEqual((await attention()).tree, [
      { label: 'Permissions', children: [] },
      { label: 'Questions', children: ['a'] },
    ]);
    assert.equal((await attention()).statusBarText, '$(question) 1');
    const b = await askFrom(api, 'two.x', 'b');
    assert.equal((await attention()).statusBarText, '$(question) 2');
    api.reply(a.id, { a: { selected: ['Yes'], skipped: false } });
    await a.response;
    assert.equal((await attention()).badge, 1);
    api.reject(b.id);
    await b.response;
    assert.deepEqual(await attention(), { badge: 0, statusBarText: undefined, statusBarVisible: false, tree: [], tooltips: [] });
  });

  test('200 pending requests from 20 sources: counts, order and Reject All stay right', async function () {
    const api = await getApi();
    const responses: Array<Promise<QuestionResponse | PermissionResponse>> = [];
    for (let i = 0; i < 200; i++) {
      const extensionId = `source.n${i % 20}`;
      responses.push(i % 10 === 0 ? api.requestPermission({ extensionId, title: `Permission ${i}`, detail: 'x' }) : api.ask({ extensionId, ...question(`q_${i}`) }));
    }
    const list = api.list();
    assert.equal(list.length, 200);
    assert.equal(new Set(list.map((r) => r.source.label)).size, 20);
    assert.deepEqual(
      list.slice(0, 20).map((r) => r.kind),
      Array(20).fill('permission'),
    );
    assert.deepEqual(
      list.slice(20).map((r) => r.kind),
      Array(180).fill('questions'),
    );
    const state = await attention();
    assert.equal(state.badge, 200);
    assert.equal(state.statusBarText, '$(question) 200');
    // 50 rows of a group, then one row for the rest.
    assert.deepEqual(
      state.tree.map((g) => [g.label, g.children.length, g.children.at(-1)]),
      [
        ['Permissions', 20, 'Permission 190'],
        ['Questions', 51, '… and 130 more'],
      ],
    );

    await vscode.commands.executeCommand('agentQuestions.rejectAll', { skipConfirmation: true });
    const all = await Promise.all(responses);
    assert.equal(all.filter((r) => r.status === 'rejected').length, 200);
    assert.equal((await attention()).badge, 0);
  });

  test('over 50 waiting questions: the group shows 50 rows and "… and N more", whose quick pick lists them all and shows the one chosen', async function () {
    const api = await getApi();
    const asked: Array<{ id: string; response: Promise<QuestionResponse> }> = [];
    for (let i = 0; i < 60; i++) asked.push(await askFrom(api, `source.m${i % 4}`, `many_${i}`));
    const headers = asked.map((_, i) => `many_${i}`);
    try {
      const state = await attention();
      assert.deepEqual(state.tree, [
        { label: 'Permissions', children: [] },
        { label: 'Questions', children: [...headers.slice(0, 50), '… and 10 more'] },
      ]);

      // The "more" row's command, as a click on it runs it: a quick pick of all 60, oldest first.
      const chosen = vscode.commands.executeCommand<string | undefined>('agentQuestions.showWaitingGroup', 'questions');
      const shown = await waitForPick((pick) => pick.active === 'many_0');
      assert.deepEqual(shown.rows, headers);
      // In the workbench's list, the last row is the 60th question, which has no row in the tree.
      await vscode.commands.executeCommand('quickInput.last');
      await waitForPick((pick) => pick.active === 'many_59');
      await vscode.commands.executeCommand('quickInput.accept');
      assert.equal(await chosen, asked[59]!.id);
      assert.equal((await attention()).pick, undefined, 'the quick pick is closed');
      // Like a click on its row: the panel shows it.
      await vscode.commands.executeCommand('agentQuestions.internal.panelProbe', { op: 'whenShown', requestId: asked[59]!.id });
    } finally {
      await vscode.commands.executeCommand('agentQuestions.rejectAll', { skipConfirmation: true });
    }
    assert.deepEqual(
      (await Promise.all(asked.map((a) => a.response))).map((r) => r.status),
      Array(60).fill('rejected'),
    );
  });
});

/** Waits until the Queue's quick pick is open and `ready` holds. */
function waitForPick(ready: (pick: NonNullable<AttentionState['pick']>) => boolean): Promise<NonNullable<AttentionState['pick']>> {
  return until(
    "the Queue's quick pick",
    async () => {
      const { pick } = await readAttention();
      return pick && ready(pick) ? pick : undefined;
    },
    { everyMs: 25 },
  );
}
