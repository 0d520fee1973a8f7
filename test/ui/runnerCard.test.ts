import * as assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmpty } from './auditHelpers';
import { button, waitForRequest } from './panelHelpers';
import { useWorkbench } from './workbench';

// A runner's card and its offered rule say it runs this workspace's code and name it (package.json's
// script), and Check a Command says the same: a rule for `npm test` allows whatever that code does.
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'aq-runner-card-')));
writeFileSync(join(workspace, 'package.json'), `${JSON.stringify({ name: 'runner-card', private: true, scripts: { test: 'mocha' } }, null, 2)}\n`);

const CARD =
  "Runs npm. Runs this workspace's code: `mocha` (package.json's test script). Writes: not known, network: not known, deletes: not known. Not confined: this call runs in no sandbox we know of, so what the workspace's code does, it does as you.";

suite("A runner's card names the workspace's code it runs", () => {
  const ui = useWorkbench({ workspace });
  setup(() => startEmpty(ui));
  suiteTeardown(() => rmSync(workspace, { recursive: true, force: true }));

  test("npm test: the card and the offered rule say it runs this workspace's code, `mocha`, whatever that code does", async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    const call = await ui.workbench.driver<{ callId: number }>('permission', {
      request: { extensionId: 'tests.runner', title: 'Run the tests?', detail: 'npm test', command: 'npm test' },
    });
    await waitForRequest(ui.panel, 'Run the tests?');
    const summary = ui.panel.locator('.tool-call .command-summary');
    await summary.waitFor();
    assert.equal((await summary.innerText()).trim(), CARD);
    const rule = ui.panel.locator('.rule-choice vscode-radio', { hasText: 'npm test …' }).first();
    assert.match(await rule.innerText(), /runs this workspace's code: `mocha` \(package\.json's test script\): whatever that code does, now and after every edit/);
    await ui.workbench.screenshot('permission-card-runner');
    await button(ui.panel, 'deny').click();
    const settled = await ui.workbench.driver<{ value: { decision?: string } }>('await', { callId: call.callId });
    assert.equal(settled.value.decision, 'deny');
  });

  test('Check a Command on npm test says the same', async function () {
    const page = ui.workbench.page;
    await ui.workbench.runCommand('Agent Questions: Check a Command…');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill('npm test');
    await input.press('Enter');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor();
    assert.equal(await dialog.locator('.dialog-message-text').textContent(), 'Asked: npm test');
    assert.ok(((await dialog.locator('.dialog-message-detail').textContent()) ?? '').includes(`What it does: ${CARD}`));
    await ui.workbench.screenshot('check-a-command-runner');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });
});
