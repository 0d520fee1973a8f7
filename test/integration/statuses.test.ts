import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { DATABASE_QUESTION, getApi, invokeAskUser, nextAdded, parseResult, resultText } from './helpers';

const config = () => vscode.workspace.getConfiguration('agentQuestions');
const setSetting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);
const statusOf = async (pending: Thenable<vscode.LanguageModelToolResult>) => parseResult(resultText(await pending)).json as { status: string; reason?: string; answers?: unknown };

suite('Every outcome, through invokeTool and the API', () => {
  teardown(async () => {
    for (const key of ['mode', 'answersFile', 'timeoutSeconds']) await setSetting(key, undefined);
    delete process.env.AGENT_QUESTIONS_UNATTENDED;
  });

  test('answered and rejected through the API', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const asked = api.ask({ extensionId: 'tests.caller', questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red' }, { label: 'Blue' }] }] });
    const request = await added;
    assert.equal(request.source.label, 'Extension tests.caller');
    api.reply(request.id, { color: { selected: [], other: 'Green', note: 'any green', skipped: false } });
    assert.deepEqual(await asked, { requestId: request.id, status: 'answered', answers: { color: { selected: [], other: 'Green', note: 'any green', skipped: false } } });

    const apiRejectedAdded = nextAdded(api);
    const apiRejected = api.ask({ questions: [{ id: 'x', header: 'X', question: 'X?' }] });
    api.reject((await apiRejectedAdded).id, 'Busy');
    assert.deepEqual(await apiRejected, { requestId: (await apiRejected).requestId, status: 'rejected', reason: 'Busy' });

    const addedAgain = nextAdded(api);
    const toolCall = invokeAskUser(DATABASE_QUESTION);
    const second = await addedAgain;
    assert.equal(api.reject(second.id, 'Not now'), true);
    const { line, json } = parseResult(resultText(await toolCall));
    assert.equal(json.status, 'rejected');
    assert.match(line, /^The user declined to answer "[^"]+" \(request id "[^"]+"\)\. Reason: Not now\. Continue on your own best assumptions/);
  });

  test('timed_out through invokeTool (setting) and the API (per request), never as an answer', async () => {
    const api = await getApi();
    await setSetting('timeoutSeconds', 1);
    const result = await statusOf(invokeAskUser(DATABASE_QUESTION));
    assert.equal(result.status, 'timed_out');
    assert.equal(result.answers, undefined);
    await setSetting('timeoutSeconds', undefined);
    const response = await api.ask({ timeoutSeconds: 1, questions: [{ id: 'x', header: 'X', question: 'X?' }] });
    assert.equal(response.status, 'timed_out');
    assert.deepEqual(api.list(), []);
  });

  test('cancelled through the API token', async () => {
    const api = await getApi();
    const source = new vscode.CancellationTokenSource();
    const added = nextAdded(api);
    const asked = api.ask({ questions: [{ id: 'x', header: 'X', question: 'X?' }] }, source.token);
    await added;
    source.cancel();
    assert.equal((await asked).status, 'cancelled');
    assert.deepEqual(api.list(), []);
  });

  test('mode off: the tool is hidden and a direct call is unavailable at once', async () => {
    const api = await getApi();
    await setSetting('mode', 'off');
    const result = await statusOf(invokeAskUser(DATABASE_QUESTION));
    assert.equal(result.status, 'unavailable');
    assert.match(result.reason!, /agentQuestions\.mode is "off"/);
    assert.equal((await api.ask({ questions: [{ id: 'x', header: 'X', question: 'X?' }] })).status, 'unavailable');
    assert.deepEqual(api.list(), []);
    // vscode.lm.tools lists disabled tools too (VS Code 1.139 sends getAllToolsIncludingDisabled to
    // extension hosts), so the hiding itself is checked where agents see tools: the manifest's when clause.
    const manifest = vscode.extensions.getExtension('openoxide.agent-questions')!.packageJSON as { contributes: { languageModelTools: Array<{ when?: string }> } };
    assert.equal(manifest.contributes.languageModelTools[0]!.when, "config.agentQuestions.mode != 'off'");
  });

  test('unattended environment: unavailable at once, with the instruction to go on', async () => {
    process.env.AGENT_QUESTIONS_UNATTENDED = '1';
    const text = resultText(await invokeAskUser(DATABASE_QUESTION));
    assert.match(text, /^No one can answer questions right now: "[^"]+" \(request id "[^"]+"\)\. Reason: This session is unattended/);
    assert.match(text, /Continue on your own best assumptions, state them plainly/);
  });

  test('answersFile mode: answers from the file, fails closed on a missing id and on a malformed file', async () => {
    const api = await getApi();
    const dir = mkdtempSync(join(tmpdir(), 'aq-answers-'));
    const file = join(dir, 'answers.json');
    try {
      writeFileSync(file, JSON.stringify({ database: 'SQLite' }));
      await setSetting('answersFile', file);
      await setSetting('mode', 'answersFile');
      const answered = await statusOf(invokeAskUser(DATABASE_QUESTION));
      assert.deepEqual(answered.answers, { database: { selected: ['SQLite'], skipped: false } });

      const missing = await statusOf(
        invokeAskUser({ questions: [{ id: 'runtime', header: 'Runtime', question: 'Which runtime?', options: [{ label: 'Node' }, { label: 'Deno' }] }] }),
      );
      assert.equal(missing.status, 'unavailable');
      assert.equal(missing.reason, 'The answers file has no entry for question "runtime".');

      writeFileSync(file, '{ "database": ');
      const malformed = await statusOf(invokeAskUser(DATABASE_QUESTION));
      assert.equal(malformed.status, 'unavailable');
      assert.match(malformed.reason!, /is not valid JSON/);
      assert.deepEqual(api.list(), []);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('permissions: first in the queue, "Always allow" remembered per extension and key, and cleared by the command', async () => {
    const api = await getApi();
    const questionAdded = nextAdded(api);
    const question = api.ask({ questions: [{ id: 'x', header: 'X', question: 'X?' }] });
    await questionAdded;
    const permissionAdded = nextAdded(api);
    const permission = api.requestPermission({ extensionId: 'tests.caller', title: 'Run the tests?', detail: '`npm test`', permissionKey: 'tests.run' });
    const request = await permissionAdded;
    assert.deepEqual(
      api.list().map((r) => r.kind),
      ['permission', 'questions'],
    );
    api.decide(request.id, 'allow_always');
    assert.equal((await permission).decision, 'allow_always');

    const again = await api.requestPermission({ extensionId: 'tests.caller', title: 'Run the tests?', detail: '`npm test`', permissionKey: 'tests.run' });
    assert.equal(again.decision, 'allow_always');
    assert.equal(api.list().filter((r) => r.kind === 'permission').length, 0, 'answered without asking');

    await vscode.commands.executeCommand('agentQuestions.clearRememberedPermissions');
    const askedAgainAdded = nextAdded(api);
    const askedAgain = api.requestPermission({ extensionId: 'tests.caller', title: 'Run the tests?', detail: '`npm test`', permissionKey: 'tests.run' });
    const third = await askedAgainAdded;
    api.decide(third.id, 'deny');
    assert.equal((await askedAgain).decision, 'deny');
    api.reject(api.list()[0]!.id);
    await question;
  });

  test('an invalid API request is refused with the fields named, and nothing is asked', async () => {
    const api = await getApi();
    await assert.rejects(
      api.ask({ questions: [] }),
      /AgentQuestionsApi\.ask: the request is invalid; nothing was asked\. Fix 1 problem:\n- questions: needs 1 to 20 questions \(got 0\)/,
    );
    await assert.rejects(api.requestPermission({ title: '', detail: 'x' }), /requestPermission: the request is invalid; nothing was asked\. title:/);
    assert.deepEqual(api.list(), []);
  });

  test('history keeps every settled request, newest first, with its status', async () => {
    const api = await getApi();
    const statuses = api.history().map((e) => e.status);
    for (const status of ['answered', 'rejected', 'cancelled', 'timed_out', 'unavailable']) assert.ok(statuses.includes(status as never), `${status} in history`);
    const [newest, older] = api.history();
    assert.ok(newest!.settledAt >= older!.settledAt);
  });
});
