// Issue 40's combination: «Write in the workspace» and a runner rule together let the agent write code
// and run it, as the user. The prompt that would create the second says so in the rule's description,
// and while both are remembered the Queue shows a warning row that opens Manage Remembered Permissions.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveThroughMcp, startEmpty, type ApproveCall } from './auditHelpers';
import { button, waitForRequest } from './panelHelpers';
import { queueRows, useWorkbench } from './workbench';

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'aq-combination-')));
mkdirSync(join(workspace, 'src'));
writeFileSync(join(workspace, 'package.json'), `${JSON.stringify({ name: 'combination', private: true, scripts: { test: 'mocha' } }, null, 2)}\n`);

const ROW = 'Agent can run any code it writes';

suite('A workspace write rule and a runner rule together: warned in the prompt and in the Queue', () => {
  const ui = useWorkbench({ workspace });
  const calls: ApproveCall[] = [];
  setup(() => startEmpty(ui));
  suiteTeardown(async () => {
    for (const call of calls) await call.close().catch(() => undefined);
    rmSync(workspace, { recursive: true, force: true });
  });

  test('«npm test …» after «Write in the workspace»: the prompt warns, the Queue shows the warning row until the rules are forgotten', async function () {
    const { page, driver } = ui.workbench;
    await driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    const row = queueRows(page).filter({ hasText: ROW });
    try {
      // «Write in the workspace», granted for a Write as Claude Code asks for it.
      const write = await approveThroughMcp(ui.workbench, 'Write', { file_path: join(workspace, 'src', 'a.ts'), content: 'x' });
      calls.push(write);
      await ui.panel.locator('.tool-call', { hasText: 'src/a.ts' }).first().waitFor();
      await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'Write in the workspace' }).click();
      await button(ui.panel, 'allow_always').click();
      const written = JSON.parse(((await write.result) as { content: Array<{ text: string }> }).content[0]!.text) as { behavior: string };
      assert.equal(written.behavior, 'allow');
      assert.equal(await row.count(), 0, 'one rule alone is no combination');

      // The prompt that would create the second rule says what the two do together.
      const run = await driver<{ callId: number }>('permission', {
        request: { extensionId: 'tests.combination', title: 'Run the tests?', detail: 'npm test', command: 'npm test' },
      });
      await waitForRequest(ui.panel, 'Run the tests?');
      const rule = ui.panel.locator('.rule-choice vscode-radio', { hasText: 'npm test …' }).first();
      assert.match(await rule.innerText(), /lets the agent run any code it writes, as you/);
      await ui.workbench.screenshot('permission-combination-warning');
      await rule.click();
      await button(ui.panel, 'allow_always').click();
      assert.equal((await driver<{ value: { decision?: string } }>('await', { callId: run.callId })).value.decision, 'allow_always');

      // Both remembered: the Queue's first row warns, with a warning icon, and opens Manage Remembered Permissions.
      await row.waitFor();
      assert.equal(((await queueRows(page).first().innerText()) ?? '').trim(), ROW);
      assert.equal(await row.locator('.codicon-warning').count(), 1);
      await ui.workbench.screenshot('queue-combination-warning');
      await row.click();
      const picker = page.locator('.quick-input-widget');
      await picker.locator('.quick-input-list .monaco-list-row', { hasText: "«Write in the workspace» and a rule that runs the workspace's code, together" }).waitFor();
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'hidden' });
    } finally {
      await driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    }
    // Forgotten: the row goes.
    await row.waitFor({ state: 'detached' });
  });
});
