// Rules that end, in the real extension host: a rule chosen on the card to end after one minute
// (posted as the Question panel posts it) allows until then, the decision log names it, and after
// the rules' clock moves a minute on it is asked again and gone from Manage Remembered Permissions.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentQuestionsApi, DecidedBy, PermissionResponse } from '../../src/extension/api';
import { getApi, nextAdded } from './helpers';

const COMMAND = 'git log --oneline -3';
const ask = (api: AgentQuestionsApi) => api.requestPermission({ extensionId: 'tests.expiry', title: 'Run it?', detail: COMMAND, command: COMMAND });
const listed = () =>
  vscode.commands.executeCommand<Array<{ key: string; label: string; expiresAt?: number; ends?: string }>>('agentQuestions.manageRememberedPermissions', { list: true });

/** Asks; when it waits, `answer` decides it. Returns the response and whether it waited. */
async function asked(api: AgentQuestionsApi, answer: (requestId: string) => unknown): Promise<{ response: PermissionResponse; waited: boolean }> {
  let waited = false;
  const subscription = api.onDidChange((change) => {
    if (change.type !== 'added' || change.request.kind !== 'permission') return;
    waited = true;
    void answer(change.request.id);
  });
  try {
    return { response: await ask(api), waited };
  } finally {
    subscription.dispose();
  }
}

suite('Rules that end, in the real extension host', () => {
  let dir: string;
  setup(() => (dir = mkdtempSync(join(tmpdir(), 'aq-expiry-'))));
  teardown(() => rmSync(dir, { recursive: true, force: true }));

  test('a rule made to end after one minute allows without asking until then, named in the decision log; a minute later it is asked again and no longer listed', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const first = ask(api);
    const request = await added;
    assert.ok(request.kind === 'permission' && request.rememberOptions?.[0], 'the card offers a rule');
    const option = request.rememberOptions[0];
    try {
      // The card's choice, as the panel posts it: Always allow, this workspace, ending after one minute.
      await vscode.commands.executeCommand('agentQuestions.internal.panelMessage', {
        type: 'decide',
        requestId: request.id,
        decision: 'allow_always',
        rule: option.key,
        scope: 'workspace',
        expiresAfterMinutes: 1,
      });
      assert.equal((await first).decision, 'allow_always');
      const rule = (await listed()).find((r) => r.key === option.key);
      assert.ok(rule?.expiresAt, 'the ledger lists the rule with its end');
      assert.equal(rule.ends, 'ends in 1 min');

      const allowed = await asked(api, (id) => api.decide(id, 'deny'));
      assert.equal(allowed.waited, false, 'allowed by the rule without asking');
      assert.equal(allowed.response.decision, 'allow_always');
      const expected: DecidedBy = { by: 'rule', rules: [{ text: option.label, origin: 'remembered', scope: 'workspace' }] };
      assert.deepEqual(api.history().find((e) => e.requestId === allowed.response.requestId)?.decidedBy, expected);
      const file = join(dir, 'decisions.jsonl');
      await vscode.commands.executeCommand('agentQuestions.exportDecisionLog', vscode.Uri.file(file));
      const logged = readFileSync(file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { requestId: string; decidedBy?: DecidedBy });
      assert.deepEqual(logged.find((l) => l.requestId === allowed.response.requestId)?.decidedBy, expected, 'the decision log names the rule and where it came from');

      const now = await vscode.commands.executeCommand<number>('agentQuestions.internal.rulesClock', { advanceMs: 60_000 });
      assert.ok(now >= rule.expiresAt, 'the rules clock is past the end');
      const again = await asked(api, (id) => api.decide(id, 'deny'));
      assert.equal(again.waited, true, 'asked again after the end');
      assert.equal(again.response.decision, 'deny');
      assert.equal(
        (await listed()).some((r) => r.key === option.key),
        false,
        'no longer in Manage Remembered Permissions',
      );
    } finally {
      await vscode.commands.executeCommand('agentQuestions.manageRememberedPermissions', { forget: option.key });
    }
  });
});
