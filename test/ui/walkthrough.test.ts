import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { button, chooseAndSubmit, invoke, toolResult, typeIntoField, waitForRequest } from './panelHelpers';
import { useWorkbench, type Workbench } from './workbench';

const TITLE = 'Get Started with Agent Questions';
/** A walkthrough step in the Welcome editor; VS Code keeps aria-checked in step with its completion. */
const step = (page: Page, id: string) => page.locator(`.gettingStartedContainer button.getting-started-step[data-step-id$="#${id}"]`);
const stepButton = (page: Page, label: string) => page.locator('.gettingStartedContainer .monaco-button', { hasText: label }).first();
const isDone = async (page: Page, id: string) => (await step(page, id).getAttribute('aria-checked')) === 'true';
const waitDone = (page: Page, id: string) => step(page, id).and(page.locator('[aria-checked="true"]')).waitFor();

async function openWalkthrough(workbench: Workbench): Promise<void> {
  await workbench.runCommand('Welcome: Open Walkthrough');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.fill('Agent Questions');
  await workbench.page.locator('.quick-input-list .monaco-list-row', { hasText: TITLE }).first().waitFor();
  await input.press('Enter');
  await workbench.page.locator('.gettingStartedContainer', { hasText: TITLE }).first().waitFor();
}

suite('Walkthrough in the real workbench', () => {
  const ui = useWorkbench();

  test('opens with its four steps; "Answer a sample question" is done after its button asks the sample', async () => {
    const { page } = ui.workbench;
    await openWalkthrough(ui.workbench);
    for (const id of ['askSample', 'letAgentAsk', 'connectCliAgent', 'storeSecret']) assert.equal(await isDone(page, id), false, `${id} starts not done`);
    // Each step carries its picture (shown beside the steps when the editor is wide enough).
    assert.equal(await page.locator('.gettingStartedContainer img[alt^="The Question panel showing"]').count(), 1);
    await ui.workbench.screenshot('walkthrough-opened');

    await stepButton(page, 'Ask a Sample Question').click();
    await waitForRequest(ui.panel, 'Which database should the new service use?');
    await waitDone(page, 'askSample');
    await button(ui.panel, 'submit').click();
    await ui.panel.locator('.empty', { hasText: 'No agent is waiting for you.' }).waitFor();
    // The sample is not an agent: "Let the agent ask you" waits for a real request.
    assert.equal(await isDone(page, 'letAgentAsk'), false, 'the sample must not complete the agent step');
    await ui.workbench.screenshot('walkthrough-sample-done');
  });

  test('"Let the agent ask you" is done once a request comes through the ask_user tool', async () => {
    const { page } = ui.workbench;
    await openWalkthrough(ui.workbench);
    const call = await invoke(ui.workbench, {
      questions: [{ id: 'framework', header: 'Framework', question: 'Which test framework?', options: [{ label: 'mocha' }, { label: 'vitest' }] }],
    });
    await waitForRequest(ui.panel, 'Which test framework?');
    await waitDone(page, 'letAgentAsk');
    await chooseAndSubmit(ui.panel, 'mocha');
    assert.equal((await toolResult(ui.workbench, call)).json.status, 'answered');
  });

  test('"Store a secret" is done only after the sample secret is typed and stored, not when it is asked', async () => {
    const { page } = ui.workbench;
    await openWalkthrough(ui.workbench);
    await step(page, 'storeSecret').click();
    await stepButton(page, 'Ask for a Sample Secret').click();
    await waitForRequest(ui.panel, 'Type a made-up token');
    assert.equal(await isDone(page, 'storeSecret'), false, 'asking is not storing');
    await typeIntoField(ui.workbench, ui.panel, '.secret-field', 'made-up-walkthrough-token');
    await button(ui.panel, 'submit').click();
    await waitDone(page, 'storeSecret');
    const stored = await ui.workbench.driver<{ value: Array<{ name: string }> }>('command', { id: 'agentQuestions.manageSecrets', args: [{ list: true }] });
    assert.deepEqual(
      stored.value.map((s) => s.name),
      ['SAMPLE_API_KEY'],
    );
    await ui.workbench.screenshot('walkthrough-secret-done');
    await ui.workbench.driver('command', { id: 'agentQuestions.manageSecrets', args: [{ delete: 'SAMPLE_API_KEY' }] });
  });

  test('"Connect a CLI agent" is done when its button runs Connect an External Agent', async () => {
    const { page } = ui.workbench;
    await openWalkthrough(ui.workbench);
    await step(page, 'connectCliAgent').click();
    assert.equal(await isDone(page, 'connectCliAgent'), false);
    await stepButton(page, 'Connect an External Agent').click();
    await waitDone(page, 'connectCliAgent');
  });
});
