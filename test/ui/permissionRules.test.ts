import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { button, waitForRequest } from './panelHelpers';
import { openAgentQuestionsView, useWorkbench } from './workbench';

// The prompt's "Always" rules in the real panel: one rule per sub-command of a chained line and the
// line itself, what the chosen rule would have allowed of the recent commands, where it applies,
// Always deny, and the rules listed with their scopes; a session rule is gone when the extension
// window reloads, a workspace rule stays.
suite('"Always allow" and "Always deny" in the permission prompt', () => {
  const ui = useWorkbench();

  const ask = (command: string) =>
    ui.workbench.driver<{ callId: number }>('permission', { request: { extensionId: 'tests.rules', title: 'Run a command?', detail: command, command } });
  const settled = async (call: { callId: number }) =>
    (await ui.workbench.driver<{ value: { decision?: string; status: string; scope?: string } }>('await', { callId: call.callId })).value;
  let call: { callId: number };
  const pick = (label: string) => ui.panel.locator('.rule-choice vscode-radio', { hasText: label }).first().click();

  test('a chained command offers a rule per sub-command and the line; the preview names what it would have allowed and a denied command; the scope is chosen; Always deny is remembered; the rules list shows scopes', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    // A command the user denies: a later rule that would cover it says so.
    call = await ask('npm test -- --bail');
    await waitForRequest(ui.panel, 'Run a command?');
    await button(ui.panel, 'deny').click();
    assert.equal((await settled(call)).decision, 'deny');

    call = await ask('npm test && npm run lint');
    await ui.panel.locator('.tool-call pre.command', { hasText: 'npm test && npm run lint' }).waitFor();
    const choices = (await ui.panel.locator('.rule-choice vscode-radio code').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(choices, ['npm test', 'npm test …', 'npm run lint', 'npm run lint …', 'npm test && npm run lint']);
    await ui.workbench.screenshot('permission-rule-choices-chained');
    await pick('npm test …');
    await ui.panel.locator('.rule-denied', { hasText: 'npm test -- --bail' }).waitFor();
    assert.match(await ui.panel.locator('.rule-preview').innerText(), /Rule: npm test …[\s\S]*npm test -- --bail/);
    await ui.panel.locator('.rule-preview').scrollIntoViewIfNeeded();
    await ui.workbench.screenshot('permission-rule-preview');
    await ui.panel.locator('.scope-choice vscode-radio', { hasText: 'This session' }).click();
    assert.equal((await button(ui.panel, 'allow_always').innerText()).trim(), 'Always allow `npm test …` in this session');
    await button(ui.panel, 'allow_always').click();
    assert.deepEqual(await settled(call).then((r) => [r.decision, r.scope]), ['allow_always', 'session']);

    // Always deny, in this workspace (the default scope).
    call = await ask('git push --force origin main');
    await ui.panel.locator('.tool-call pre.command', { hasText: 'git push --force' }).waitFor();
    // One rule only (git push is not a modelled tool: no prefix), so no choice to make: the rule is shown.
    assert.match(await ui.panel.locator('.rule-preview').innerText(), /Rule: git push --force origin main/);
    assert.equal((await button(ui.panel, 'deny_always').innerText()).trim(), 'Always deny `git push --force origin main` in this workspace');
    await button(ui.panel, 'deny_always').scrollIntoViewIfNeeded();
    await ui.workbench.screenshot('permission-always-deny');
    await button(ui.panel, 'deny_always').click();
    assert.equal((await settled(call)).decision, 'deny');
    // Decided without asking now.
    call = await ask('git push --force origin main');
    assert.equal((await settled(call)).decision, 'deny');
    call = await ask('npm test -- --watch');
    assert.equal((await settled(call)).decision, 'allow_always');

    await ui.workbench.runCommand('Agent Questions: Manage Remembered Permissions');
    const picker = ui.workbench.page.locator('.quick-input-widget');
    await picker.locator('.monaco-list-row', { hasText: 'git push --force origin main' }).waitFor();
    const rows = await picker.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    assert.ok(
      rows.some((r) => /npm test …[\s\S]*Always allow · this session · granted to Extension tests\.rules[\s\S]*used 1 times/.test(r)),
      rows.join(' | '),
    );
    assert.ok(
      rows.some((r) => /git push --force origin main[\s\S]*Always deny · this workspace/.test(r)),
      rows.join(' | '),
    );
    await ui.workbench.screenshot('remembered-permissions-scopes');
    await ui.workbench.page.keyboard.press('Escape');

    // A reload starts a new session: a new extension host, whose session rules start empty.
    const host = () =>
      ui.workbench.driver<{ value: number }>('host').then(
        (r) => r.value,
        () => undefined,
      );
    const before = await host();
    await ui.workbench.runCommand('Developer: Reload Window');
    await ui.workbench.page.locator('.monaco-workbench').waitFor();
    // Until the new host answers (the old one may answer a little longer, then go).
    await until('a new extension host to answer after the reload', async () => {
      const now = await host();
      return now !== undefined && now !== before;
    });
    assert.notEqual(await host(), before, 'a new extension host answers');
    await openAgentQuestionsView(ui.workbench.page);
    ui.panel = await ui.workbench.panel();
    call = await ask('npm test -- --watch');
    await waitForRequest(ui.panel, 'Run a command?');
    await button(ui.panel, 'deny').click();
    assert.equal((await settled(call)).decision, 'deny', 'the session rule is gone');
    call = await ask('git push --force origin main');
    assert.equal((await settled(call)).decision, 'deny', 'the workspace rule stays');
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  test('a workspace rule does not apply in another workspace; an all-workspaces rule does (and is in the user settings)', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    /** Asks, picks the rule and scope in the panel, and chooses Always allow. */
    const grant = async (command: string, rule: string, scope: string) => {
      const call = await ask(command);
      await ui.panel.locator('.tool-call pre.command', { hasText: command }).waitFor();
      await pick(rule);
      await ui.panel.locator('.scope-choice vscode-radio', { hasText: scope }).click();
      await button(ui.panel, 'allow_always').click();
      assert.equal((await settled(call)).decision, 'allow_always');
    };
    await grant('cargo check', 'cargo check …', 'This workspace');
    await grant('make lint', 'make lint …', 'All workspaces');
    call = await ask('cargo check --all');
    assert.equal((await settled(call)).decision, 'allow_always', 'the workspace rule applies here');

    // The same window opens another folder: a new extension host, the same user profile.
    const other = mkdtempSync(join(tmpdir(), 'aq-other-workspace-'));
    try {
      const url = new URL(ui.workbench.page.url());
      url.searchParams.set('folder', other);
      await ui.workbench.page.goto(url.toString());
      await ui.workbench.page.locator('.monaco-workbench').waitFor();
      const folders = () =>
        ui.workbench.driver<{ value: string[] }>('workspaceFolders').then(
          (r) => r.value,
          (): string[] => [],
        );
      await until('the extension host of the other folder to answer', async () => (await folders()).includes(other));
      assert.deepEqual(await folders(), [other], 'the new extension host answers');
      await openAgentQuestionsView(ui.workbench.page);
      ui.panel = await ui.workbench.panel();
      call = await ask('make lint -j2');
      assert.equal((await settled(call)).decision, 'allow_always', 'the all-workspaces rule applies in another workspace');
      call = await ask('cargo check --all');
      await waitForRequest(ui.panel, 'Run a command?');
      await button(ui.panel, 'deny').click();
      assert.equal((await settled(call)).decision, 'deny', 'the workspace rule does not');
      const rules = await ui.workbench.driver<{ value: Array<{ label: string; scope: string }> }>('command', {
        id: 'agentQuestions.manageRememberedPermissions',
        args: [{ list: true }],
      });
      assert.deepEqual(
        rules.value.map((r) => [r.label, r.scope]),
        [['make lint …', 'user']],
      );
      await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
