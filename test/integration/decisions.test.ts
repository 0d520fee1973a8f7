// Who decided, in the real extension host: the API's history entries carry it, and Export Decision
// Log… writes the history as JSON Lines (to a file given as its argument, so no dialog opens).
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApiChange, DecidedBy } from '../../src/extension/api';
import { getApi, invokeAskUser, nextAdded, nextChange } from './helpers';

const question = (id: string) => ({ questions: [{ id, header: id, question: `${id}?`, options: [{ label: 'Yes' }, { label: 'No' }] }] });

suite('Who decided', () => {
  let dir: string;
  setup(() => (dir = mkdtempSync(join(tmpdir(), 'aq-decisions-'))));
  teardown(() => rmSync(dir, { recursive: true, force: true }));

  test('an extension, the Queue, a timeout and the asker are each recorded; the export writes them as JSON Lines, newest last, secrets as handles', async () => {
    const api = await getApi();
    const settled: ApiChange[] = [];
    const listening = api.onDidChange((change) => change.type === 'settled' && settled.push(change));
    const canary = `sk-decision-log-${Math.random().toString(36).slice(2)}`;
    try {
      // An extension answers through the API, a secret among its answers.
      const added = nextAdded(api);
      const asked = api.ask({
        extensionId: 'tests.decisions',
        questions: [
          { id: 'key', header: 'API key', question: 'Your key?', kind: 'secret', envVar: 'AQ_DECISION_KEY' },
          { id: 'go', header: 'Go', question: 'Go?', options: [{ label: 'Yes' }, { label: 'No' }] },
        ],
      });
      const first = await added;
      assert.equal(api.reply(first.id, { key: { selected: [], skipped: false, value: canary }, go: { selected: ['Yes'], skipped: false } }), true);
      assert.equal((await asked).status, 'answered');

      // The user rejects everything from the Queue.
      const queued = nextAdded(api);
      const rejected = api.ask({ extensionId: 'tests.decisions', ...question('rejected') });
      const second = await queued;
      await vscode.commands.executeCommand('agentQuestions.rejectAll', { skipConfirmation: true });
      assert.equal((await rejected).status, 'rejected');

      // One times out.
      const timed = await api.ask({ extensionId: 'tests.decisions', timeoutSeconds: 1, ...question('timed') });
      assert.equal(timed.status, 'timed_out');

      // The agent (the chat tool's caller) gives up.
      const stop = new vscode.CancellationTokenSource();
      const toolAdded = nextAdded(api);
      // VS Code may reject the invocation with a CancellationError before the request settles: wait for the settle itself.
      const toolCall = invokeAskUser(question('stopped'), stop.token).then(
        () => undefined,
        () => undefined,
      );
      const fourth = await toolAdded;
      const stopped = nextChange(api, 'settled');
      stop.cancel();
      assert.equal((await stopped).request.id, fourth.id);
      await toolCall;

      const decidedBy = (id: string): DecidedBy | undefined => api.history().find((e) => e.requestId === id)?.decidedBy;
      assert.deepEqual(decidedBy(first.id), { by: 'extension' });
      assert.deepEqual(decidedBy(second.id), { by: 'user', where: 'queue' });
      assert.deepEqual(decidedBy(timed.requestId), { by: 'timeout', afterSeconds: 1 });
      assert.deepEqual(decidedBy(fourth.id), { by: 'asker' });
      assert.equal(
        settled.some((c) => 'decidedBy' in c),
        false,
        'the API change events are as they were',
      );

      const file = join(dir, 'agent-questions-decisions.jsonl');
      const written = await vscode.commands.executeCommand<number>('agentQuestions.exportDecisionLog', vscode.Uri.file(file));
      const text = readFileSync(file, 'utf8');
      assert.equal(text.includes(canary), false, 'the secret is exported as its handle only');
      const lines = text.trimEnd().split('\n');
      assert.equal(lines.length, written);
      assert.equal(lines.length, api.history().length);
      const logged = lines.map((line) => JSON.parse(line) as { requestId: string; settledAt: string; decidedBy?: DecidedBy; answers?: Record<string, unknown> });
      // Newest last: the log is in the order the requests settled.
      assert.deepEqual(
        logged.slice(-4).map((l) => [l.requestId, l.decidedBy]),
        [
          [first.id, { by: 'extension' }],
          [second.id, { by: 'user', where: 'queue' }],
          [timed.requestId, { by: 'timeout', afterSeconds: 1 }],
          [fourth.id, { by: 'asker' }],
        ],
      );
      const times = logged.map((l) => Date.parse(l.settledAt));
      assert.deepEqual(
        times,
        [...times].sort((a, b) => a - b),
      );
      assert.deepEqual(logged.find((l) => l.requestId === first.id)!.answers!.key, { selected: [], skipped: false, secret: { stored: true, envVar: 'AQ_DECISION_KEY' } });
    } finally {
      listening.dispose();
      await vscode.commands.executeCommand('agentQuestions.manageSecrets', { deleteAll: true });
    }
  });

  test('an export that cannot be written says so and writes nothing', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const target = join(blocker, 'decisions.jsonl');
    const written = await vscode.commands.executeCommand<number | undefined>('agentQuestions.exportDecisionLog', vscode.Uri.file(target));
    assert.equal(written, undefined);
    assert.equal(existsSync(target), false);
  });
});
