import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { DATABASE_QUESTION, EXTENSION_ID, getApi, invokeAskUser, nextAdded, nextChange, parseResult, resultText } from './helpers';

suite('Agent Questions in a real extension host', () => {
  test('activates and exports its API', async () => {
    const api = await getApi();
    assert.equal(vscode.extensions.getExtension(EXTENSION_ID)?.isActive, true);
    for (const method of ['ask', 'list', 'reply', 'reject', 'onDidChange'] as const) assert.equal(typeof api[method], 'function', method);
    assert.deepEqual(api.list(), []);
  });

  test('lists ask_user among the language-model tools with the generated schema', async () => {
    const tool = vscode.lm.tools.find((t) => t.name === 'ask_user');
    assert.ok(tool, `ask_user missing from vscode.lm.tools (${vscode.lm.tools.map((t) => t.name).join(', ')})`);
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { languageModelTools: Array<{ inputSchema: unknown }> } };
    assert.deepEqual(tool.inputSchema, manifest.contributes.languageModelTools[0]!.inputSchema);
    assert.ok(tool.description.includes('vscode_askQuestions'));
  });

  test('invokeTool round trip: the request waits in the queue and the API answers it', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const pending = invokeAskUser(DATABASE_QUESTION);
    const request = await added;
    assert.equal(request.kind, 'questions');
    assert.equal(request.source.label, 'Chat tool');
    assert.deepEqual(
      api.list().map((r) => r.id),
      [request.id],
    );

    assert.equal(api.reply(request.id, { database: { selected: ['SQLite'], skipped: false } }), true);
    const { line, json } = parseResult(resultText(await pending));
    assert.equal(line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''), 'The user answered 1 question: database = "SQLite".');
    assert.deepEqual(json, { requestId: request.id, status: 'answered', answers: { database: { selected: ['SQLite'], skipped: false } } });
    assert.deepEqual(api.list(), []);
    assert.equal(api.reply(request.id, { database: { selected: ['PostgreSQL'], skipped: false } }), false, 'a late reply is ignored');
  });

  test('cancelling the invocation token settles the request as cancelled and empties the queue', async () => {
    const api = await getApi();
    const source = new vscode.CancellationTokenSource();
    const added = nextAdded(api);
    const settled = nextChange(api, 'settled');
    const pending = invokeAskUser(DATABASE_QUESTION, source.token).then(resultText, (error: unknown) => error);
    const request = await added;
    source.cancel();
    const change = await settled;
    assert.equal(change.request.id, request.id);
    assert.equal(change.response.status, 'cancelled');
    assert.deepEqual(api.list(), []);
    const outcome = await pending;
    // VS Code may surface the cancellation as a CancellationError instead of the tool's text.
    if (typeof outcome === 'string') assert.equal((parseResult(outcome).json as { status: string }).status, 'cancelled');
    else assert.ok(outcome instanceof Error && /cancel/i.test(outcome.message), String(outcome));
    source.dispose();
  });

  test('malformed input returns a model-readable error and asks nothing', async () => {
    const api = await getApi();
    const input = { questions: [{ id: 'Database', header: 'Database', question: 'Which?', options: [{ label: 'Only one' }] }] };
    const text = resultText(await invokeAskUser(input));
    assert.equal(
      text,
      [
        'ask_user input is invalid; nothing was asked. Fix 2 problems and call ask_user again:',
        '- questions[0].id: must be snake_case: lowercase letters, digits and underscores, starting with a letter (got "Database"); e.g. "database"',
        '- questions[0].options: needs 2 to 6 options (got 1); use kind "text" for an open question',
      ].join('\n'),
    );
    assert.deepEqual(api.list(), []);
  });

  test('the sample command asks through invokeTool and returns what the tool returned', async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const command = vscode.commands.executeCommand<string>('agentQuestions.askSampleQuestion');
    const request = await added;
    assert.ok(request.kind === 'questions' && request.questions[0]?.id === 'database');
    api.reply(request.id, { database: { selected: ['PostgreSQL'], skipped: false } });
    const { line } = parseResult(await command);
    assert.equal(line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''), 'The user answered 1 question: database = "PostgreSQL".');
  });

  test('the Question view and the Queue view open', async () => {
    await vscode.commands.executeCommand('agentQuestions.panel.focus');
    await vscode.commands.executeCommand('agentQuestions.queue.focus');
  });
});
