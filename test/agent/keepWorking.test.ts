import * as assert from 'node:assert/strict';
import { until } from '../harness/deadline';
import { answerByClick, waitForRequest } from '../ui/panelHelpers';
import { useWorkbench } from '../ui/workbench';
import { finalReply, send, sendFollowUp } from './chat';

// ask_user with wait: false in VS Code's own agent mode (scripted model, test/fixtures/scripted-model):
// the model goes on with other tools while the question waits, and collects the answer with get_answers.
suite('Ask and keep working (VS Code agent mode, scripted model)', () => {
  const ui = useWorkbench();

  const pending = () => ui.workbench.driver<Array<{ id: string; keepsWorking?: boolean }>>('list');

  test('the model calls another tool while the question waits, the user answers in the panel, and get_answers brings the answer into the reply', async function () {
    const chat = await send(ui.workbench, 'Plan the service and keep working while I decide. scenario:keep-working');
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use later?');
    await ui.panel.locator('.keeps-working', { hasText: 'The agent keeps working' }).waitFor();
    // ask_user returned at once: the model is already in its next tool call, and the question still waits.
    await until('the model to be in its next tool call (held by the driver)', async () => (await ui.workbench.driver<{ count: number }>('held')).count === 1);
    const waiting = await pending();
    assert.equal(waiting.length, 1);
    assert.equal(waiting[0]!.keepsWorking, true);
    await answerByClick(ui.panel, 'SQLite');
    await until('the answered question to leave the queue', async () => (await pending()).length === 0);
    await ui.workbench.driver('releaseHold', { text: 'OTHER WORK DONE' });
    const reply = await finalReply(chat);
    assert.match(reply, /MODEL RECEIVED: "[\w-]+": The user answered 1 question: database = "SQLite"\./);
    const tools = (await ui.workbench.driver<Array<{ tool: string }>>('toolCalls')).map((c) => c.tool).slice(-3);
    assert.deepEqual(tools, ['ask_user', 'agent_questions_test_hold', 'get_answers']);
  });

  test('the answer is collected in the next chat turn; another chat cannot collect it', async function () {
    const chat = await send(ui.workbench, 'Ask me about the database but do not wait. scenario:ask-later');
    const first = await finalReply(chat);
    assert.match(first, /MODEL RECEIVED: The question waits for the user in VS Code \(request id "([\w-]+)"\); you were not blocked\./);
    const id = /request id "([\w-]+)"/.exec(first)![1]!;
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use later?');
    await answerByClick(ui.panel, 'PostgreSQL');
    await until('the answered question to leave the queue', async () => (await pending()).length === 0);

    // The next turn of the same chat: the model finds the id in the chat and collects the answer.
    await sendFollowUp(ui.workbench, chat, 'Now read my answer. scenario:collect-later');
    const second = await finalReply(chat, 'The user answered');
    assert.match(second, new RegExp(`"${id}": The user answered 1 question: database = "PostgreSQL"\\.`));

    // Another chat, given the same id, is told it does not know it.
    const other = await send(ui.workbench, `Read the answer to id=${id} for me. scenario:collect-later`);
    const refused = await finalReply(other);
    assert.match(refused, /"status":"unknown"/);
    assert.doesNotMatch(refused, /PostgreSQL/);
    await ui.workbench.screenshot('agent-keep-working-collected');
  });
});
