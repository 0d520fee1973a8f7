import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approveThroughMcp, rejectAll, type ApproveCall } from './auditHelpers';
import { button } from './panelHelpers';
import { useWorkbench } from './workbench';

// "Always allow" for a tool that takes a path, in the real extension host, asked the way Claude Code
// asks (the MCP `approve` tool): rules name the real folder; a symlink into .git, a `..` that leaves
// the workspace, and protected files in the home folder and in VS Code's own user folder are asked
// with their warning, and no rule is offered or covers them.
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'aq-path-rules-')));
for (const dir of [join(workspace, '.git', 'hooks'), join(workspace, 'src')]) mkdirSync(dir, { recursive: true });
symlinkSync('.git', join(workspace, 'g'));

suite('"Always allow" for file tools, by real path', () => {
  const ui = useWorkbench({ workspace });
  const calls: ApproveCall[] = [];
  suiteTeardown(async () => {
    for (const call of calls) await call.close().catch(() => undefined);
    rmSync(workspace, { recursive: true, force: true });
  });

  /** Asks for a Write of `path`; resolves the result once it is decided. */
  async function write(path: string): Promise<ApproveCall> {
    const call = await approveThroughMcp(ui.workbench, 'Write', { file_path: path, content: 'x' });
    calls.push(call);
    return call;
  }
  const behavior = async (call: ApproveCall) => JSON.parse(((await call.result) as { content: Array<{ text: string }> }).content[0]!.text).behavior as string;
  const shownFor = (path: string) => ui.panel.locator('.tool-call', { hasText: path }).first().waitFor();
  const choices = async () => (await ui.panel.locator('.rule-choice vscode-radio code').allInnerTexts()).map((t) => t.trim());

  test('a workspace rule covers a later file in the workspace; a symlink into .git, a .. out of the workspace, ~/.ssh and VS Code user settings are asked with a warning and no rule', async function () {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
    try {
      let call = await write(join(workspace, 'src', 'a.ts'));
      await shownFor('src/a.ts');
      assert.deepEqual(await choices(), ['Write src/a.ts', 'Write src/…', 'Write in the workspace']);
      await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'Write in the workspace' }).click();
      await button(ui.panel, 'allow_always').click();
      assert.equal(await behavior(call), 'allow');

      call = await write(join(workspace, 'src', 'deeper', 'b.ts'));
      assert.equal(await behavior(call), 'allow', 'decided by the rule without asking');

      // Through the symlink g -> .git: Git's hooks, by their real path.
      call = await write(join(workspace, 'g', 'hooks', 'pre-commit'));
      await shownFor('g/hooks/pre-commit');
      assert.match(await ui.panel.locator('.warnings').first().innerText(), /Git/);
      assert.deepEqual(await choices(), [], 'no rule for a protected file');
      await ui.workbench.screenshot('path-rule-symlink-into-git');
      await button(ui.panel, 'deny').click();
      assert.equal(await behavior(call), 'deny');

      // A `..` that leaves the workspace: asked, and the folder rule names the real, outside folder.
      const escaped = `${workspace}/src/../../elsewhere/x.ts`;
      call = await write(escaped);
      await shownFor('elsewhere/x.ts');
      const outside = await choices();
      assert.ok(
        outside.every((label) => !label.includes('in the workspace')),
        outside.join(' | '),
      );
      assert.ok(
        outside.some((label) => /\(outside the workspace\)/.test(label)),
        outside.join(' | '),
      );
      await button(ui.panel, 'deny').click();
      assert.equal(await behavior(call), 'deny');

      // The home folder's ~/.ssh and VS Code's own user settings (code-server's HOME and user data folder).
      for (const path of [join(ui.workbench.stateDir, 'home', '.ssh', 'authorized_keys'), join(ui.workbench.stateDir, 'user-data', 'User', 'settings.json')]) {
        call = await write(path);
        await shownFor(path.split('/').slice(-2).join('/'));
        assert.deepEqual(await choices(), [], `no rule for ${path}`);
        await button(ui.panel, 'deny').click();
        assert.equal(await behavior(call), 'deny');
      }
    } finally {
      await rejectAll(ui.workbench);
    }
  });
});
