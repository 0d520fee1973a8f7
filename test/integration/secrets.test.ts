import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { getApi, invokeAskUser, nextAdded, parseResult, resultText } from './helpers';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const secretQuestion = (envVar: string, extra: object = {}) => ({ questions: [{ id: 'key', header: 'API key', question: 'Your key?', kind: 'secret' as const, envVar, ...extra }] });

/** Starts a new integrated terminal and returns the SHA-256 of $name in its environment (never the value itself). */
async function terminalEnvHash(name: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'aq-terminal-'));
  const file = join(dir, 'hash');
  const terminal = vscode.window.createTerminal({ name: 'env probe', shellPath: '/bin/sh', shellArgs: ['-c', `printf %s "$${name}" | sha256sum | cut -c1-64 > ${file}.tmp && mv ${file}.tmp ${file}`] });
  try {
    for (let i = 0; i < 200 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
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
});
