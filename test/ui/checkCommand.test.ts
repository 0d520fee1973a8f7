import * as assert from 'node:assert/strict';
import { startEmpty } from './auditHelpers';
import { button, waitForRequest } from './panelHelpers';
import { useWorkbench } from './workbench';

// What a shell command does, said from the parse: the one line on the permission card, and
// "Check a Command…" in the palette (the decision the rules would make now, which rule and why).
suite('What a command does: the card line and Check a Command', () => {
  const ui = useWorkbench();
  // A permission a failed test left waiting would stay on screen in front of the next test's.
  setup(() => startEmpty(ui));

  const ask = (command: string) =>
    ui.workbench.driver<{ callId: number }>('permission', { request: { extensionId: 'tests.check', title: 'Run a command?', detail: command, command } });
  const settled = async (call: { callId: number }) => (await ui.workbench.driver<{ value: { decision?: string } }>('await', { callId: call.callId })).value;

  test('the permission card says in one line what the command runs, writes and where, and whether it reaches the network', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    const call = await ask('cp notes.txt ~/notes.txt; curl -s -o page.html https://example.com');
    await waitForRequest(ui.panel, 'Run a command?');
    const summary = ui.panel.locator('.tool-call .command-summary');
    await summary.waitFor();
    // curl's other output options (--hsts, --etag-save, -K …) are not all modelled: what else it does is "not known", never "nothing".
    assert.equal(
      (await summary.innerText()).trim(),
      'Runs cp, curl. Writes outside the workspace: ~/notes.txt. Writes page.html in the workspace. Reaches the network (curl downloads or sends data (https://example.com)). Not analysed: what curl does. Other writes: not known, other network use: not known, deletes: not known.',
    );
    assert.equal(await summary.getAttribute('role'), 'note');
    await ui.workbench.screenshot('permission-card-summary');
    await button(ui.panel, 'deny').click();
    assert.equal((await settled(call)).decision, 'deny');
  });

  test('Check a Command shows the decision, the rule that decides with its scope and source, why, and what the command does', async function () {
    // A rule granted in the panel: "git status …" in this workspace.
    const call = await ask('git status');
    await ui.panel.locator('.tool-call pre.command', { hasText: 'git status' }).waitFor();
    await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'git status …' }).first().click();
    await button(ui.panel, 'allow_always').click();
    assert.equal((await settled(call)).decision, 'allow_always');

    const page = ui.workbench.page;
    await ui.workbench.runCommand('Agent Questions: Check a Command…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill('git status --short');
    await input.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.dialog-message-text').textContent(), 'Allowed without asking: git status --short');
    const detail = (await dialog.locator('.dialog-message-detail').textContent()) ?? '';
    assert.match(detail, /Rule: git status … \(this workspace; from Extension tests\.check\)/);
    assert.match(detail, /Why: The user chose "Always allow" for git status … earlier\./);
    // git status runs the repository's core.fsmonitor: the workspace's .git/config is read, and sets none.
    assert.match(detail, /What it does: Runs git\. Writes nothing, no network, deletes nothing\./);
    await ui.workbench.screenshot('check-a-command-allowed');

    // Check Another…: the line is kept to edit; a line no rule covers says why it would be asked.
    await dialog.locator('.monaco-button', { hasText: /^Check Another…$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await input.waitFor();
    await input.fill('git grep --op=x foo');
    await input.press('Enter');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.dialog-message-text').textContent(), 'Asked: git grep --op=x foo');
    assert.match((await dialog.locator('.dialog-message-detail').textContent()) ?? '', /Why: `git grep --op=x foo` is not allowed by any rule/);
    await ui.workbench.screenshot('check-a-command-asked');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
