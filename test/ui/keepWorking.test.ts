import * as assert from 'node:assert/strict';
import { answerByClick, invoke, toolResult, waitForRequest, type ToolCall } from './panelHelpers';
import { queueRows, useWorkbench } from './workbench';

// A question asked with wait: false, as the user sees it: marked in the panel and the Queue.
suite('A question the agent does not wait for', () => {
  const ui = useWorkbench();

  test('is marked "the agent keeps working" in the panel and the Queue, and its answer is collected with get_answers', async () => {
    const { page, driver } = ui.workbench;
    const asked = await toolResult(
      ui.workbench,
      await invoke(ui.workbench, {
        wait: false,
        questions: [{ id: 'region', header: 'Region', question: 'Which region should the staging stack use?', options: [{ label: 'eu-west-1' }, { label: 'us-east-1' }] }],
      }),
    );
    assert.equal(asked.json.status, 'waiting');
    const id = asked.json.requestId as string;
    await waitForRequest(ui.panel, 'Which region should the staging stack use?');
    await ui.panel.locator('.keeps-working', { hasText: 'The agent keeps working; it will read your answer when it checks.' }).waitFor();
    const row = queueRows(page).filter({ hasText: 'Region' }).first();
    await row.waitFor();
    assert.match(await row.innerText(), /agent keeps working/);
    await ui.workbench.screenshot('keeps-working-panel-and-queue');

    const collect = () => driver<ToolCall>('invokeTool', { name: 'get_answers', input: { ids: [id] } }).then((call) => toolResult(ui.workbench, call));
    assert.equal((await collect()).json.results[0].status, 'waiting');
    await answerByClick(ui.panel, 'eu-west-1');
    await row.waitFor({ state: 'detached' });
    const collected = await collect();
    assert.match(collected.line, /The user answered 1 question: region = "eu-west-1"\./);
    assert.deepEqual(collected.json.results[0].answers, { region: { selected: ['eu-west-1'], skipped: false } });
  });
});
