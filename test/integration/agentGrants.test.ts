import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

// The agents' own grants beside ours: Manage Remembered Permissions reads the workspace's
// .claude/settings.local.json and VS Code's workspace settings in the real extension host and marks
// a grant broader than our rules.
interface Listed {
  agentGrants: Array<{ agent: string; file: string; scope: string; list: string; key: string; rule: string; meaning: string; broader?: string }>;
  problems: Array<{ file: string; problem: string }>;
}

suite("The agents' own grants in Manage Remembered Permissions", () => {
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
        ours.map((g) => [g.agent, g.scope, g.list, g.rule]),
        [['Claude Code', 'local', 'allow', 'Bash(npm:*)']],
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

  test("a broad `chat.tools.terminal.autoApprove` entry in the workspace's settings is listed as VS Code's, translated, and marked broader than ours", async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const dotVscode = vscode.Uri.joinPath(folder, '.vscode');
    const hadDotVscode = await vscode.workspace.fs.stat(dotVscode).then(
      () => true,
      () => false,
    );
    const terminal = vscode.workspace.getConfiguration('chat.tools.terminal');
    const before = terminal.inspect('autoApprove')?.workspaceValue;
    await terminal.update('autoApprove', { npm: true, rm: false }, vscode.ConfigurationTarget.Workspace);
    try {
      const listed = (await vscode.commands.executeCommand<Listed>('agentQuestions.manageRememberedPermissions', { list: true, agentGrants: true }))!;
      const vsCode = listed.agentGrants.filter((g) => g.agent === 'VS Code' && g.scope === 'workspace');
      assert.deepEqual(
        vsCode.map((g) => [g.key, g.rule, g.list, g.file]),
        [
          ['chat.tools.terminal.autoApprove', 'npm', 'allow', vscode.Uri.joinPath(dotVscode, 'settings.json').fsPath],
          ['chat.tools.terminal.autoApprove', 'rm', 'ask', vscode.Uri.joinPath(dotVscode, 'settings.json').fsPath],
        ],
      );
      assert.match(vsCode[0]!.meaning, /any `npm` command, including `npm exec` and `npm config set`: run in VS Code's agent's terminal without asking/);
      assert.match(vsCode[0]!.broader ?? '', /our rules ask for these/);
      assert.equal(vsCode[1]!.broader, undefined, "VS Code's own prompt is not marked");
    } finally {
      await terminal.update('autoApprove', before, vscode.ConfigurationTarget.Workspace);
      if (!hadDotVscode) await vscode.workspace.fs.delete(dotVscode, { recursive: true }).then(undefined, () => undefined);
    }
  });
});
