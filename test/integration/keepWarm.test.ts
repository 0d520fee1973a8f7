import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { KEEP_WARM_INTERVAL_MS } from '../../src/extension/tokenizerKeepWarm';
import { quietFor, until } from '../harness/deadline';
import { DATABASE_QUESTION, getApi, nextAdded, parseResult, resultText } from './helpers';

// The keep-warm interval is a product timer, measured without trusting the machine to be fast: a timer
// never fires early, and of two timers of the same length in one event loop (this test runs in the
// extension host with the extension) the one started first fires first. A busy machine delays both alike.
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
    // Before the call, so before the interval starts: the first count can come no sooner than 10 s after this.
    const calledAt = Date.now();
    const pending = vscode.lm.invokeTool('ask_user', { input: DATABASE_QUESTION, toolInvocationToken: undefined, tokenizationOptions });
    const request = await added;
    // Started once the request is added, so after the interval: by the time it fires, the interval has counted.
    const countedWithin10s = new Promise<number>((resolve) => setTimeout(() => resolve(counted.length), KEEP_WARM_INTERVAL_MS));

    await until('the first count', () => counted.length > 0);
    assert.equal(counted.length, 1);
    const after = counted[0]!.at - calledAt;
    assert.ok(after >= 9_000, `counted ${after} ms after ask_user was called (expected about 10 s, never sooner)`);
    assert.equal(await countedWithin10s, 1, 'counted once, no later than 10 s after the request was added');
    assert.ok(!counted[0]!.text.includes('SQLite') && !counted[0]!.text.includes('database'), 'the counted text is not the request');

    assert.equal(api.reply(request.id, { database: { selected: ['SQLite'], skipped: false } }), true);
    assert.equal((parseResult(resultText(await pending)).json as { status: string }).status, 'answered');
    // Had the interval gone on, its next count would come before this pause (started later) ends.
    await quietFor(KEEP_WARM_INTERVAL_MS);
    assert.equal(counted.length, 1, 'no counting after the request settled');
  });
});
