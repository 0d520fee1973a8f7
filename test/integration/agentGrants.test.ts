import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

// Claude Code's own grants beside ours: Manage Remembered Permissions reads the workspace's
// .claude/settings.local.json in the real extension host and marks a grant broader than our rules.
interface Listed {
  agentGrants: Array<{ file: string; scope: string; list: string; rule: string; meaning: string; broader?: string }>;
  problems: Array<{ file: string; problem: string }>;
}

suite("Claude Code's own grants in Manage Remembered Permissions", () => {
  test('a `Bash(npm:*)` in .claude/settings.local.json is listed with its file and scope, translated, and marked broader than ours', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the tests run in a workspace folder');
    const claude = vscode.Uri.joinPath(folder, '.claude');
    const file = vscode.Uri.joinPath(claude, 'settings.local.json');
    const hadFolder = await vscode.workspace.fs.stat(claude).then(
      () => true,
      () => false,
    );
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify({ permissions: { allow: ['Bash(npm:*)'] } })));
    try {
      const listed = (await vscode.commands.executeCommand<Listed>('agentQuestions.manageRememberedPermissions', { list: true, agentGrants: true }))!;
      const ours = listed.agentGrants.filter((g) => g.file === file.fsPath);
      assert.deepEqual(
        ours.map((g) => [g.scope, g.list, g.rule]),
        [['local', 'allow', 'Bash(npm:*)']],
      );
      assert.match(ours[0]!.meaning, /any `npm` command, including `npm exec` and `npm config set`/);
      assert.match(ours[0]!.broader ?? '', /our rules ask for these/);
      assert.deepEqual(
        listed.problems.filter((p) => p.file === file.fsPath),
        [],
      );
    } finally {
      await vscode.workspace.fs.delete(hadFolder ? file : claude, { recursive: true });
    }
  });
});
