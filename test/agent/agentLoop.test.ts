import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { answerByClick, button, waitForRequest } from '../ui/panelHelpers';
import { ROOT, useWorkbench } from '../ui/workbench';
import { finalReply, send as sendIn, type ChatPlace } from './chat';

/** How long one try at opening the chat's finished steps gets before the next try: a retry interval, not a deadline. */
const REOPEN_STEPS_MS = 5_000;

// VS Code's own agent mode, with the scripted language model (test/fixtures/scripted-model): the
// model calls ask_user, the user answers in the sidebar, and the model's reply quotes what it received.
suite('The real agent loop (VS Code agent mode, scripted model)', () => {
  const ui = useWorkbench();

  const send = (prompt: string, where: ChatPlace = 'view') => sendIn(ui.workbench, prompt, where);

  // Chat editors a test opened would otherwise take the next test's focus.
  teardown(async () => {
    await ui.workbench.driver('command', { id: 'workbench.action.closeAllEditors' });
  });

  /** Rows of the Agent Questions Queue tree. */
  const queueRows = () => ui.workbench.page.locator('.pane', { has: ui.workbench.page.locator('.pane-header', { hasText: 'Queue' }) }).locator('.monaco-list-row');

  /** Everything the scripted model received, as one string. */
  const received = async () => JSON.stringify(await ui.workbench.driver('received'));

  test('one single-choice question: answered in the panel, and the model receives the typed answer', async function () {
    const chat = await send('Set up the service; ask me which database to use. scenario:database');
    // The first prompt also enables the built-in agent ("chat.allowAnonymousAccess"), which takes a while.
    const invocation = chat.locator('.interactive-list', { hasText: 'Asking 1 question (Database)' });
    await invocation.waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    await answerByClick(ui.panel, 'SQLite');
    const reply = await finalReply(chat);
    // The finished steps may be collapsed ("Completed 2 steps"); expanded, the step keeps our
    // invocation message (a past-tense form needs a proposed API, see the README).
    const response = chat.locator('.interactive-item-container.interactive-response').last();
    // Dispatched, not clicked: the list's sticky header can lie over the toggle and take the click.
    // The steps may collapse after we looked (the chat finishes rendering under load): open them until the step shows.
    // The collapsed list keeps a hidden copy of the text: look for the one on screen.
    const step = response.getByText('Asking 1 question (Database)').filter({ visible: true }).first();
    await until('the finished step "Asking 1 question (Database)" on screen', async () => {
      if (await step.isVisible()) return true;
      await response
        .getByText(/^Completed \d+ steps/)
        .dispatchEvent('click', undefined, { timeout: REOPEN_STEPS_MS })
        .catch(() => undefined);
      await step.waitFor({ timeout: REOPEN_STEPS_MS }).catch(() => undefined);
      return step.isVisible();
    });
    await ui.workbench.screenshot('agent-loop-answered');
    assert.match(reply, /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./);
    assert.match(reply, /"answers":\{"database":\{"selected":\["SQLite"\],"skipped":false\}\}/);
  });

  test('a two-question batch with a multi-select, an "Other" answer and a note', async function () {
    const chat = await send('Scaffold it. scenario:batch');
    await chat.locator('.interactive-list', { hasText: 'Asking 2 questions (Extras, Auth)' }).waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which extras?');
    await ui.panel.locator('vscode-checkbox[value="Redis"]').click();
    await ui.panel.locator('.checkbox-group vscode-checkbox').last().click();
    await ui.panel.locator('.other-field').click();
    await ui.workbench.page.keyboard.type('NATS');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-radio[value="API keys"]').click();
    await ui.panel.locator('.note-field:visible').click();
    await ui.workbench.page.keyboard.type('rotate monthly');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.review').waitFor();
    await button(ui.panel, 'submit').click();
    const reply = await finalReply(chat);
    assert.match(reply, /extras = \["Redis", other: "NATS"\]; auth = "API keys" \(note: "rotate monthly"\)\./);
    const answers = JSON.parse(/^\{"requestId".*$/m.exec(reply)![0]).answers;
    assert.deepEqual(answers, {
      extras: { selected: ['Redis'], other: 'NATS', skipped: false },
      auth: { selected: ['API keys'], note: 'rotate monthly', skipped: false },
    });
  });

  test('the README demo: the demo prompt asks through the sidebar and the reply uses the answers', async function () {
    const scenarios = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'scripted-model', 'scenarios.json'), 'utf8')).scenarios as Array<{ demoPrompt?: string }>;
    const demoPrompt = scenarios.find((s) => s.demoPrompt)!.demoPrompt!;
    assert.ok(readFileSync(join(ROOT, 'README.md'), 'utf8').includes(demoPrompt), 'the README shows the demo prompt');
    const chat = await send(demoPrompt);
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should the service use?');
    await ui.panel.locator('vscode-radio[value="SQLite"]').click();
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-checkbox[value="Authentication"]').click();
    await ui.panel.locator('vscode-checkbox[value="OpenAPI docs"]').click();
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.review').waitFor();
    await button(ui.panel, 'submit').click();
    const reply = await finalReply(chat, 'I will scaffold');
    await ui.workbench.screenshot('agent-loop-demo');
    assert.match(reply, /I will scaffold the service with SQLite as the database and these features: Authentication, OpenAPI docs\./);
  });

  test('invalid input first: the model reads the error, retries with valid input, and the loop completes', async function () {
    const chat = await send('Pick a database. scenario:invalid-first');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database?');
    await answerByClick(ui.panel, 'PostgreSQL');
    assert.match(await finalReply(chat), /database = "PostgreSQL"/);
    // VS Code's agent checks inputs against the JSON Schema first; cross-field mistakes (here a
    // duplicate id) pass that check and reach ask_user, whose model-readable message the model gets.
    assert.match(
      await received(),
      /ask_user input is invalid; nothing was asked\. Fix 1 problem and call ask_user again:\\+n- questions\[1\]\.id: .{0,8}database.{0,8} is already used by questions\[0\]; every id must be unique/,
    );
  });

  test('Stop in the chat while the question is shown settles it as cancelled and clears the panel and queue', async function () {
    await send('Which database? scenario:database');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    await ui.workbench.driver('command', { id: 'workbench.action.chat.cancel' });
    await ui.panel.locator('.notice', { hasText: 'The agent cancelled' }).waitFor();
    await ui.panel.locator('.empty').waitFor();
    assert.deepEqual(await ui.workbench.driver('list'), []);
    await queueRows().first().waitFor({ state: 'detached' });
    const history = await ui.workbench.driver<Array<{ status: string }>>('history');
    assert.equal(history[0]!.status, 'cancelled');
  });

  test('two chats asking at once: both wait in the queue, and each chat gets its own answer', async function () {
    const first = await send('Which database? scenario:database');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    const second = await send('Which runner? scenario:test-runner', 'editor');
    const queue = queueRows();
    await queue.filter({ hasText: 'Test runner' }).first().waitFor();
    await queue.filter({ hasText: 'Database' }).first().waitFor();
    assert.equal((await ui.workbench.driver<unknown[]>('list')).length, 2);
    await ui.workbench.screenshot('agent-loop-two-chats');

    // The panel shows the older request first; answer it, then the second.
    await answerByClick(ui.panel, 'SQLite');
    await waitForRequest(ui.panel, 'Which test runner should I use?');
    await answerByClick(ui.panel, 'Jest');

    const firstReply = await finalReply(first);
    const secondReply = await finalReply(second);
    assert.match(firstReply, /database = "SQLite"/);
    assert.doesNotMatch(firstReply, /runner/);
    assert.match(secondReply, /runner = "Jest"/);
    assert.doesNotMatch(secondReply, /database/);
    await queueRows().first().waitFor({ state: 'detached' });
  });

  test('a secret typed in the panel reaches the model only as its handle', async function () {
    const canary = `sk-agent-canary-${Date.now().toString(36)}`;
    const chat = await send('Run the staging tests. scenario:secret');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Your staging API key?');
    await ui.panel.locator('.secret-field').click();
    await ui.workbench.page.keyboard.type(canary);
    await button(ui.panel, 'submit').click();
    assert.match(await finalReply(chat), /api_key = stored in \$STAGING_API_KEY/);
    const everything = await received();
    assert.match(everything, /STAGING_API_KEY/);
    assert.equal(everything.includes(canary), false, 'the model never received the value');
    await ui.workbench.driver('command', { id: 'agentQuestions.manageSecrets', args: [{ deleteAll: true }] });
  });
});
