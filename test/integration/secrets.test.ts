import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { until } from '../harness/deadline';
import { getApi, invokeAskUser, nextAdded, parseResult, resultText } from './helpers';

const config = () => vscode.workspace.getConfiguration('agentQuestions');
const setSetting = (key: string, value: unknown) => config().update(key, value, vscode.ConfigurationTarget.Global);
const storedHere = async () => vscode.commands.executeCommand<Array<{ name: string; scope: string }>>('agentQuestions.manageSecrets', { list: true });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const secretQuestion = (envVar: string, extra: object = {}) => ({
  questions: [{ id: 'key', header: 'API key', question: 'Your key?', kind: 'secret' as const, envVar, ...extra }],
});

/** Starts a new integrated terminal and returns the SHA-256 of $name in its environment (never the value itself). */
async function terminalEnvHash(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'aq-terminal-'));
  const file = join(dir, 'hash');
  const terminal = vscode.window.createTerminal({
    name: 'env probe',
    shellPath: '/bin/sh',
    shellArgs: ['-c', `printf %s "$${name}" | sha256sum | cut -c1-64 > ${file}.tmp && mv ${file}.tmp ${file}`],
  });
  try {
    await until(`the new terminal to write the hash of $${name}`, () => existsSync(file), { everyMs: 50 });
    return readFileSync(file, 'utf8').trim();
  } finally {
    terminal.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

suite('Secret answers', () => {
  test('a terminal created after the answer has the variable; after Delete it does not; the agent gets only the handle', async () => {
    const api = await getApi();
    const value = `sk-terminal-${Math.random().toString(36).slice(2)}`;
    const added = nextAdded(api);
    const toolCall = invokeAskUser(secretQuestion('AQ_TEST_SECRET'));
    const request = await added;
    assert.equal(api.reply(request.id, { key: { selected: [], skipped: false, value } }), true);
    const text = resultText(await toolCall);
    assert.equal(text.includes(value), false, 'the tool result never holds the value');
    assert.deepEqual((parseResult(text).json as { answers: unknown }).answers, { key: { selected: [], skipped: false, secret: { stored: true, envVar: 'AQ_TEST_SECRET' } } });
    assert.match(parseResult(text).line, /New integrated terminals have \$AQ_TEST_SECRET set/);

    assert.equal(await terminalEnvHash('AQ_TEST_SECRET'), sha256(value));
    await vscode.commands.executeCommand('agentQuestions.manageSecrets', { delete: 'AQ_TEST_SECRET' });
    assert.equal(await terminalEnvHash('AQ_TEST_SECRET'), sha256(''));
    assert.equal(JSON.stringify(api.history()).includes(value), false, 'history holds no value');
  });

  test('a trusted caller asking with returnValue receives the value; history still does not', async () => {
    const api = await getApi();
    const value = `sk-trusted-${Math.random().toString(36).slice(2)}`;
    const added = nextAdded(api);
    const asked = api.ask({ extensionId: 'tests.trusted', ...secretQuestion('AQ_TRUSTED', { returnValue: true }) });
    api.reply((await added).id, { key: { selected: [], skipped: false, value } });
    const response = await asked;
    assert.deepEqual(response.answers!.key, { selected: [], skipped: false, secret: { stored: true, envVar: 'AQ_TRUSTED' }, value });
    assert.equal(JSON.stringify(api.history()).includes(value), false);
    await vscode.commands.executeCommand('agentQuestions.manageSecrets', { deleteAll: true });
  });

  test('models cannot ask for the value: returnValue is not part of ask_user', async () => {
    const text = resultText(await invokeAskUser(secretQuestion('AQ_MODEL', { returnValue: true })));
    assert.match(text, /^ask_user input is invalid[\s\S]*- questions\[0\]: unknown field "returnValue"; remove "returnValue"/);
  });

  test('a secret is kept for the workspace where it was given: listed with its scope, restored into its terminals', async () => {
    const api = await getApi();
    const value = `sk-scoped-${Math.random().toString(36).slice(2)}`;
    const added = nextAdded(api);
    const toolCall = invokeAskUser(secretQuestion('AQ_SCOPED'));
    api.reply((await added).id, { key: { selected: [], skipped: false, value } });
    await toolCall;
    try {
      assert.deepEqual(await storedHere(), [{ name: 'AQ_SCOPED', scope: 'workspace' }]);
      assert.equal(await terminalEnvHash('AQ_SCOPED'), sha256(value));
      assert.equal(JSON.stringify(await storedHere()).includes(value), false, 'the list holds names and scopes only');
    } finally {
      await vscode.commands.executeCommand('agentQuestions.manageSecrets', { deleteAll: true });
    }
    assert.deepEqual(await storedHere(), []);
  });

  test('prevents a secret from taking a name that changes how programs run, in the tool and the API', async () => {
    const api = await getApi();
    const text = resultText(await invokeAskUser(secretQuestion('LD_PRELOAD')));
    assert.match(
      text,
      /^ask_user input is invalid[\s\S]*- questions\[0\]\.envVar: "LD_PRELOAD" changes how programs run and cannot hold a secret; use a name of your own such as "MYAPP_API_KEY"/,
    );
    await assert.rejects(api.ask({ extensionId: 'tests.trusted', ...secretQuestion('NODE_OPTIONS') }), /questions\[0\]\.envVar: "NODE_OPTIONS" changes how programs run/);
    await assert.rejects(api.ask({ extensionId: 'tests.trusted', ...secretQuestion('AGENT_QUESTIONS_MCP_TOKEN') }), /is reserved for Agent Questions itself/);
    assert.deepEqual(api.list(), []);
  });

  test('prevents a malformed answers file from echoing its contents to the model; a scripted answer is marked as such', async () => {
    const api = await getApi();
    const canary = `sk-live-${Math.random().toString(36).slice(2)}`;
    const dir = mkdtempSync(join(tmpdir(), 'aq-answers-'));
    const file = join(dir, 'answers.json');
    const ask = (id: string) => invokeAskUser({ questions: [{ id, header: 'Pick', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] });
    try {
      writeFileSync(file, `{\n  "pick": "A",\n  "key": ${canary}\n}`);
      await setSetting('answersFile', file);
      await setSetting('mode', 'answersFile');
      const malformed = resultText(await ask('pick'));
      assert.equal(malformed.includes(canary), false, malformed);
      assert.match(parseResult(malformed).json.reason as string, /answers\.json is not valid JSON \(line 3, column 10\)\.$/);

      writeFileSync(file, JSON.stringify({ pick: 'B' }));
      const constructor = parseResult(resultText(await ask('constructor')));
      assert.deepEqual([constructor.json.status, constructor.json.reason], ['unavailable', 'The answers file has no entry for question "constructor".']);
      const scripted = parseResult(resultText(await ask('pick')));
      assert.equal(scripted.line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''), 'The answers file answered 1 question (not the user): pick = "B".');
      assert.equal(scripted.json.reason, 'Answered from the answers file agentQuestions.answersFile, not by the user.');
      assert.equal(api.history()[0]!.reason, 'Answered from the answers file agentQuestions.answersFile, not by the user.');
      assert.equal(JSON.stringify(api.history()).includes(canary), false);
    } finally {
      for (const key of ['mode', 'answersFile']) await setSetting(key, undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
