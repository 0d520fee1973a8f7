import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { until } from '../harness/deadline';

// A Claude Code grant broader than our rules, planted in the workspace's .claude/settings.json while
// VS Code runs: the file watcher reads it and a notification names it, once; "Replace with a
// Narrower Rule" takes it out of the file as previewed and keeps our narrower rule instead.
interface Notice {
  message: string;
  grants: string[];
}
interface Grant {
  file: string;
  scope: string;
  list: string;
  rule: string;
  broader?: string;
}

suite("Claude Code's grants broader than ours: noticed and replaced", () => {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const claude = vscode.Uri.joinPath(folder, '.claude');
  const file = vscode.Uri.joinPath(claude, 'settings.json');
  // Written on the disk, as Claude Code or a pull writes it (not through VS Code, which would tell its own listeners).
  const write = async (settings: unknown) => {
    mkdirSync(claude.fsPath, { recursive: true });
    writeFileSync(file.fsPath, `${JSON.stringify(settings, null, 2)}\n`);
  };
  const read = async () => new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  const notices = async () => (await vscode.commands.executeCommand<Notice[]>('agentQuestions.internal.agentGrantNotices'))!;
  const noticeFor = (rule: string) => until(`a notification naming ${rule}`, async () => (await notices()).find((n) => n.grants.includes(rule)));
  const ledger = async () =>
    (await vscode.commands.executeCommand<{ agentGrants: Grant[] }>('agentQuestions.manageRememberedPermissions', { list: true, agentGrants: true }))!.agentGrants;
  let hadFolder = false;

  suiteSetup(async () => {
    hadFolder = await vscode.workspace.fs.stat(claude).then(
      () => true,
      () => false,
    );
  });
  suiteTeardown(async () => {
    await vscode.workspace.fs.delete(hadFolder ? file : claude, { recursive: true }).then(undefined, () => undefined);
    await vscode.commands.executeCommand('agentQuestions.clearRememberedPermissions');
  });

  test('a planted `Bash(npm:*)` is named in a notification within seconds of the write, and only once', async () => {
    const before = (await notices()).length;
    const written = Date.now();
    await write({ permissions: { allow: ['Bash(npm:*)'] } });
    const notice = await noticeFor('Bash(npm:*)');
    console.log(`      notified ${Date.now() - written} ms after the write`);
    assert.equal(notice.message, "Claude Code's own settings allow `Bash(npm:*)`: it runs without asking you here.");
    // The next change names only what is new: the first grant is not said again.
    await write({ permissions: { allow: ['Bash(npm:*)', 'Bash(git:*)'] } });
    const next = await noticeFor('Bash(git:*)');
    assert.deepEqual(next.grants, ['Bash(git:*)']);
    assert.equal((await notices()).length, before + 2);
  });

  test('"Replace with a Narrower Rule" takes only that grant out, as previewed, and keeps «npm test …» instead: `npm exec` is asked again', async () => {
    await write({ permissions: { allow: ['Bash(npm:*)', 'Bash(git status)'] } });
    const grant = (await ledger()).find((g) => g.file === file.fsPath && g.rule === 'Bash(npm:*)');
    assert.ok(grant?.broader, `the ledger lists Bash(npm:*) as broader: ${JSON.stringify(grant)}`);
    const preview = (await vscode.commands.executeCommand<{ before: string; after: string; narrower: string[] }>('agentQuestions.replaceAgentGrant', { grant, preview: true }))!;
    assert.equal(preview.before, await read(), 'without apply, nothing is written');
    assert.ok(preview.narrower.includes('npm test …'), preview.narrower.join(', '));
    const done = (await vscode.commands.executeCommand<{ after: string; applied: boolean }>('agentQuestions.replaceAgentGrant', { grant, apply: { narrower: 'npm test …' } }))!;
    assert.equal(done.applied, true);
    assert.equal(await read(), preview.after, 'the file is written as previewed');
    assert.deepEqual(JSON.parse(await read()), { permissions: { allow: ['Bash(git status)'] } });
    const ours = (await vscode.commands.executeCommand<Array<{ label: string; scope: string; source: string }>>('agentQuestions.manageRememberedPermissions', { list: true }))!;
    assert.deepEqual(
      ours.filter((r) => r.label === 'npm test …').map((r) => [r.scope, r.source]),
      [['workspace', "Replacing Claude Code's Bash(npm:*)"]],
    );
    const check = (await vscode.commands.executeCommand<{ decision: string }>('agentQuestions.checkCommand', 'npm exec cowsay'))!;
    assert.equal(check.decision, 'ask');
  });

  test('a file changed since it was read is not written: the replacement says so', async () => {
    await write({ permissions: { allow: ['Bash(yarn:*)'] } });
    const grant = (await ledger()).find((g) => g.file === file.fsPath && g.rule === 'Bash(yarn:*)');
    assert.ok(grant, 'the ledger lists Bash(yarn:*)');
    await write({ permissions: { allow: [] } });
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('agentQuestions.replaceAgentGrant', { grant, apply: { narrower: null } })),
      /no longer holds Bash\(yarn:\*\)/,
    );
    assert.deepEqual(JSON.parse(await read()), { permissions: { allow: [] } });
  });
});
