import * as assert from 'node:assert/strict';
import { until } from '../harness/deadline';
import { reloadWebviews } from './auditHelpers';
import { answerByClick, button, FOUR_KINDS, invoke, toolResult, waitForRequest } from './panelHelpers';
import { hideQuestionPanel, openAgentQuestionsView, useWorkbench } from './workbench';

suite('Question panel: every answer shape, keyboard, queue order, cancellation, drafts', () => {
  const ui = useWorkbench();

  test('answers every kind by mouse, with "Other…" and a note', async () => {
    const call = await invoke(ui.workbench, FOUR_KINDS);
    await waitForRequest(ui.panel, 'Database');
    await ui.panel.locator('vscode-radio[value="SQLite"]').click();
    await ui.panel.locator('.note-field').click();
    await ui.workbench.page.keyboard.type('v3 is fine');
    await button(ui.panel, 'next').click();

    await ui.panel.locator('vscode-checkbox[value="Redis"]').click();
    await ui.panel.locator('vscode-checkbox[value="S3"]').click();
    await ui.panel.locator('.checkbox-group vscode-checkbox').last().click();
    await ui.panel.locator('.other-field').click();
    await ui.workbench.page.keyboard.type('NATS');
    await ui.panel.locator('.chip-button', { hasText: 'Name' }).click();

    await ui.panel.locator('vscode-text-area').click();
    await ui.workbench.page.keyboard.type('billing-api');
    await button(ui.panel, 'next').click();

    const secret = 'sk_test_mouse_51H8';
    await ui.panel.locator('.secret-field').click();
    await ui.workbench.page.keyboard.type(secret);
    await ui.panel.locator('.secret-toggle').click();
    assert.equal(await ui.panel.locator('.secret-field').getAttribute('type'), 'text', 'Show reveals the value');
    await ui.panel.locator('.secret-toggle').click();
    assert.equal(await ui.panel.locator('.secret-field').getAttribute('type'), 'password');
    await button(ui.panel, 'next').click();

    await ui.panel.locator('.review').waitFor();
    assert.match(
      await ui.panel.locator('.review').innerText(),
      /SQLite \(note: v3 is fine\)[\s\S]*Redis, S3, Other: NATS[\s\S]*billing-api[\s\S]*A value for STRIPE_TEST_KEY \(hidden\)/,
    );
    await ui.workbench.screenshot('panel-review');
    await button(ui.panel, 'submit').click();

    const { json, text } = await toolResult(ui.workbench, call);
    assert.equal(json.status, 'answered');
    assert.deepEqual(json.answers, {
      database: { selected: ['SQLite'], note: 'v3 is fine', skipped: false },
      extras: { selected: ['Redis', 'S3'], other: 'NATS', skipped: false },
      service_name: { selected: ['billing-api'], skipped: false },
      api_key: { selected: [], skipped: false, secret: { stored: true, envVar: 'STRIPE_TEST_KEY' } },
    });
    assert.equal(text.includes(secret), false, 'the secret never reaches the tool result');
    await ui.panel.locator('.empty').waitFor();
  });

  test('answers every kind by keyboard only', async () => {
    const { page } = ui.workbench;
    const call = await invoke(ui.workbench, FOUR_KINDS);
    await waitForRequest(ui.panel, 'Database');
    // The user brings focus to the question (a request that arrives never takes it).
    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    await ui.panel.locator('vscode-radio:focus').waitFor();
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    await ui.panel.locator('.question[data-kind="multi"]').waitFor();
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await ui.panel.locator('.question[data-kind="text"]').waitFor();
    await page.keyboard.type('ledger');
    await page.keyboard.press('Tab');
    await page.keyboard.type('from the keyboard');
    await page.keyboard.press('Enter');
    await ui.panel.locator('.question[data-kind="secret"]').waitFor();
    await page.keyboard.type('sk_test_keys_77');
    await page.keyboard.press('Enter');
    await ui.panel.locator('.review').waitFor();
    await page.keyboard.press('Control+Enter');

    const { json } = await toolResult(ui.workbench, call);
    assert.deepEqual(json.answers, {
      database: { selected: ['MongoDB'], skipped: false },
      extras: { selected: ['Redis', 'S3'], skipped: false },
      service_name: { selected: ['ledger'], note: 'from the keyboard', skipped: false },
      api_key: { selected: [], skipped: false, secret: { stored: true, envVar: 'STRIPE_TEST_KEY' } },
    });
  });

  test('three questions with one unanswered: confirmation first, then sent as skipped', async () => {
    const call = await invoke(ui.workbench, { questions: FOUR_KINDS.questions.slice(0, 3) });
    await waitForRequest(ui.panel, 'Database');
    await ui.panel.locator('.chip-button', { hasText: 'Extras' }).click();
    await ui.panel.locator('vscode-checkbox[value="Kafka"]').click();
    await ui.panel.locator('.chip-button', { hasText: 'Review' }).click();
    await button(ui.panel, 'submit').click();
    const confirm = ui.panel.locator('.confirm p');
    await confirm.waitFor();
    assert.equal(await confirm.innerText(), '1 question is unanswered (Name) and will be sent as skipped.');
    await ui.workbench.screenshot('panel-skip-confirmation');
    await button(ui.panel, 'confirm-skip').click();
    const { json, line } = await toolResult(ui.workbench, call);
    assert.deepEqual(json.answers, {
      database: { selected: ['PostgreSQL'], skipped: false },
      extras: { selected: ['Kafka'], skipped: false },
      service_name: { selected: [], skipped: true },
    });
    assert.equal(
      line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''),
      'The user answered 3 questions: database = "PostgreSQL"; extras = ["Kafka"]; service_name = skipped.',
    );
  });

  test('a permission prompt jumps ahead of a waiting question, never replacing the one on screen', async () => {
    const first = await invoke(ui.workbench, { questions: [{ id: 'first', header: 'First', question: 'First question?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    await waitForRequest(ui.panel, 'First question?');
    const second = await invoke(ui.workbench, { questions: [{ id: 'second', header: 'Second', question: 'Second question?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    const permission = await ui.workbench.driver<{ callId: number }>('permission', {
      request: { extensionId: 'tests.driver', title: 'Run the migration?', detail: 'Runs `npm run migrate` against **staging**.' },
    });
    await ui.panel.locator('.waiting', { hasText: '2 more waiting' }).waitFor();
    assert.equal(await ui.panel.locator('.request .question-text').innerText(), 'First question?', 'the shown request stays');
    const rows = ui.workbench.page.locator('.monaco-list-row', { hasText: /Run the migration\?|Second/ });
    assert.match(await rows.first().innerText(), /Run the migration\?/, 'the queue lists the permission first');

    await answerByClick(ui.panel, 'No');
    assert.equal((await toolResult(ui.workbench, first)).json.answers.first.selected[0], 'No');

    await waitForRequest(ui.panel, 'Run the migration?');
    await ui.workbench.screenshot('panel-permission');
    await button(ui.panel, 'allow_once').click();
    const decided = await ui.workbench.driver<{ value: { decision: string } }>('await', { callId: permission.callId });
    assert.equal(decided.value.decision, 'allow_once');

    await waitForRequest(ui.panel, 'Second question?');
    // Keys act on a request once the user comes to it: here, a click on it.
    await ui.panel.locator('.request .question-text').click();
    await ui.workbench.page.keyboard.press('Escape');
    await ui.panel.locator('.confirm', { hasText: 'Reject this request?' }).waitFor();
    await ui.workbench.page.keyboard.press('Escape');
    assert.equal((await toolResult(ui.workbench, second)).json.status, 'rejected');
  });

  test('a request cancelled by the agent while shown disappears with a notice', async () => {
    const call = await invoke(ui.workbench, { questions: [{ id: 'doomed', header: 'Doomed', question: 'Will this be cancelled?', options: [{ label: 'Yes' }, { label: 'No' }] }] });
    await waitForRequest(ui.panel, 'Will this be cancelled?');
    await ui.workbench.driver('cancel', { callId: call.callId });
    await ui.panel.locator('.notice', { hasText: 'The agent cancelled the request you were looking at.' }).waitFor();
    await ui.panel.locator('.empty').waitFor();
    assert.equal(await ui.panel.locator('.request').count(), 0);
    assert.deepEqual(await ui.workbench.driver('list'), []);
    await ui.workbench.screenshot('panel-cancelled-notice');
  });

  test('drafts survive hiding the view and reloading the webview; secrets do not', async () => {
    const { page } = ui.workbench;
    const call = await invoke(ui.workbench, { questions: FOUR_KINDS.questions.slice(2) });
    await waitForRequest(ui.panel, 'What should the service be called?');
    await ui.panel.locator('vscode-text-area').click();
    await page.keyboard.type('draft-name');
    await button(ui.panel, 'next').click();
    // The first test stored STRIPE_TEST_KEY, so "use the stored value" is offered first.
    await ui.panel.locator('.secret-choice vscode-radio[value="type"]').click();
    await ui.panel.locator('.secret-field').click();
    await page.keyboard.type('sk_never_saved');
    await ui.panel.locator('.chip-button', { hasText: 'Name' }).click();

    await hideQuestionPanel(page);
    await openAgentQuestionsView(page);
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'What should the service be called?');
    assert.equal(await ui.panel.locator('vscode-text-area').evaluate((e) => (e as unknown as { value: string }).value), 'draft-name');

    await reloadWebviews(ui);
    await waitForRequest(ui.panel, 'What should the service be called?');
    assert.equal(await ui.panel.locator('vscode-text-area').evaluate((e) => (e as unknown as { value: string }).value), 'draft-name');
    await ui.panel.locator('.chip-button', { hasText: 'API key' }).click();
    assert.equal(await ui.panel.locator('.secret-field').evaluate((e) => (e as unknown as { value: string }).value), '', 'secrets are not kept');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    assert.equal((await toolResult(ui.workbench, call)).json.status, 'rejected');
  });

  test('prevents a stolen answer: a request revealed while the user types elsewhere ignores their Enter until they come to it', async () => {
    const { page } = ui.workbench;
    await hideQuestionPanel(page);
    await ui.workbench.driver('command', { id: 'workbench.action.files.newUntitledFile' });
    await page.locator('.editor-instance .monaco-editor textarea').first().waitFor();
    await page.keyboard.type('typing in an editor');
    const call = await invoke(ui.workbench, {
      questions: [{ id: 'reveal', header: 'Reveal', question: 'Did the panel come to you?', options: [{ label: 'Yes', recommended: true }, { label: 'No' }] }],
    });
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Did the panel come to you?');
    // Keys meant for the editor: with focus stolen, Enter would send the preselected "Yes".
    await page.keyboard.press('Enter');
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    const editorText = page.locator('.editor-instance .monaco-editor .view-lines').first();
    await until('the keys to reach the editor', async () => /typing\sin\san\seditor[\s\S]*1/.test(await editorText.innerText()));
    await ui.workbench.driver('ping'); // a round trip through the panel: a reply sent on those keys would have reached the host first
    assert.equal((await ui.workbench.driver<unknown[]>('list')).length, 1, 'the request still waits');
    assert.match(await editorText.innerText(), /typing\sin\san\seditor[\s\S]*1/, 'the keys reached the editor (Monaco renders spaces as no-break spaces)');
    await ui.workbench.screenshot('panel-revealed-without-focus');

    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    await ui.panel.locator('vscode-radio:focus').waitFor();
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    assert.equal((await toolResult(ui.workbench, call)).json.answers.reveal.selected[0], 'No');
    await ui.workbench.driver('command', { id: 'workbench.action.revertAndCloseActiveEditor' });
  });

  test('history lists settled requests with who decided, and secrets shown only as their variable', async () => {
    await ui.panel.locator('.history summary').click();
    const text = await ui.panel.locator('.history').innerText();
    assert.match(text, /Answered[\s\S]*API key: stored in STRIPE_TEST_KEY[\s\S]*Decided by you in the panel/);
    assert.match(text, /Rejected/);
    assert.equal(/sk_test_/.test(text), false);
    await ui.workbench.screenshot('panel-history');
  });
});
