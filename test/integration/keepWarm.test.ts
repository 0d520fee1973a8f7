import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DATABASE_QUESTION, getApi, nextAdded, parseResult, resultText } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

suite('ask_user keeps the chat tokenizer warm while it waits', () => {
  test('counts tokens through the invocation about every 10 s while pending, and stops once answered', async function () {
    const api = await getApi();
    const counted: Array<{ text: string; at: number }> = [];
    // What the chat hands every tool invocation; the agent's countTokens goes to its tokenizer.
    const tokenizationOptions: vscode.LanguageModelToolTokenizationOptions = {
      tokenBudget: 1000,
      countTokens: async (text) => (counted.push({ text, at: Date.now() }), Math.ceil(text.length / 4)),
    };
    const added = nextAdded(api);
    const pending = vscode.lm.invokeTool('ask_user', { input: DATABASE_QUESTION, toolInvocationToken: undefined, tokenizationOptions });
    const request = await added;
    const addedAt = Date.now();

    // Waits for the count, not for a time: under load a timer may fire late, never early.
    while (counted.length === 0) await sleep(100);
    assert.equal(counted.length, 1);
    const after = counted[0]!.at - addedAt;
    assert.ok(after >= 9_000 && after <= 20_000, `counted ${after} ms after the request was added (expected about 10 s)`);
    assert.ok(!counted[0]!.text.includes('SQLite') && !counted[0]!.text.includes('database'), 'the counted text is not the request');

    assert.equal(api.reply(request.id, { database: { selected: ['SQLite'], skipped: false } }), true);
    assert.equal((parseResult(resultText(await pending)).json as { status: string }).status, 'answered');
    await sleep(10_500);
    assert.equal(counted.length, 1, 'no counting after the request settled');
  });
});
