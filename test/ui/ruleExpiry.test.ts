import * as assert from 'node:assert/strict';
import { button } from './panelHelpers';
import { useWorkbench } from './workbench';

// A rule that ends, chosen on the real card with the keyboard: "For a day" beside where the rule
// applies, said on Always allow, and Manage Remembered Permissions says when it ends.
suite('A rule that ends, chosen on the permission card', () => {
  const ui = useWorkbench();

  test('arrow keys in "The rule applies" choose For a day; Always allow says so; the rules list says it ends in 24 h', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    const call = await ui.workbench.driver<{ callId: number }>('permission', {
      request: { extensionId: 'tests.expiry', title: 'Run a command?', detail: 'cargo test', command: 'cargo test' },
    });
    await ui.panel.locator('.tool-call pre.command', { hasText: 'cargo test' }).waitFor();
    const choices = ui.panel.locator('.scope-choice vscode-radio');
    assert.deepEqual(
      (await choices.allInnerTexts()).map((t) => t.trim()),
      ['This session', 'For a day', 'For a week', 'This workspace', 'All workspaces'],
    );
    // From the default (This workspace), two steps back with the keyboard.
    await ui.panel.locator('.scope-choice vscode-radio[aria-checked="true"]').focus();
    await ui.workbench.page.keyboard.press('ArrowLeft');
    await ui.workbench.page.keyboard.press('ArrowLeft');
    await ui.panel.locator('.scope-choice vscode-radio[aria-checked="true"]', { hasText: 'For a day' }).waitFor();
    const always = button(ui.panel, 'allow_always');
    assert.equal((await always.innerText()).trim(), 'Always allow `cargo test` in this workspace for a day');
    await ui.panel.locator('.scope-choice').scrollIntoViewIfNeeded();
    await ui.workbench.screenshot('permission-rule-for-a-day');
    await always.click();
    const settled = await ui.workbench.driver<{ value: { decision?: string; scope?: string } }>('await', { callId: call.callId });
    assert.deepEqual([settled.value.decision, settled.value.scope], ['allow_always', 'workspace']);

    const rules = await ui.workbench.driver<{ value: Array<{ label: string; scope: string; ends?: string }> }>('command', {
      id: 'agentQuestions.manageRememberedPermissions',
      args: [{ list: true }],
    });
    assert.deepEqual(
      rules.value.map((r) => [r.label, r.scope, r.ends]),
      [['cargo test', 'workspace', 'ends in 24 h']],
    );
    await ui.workbench.runCommand('Agent Questions: Manage Remembered Permissions');
    const row = ui.workbench.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'cargo test' });
    await row.waitFor();
    assert.match(await row.innerText(), /Always allow · this workspace · ends in 24 h · granted to/);
    await ui.workbench.screenshot('remembered-permissions-ends');
    await ui.workbench.page.keyboard.press('Escape');
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });
});
