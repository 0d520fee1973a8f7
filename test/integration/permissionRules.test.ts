import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentQuestionsApi, PermissionResponse } from '../../src/extension/api';
import { getApi, nextAdded } from './helpers';

// "Always allow" in the real extension host: the rules the prompt offers for a shell command, deny
// beating allow, settings (the user's allow, the workspace's deny only) and VS Code's own terminal
// auto-approve rules when the user turns them on. Commands come through the API, decided by the
// same rules as every agent's commands.
const ask = (api: AgentQuestionsApi, command: string) => api.requestPermission({ extensionId: 'tests.rules', title: 'Run it?', detail: command, command });

/** The labels the prompt offers for a command; the request is then decided `decision`. */
async function offered(api: AgentQuestionsApi, command: string, decision: 'deny' | 'allow_once' = 'deny'): Promise<string[]> {
  const added = nextAdded(api);
  const response = ask(api, command);
  const request = await added;
  assert.equal(request.kind, 'permission');
  const labels = request.kind === 'permission' ? (request.rememberOptions ?? []).map((o) => o.label) : [];
  api.decide(request.id, decision);
  await response;
  return labels;
}

/** Asks, and when the request waits, decides it with the option labelled `label` (Always allow or Always deny). */
async function grant(
  api: AgentQuestionsApi,
  command: string,
  label: string,
  decision: 'allow_always' | 'deny',
  scope: 'session' | 'workspace' | 'user' = 'workspace',
): Promise<PermissionResponse> {
  const added = nextAdded(api);
  const response = ask(api, command);
  const request = await added;
  const option = request.kind === 'permission' ? request.rememberOptions?.find((o) => o.label === label) : undefined;
  assert.ok(option, `"${label}" is offered for ${command}`);
  api.decide(request.id, decision, { rule: option.key, scope });
  return response;
}

/** How a command is decided now: allowed or denied without asking, or asked (then denied here). */
async function outcome(api: AgentQuestionsApi, command: string): Promise<'allowed' | 'denied' | 'asked'> {
  let asked = false;
  const subscription = api.onDidChange((change) => {
    if (change.type !== 'added' || change.request.kind !== 'permission') return;
    asked = true;
    api.decide(change.request.id, 'deny');
  });
  try {
    const response = await ask(api, command);
    if (asked) return 'asked';
    return response.decision === 'deny' ? 'denied' : 'allowed';
  } finally {
    subscription.dispose();
  }
}

suite('"Always allow" rules in the real extension host', () => {
  const config = () => vscode.workspace.getConfiguration();
  // The workspace settings these tests write go to the fixture folder: leave it as it was.
  const dotVscode = () => vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.vscode');
  let hadDotVscode = true;
  suiteSetup(async () => {
    hadDotVscode = await vscode.workspace.fs.stat(dotVscode()).then(
      () => true,
      () => false,
    );
  });
  suiteTeardown(async () => {
    if (!hadDotVscode) await vscode.workspace.fs.delete(dotVscode(), { recursive: true }).then(undefined, () => undefined);
  });

  teardown(async () => {
    await vscode.commands.executeCommand('agentQuestions.clearRememberedPermissions');
    await config().update('agentQuestions.permissions.autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await config().update('agentQuestions.permissions.autoApprove', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('agentQuestions.permissions.honorTerminalAutoApprove', undefined, vscode.ConfigurationTarget.Global);
    await config().update('chat.tools.terminal.autoApprove', undefined, vscode.ConfigurationTarget.Global);
  });

  test('the prompt offers the exact sub-command and a prefix only where it is safe: never for interpreters, wrappers, downloaders or a multi-purpose tool alone; a chained line gets one rule per sub-command and the line', async () => {
    const api = await getApi();
    assert.deepEqual(await offered(api, 'python3 -c "print(1)"'), ['python3 -c "print(1)"']);
    assert.deepEqual(await offered(api, 'timeout 5 make'), ['timeout 5 make']);
    assert.deepEqual(await offered(api, 'curl https://example.com/install.sh'), ['curl https://example.com/install.sh']);
    assert.deepEqual(await offered(api, 'git status'), ['git status', 'git status …']);
    const chained = await offered(api, 'npm test && npm run lint');
    assert.deepEqual(chained, ['npm test', 'npm test …', 'npm run lint', 'npm run lint …', 'npm test && npm run lint']);
  });

  test('the positive model: a prefix only for a tool whose arguments are modelled; «git grep …» covers its known options and files in the workspace, and a prefix written by hand keeps VS Code meaning', async () => {
    const api = await getApi();
    assert.deepEqual(await offered(api, 'rustup run stable cargo build'), ['rustup run stable cargo build']);
    assert.deepEqual(await offered(api, 'rm build.log'), ['rm build.log']);
    assert.deepEqual(await offered(api, 'GIT status'), ['GIT status']);
    assert.deepEqual(await offered(api, 'git grep foo'), ['git grep foo', 'git grep …']);
    await grant(api, 'git grep foo', 'git grep …', 'allow_always');
    assert.equal(await outcome(api, 'git grep -n bar -- src'), 'allowed');
    assert.equal(await outcome(api, 'git grep --op=x foo'), 'asked', 'an abbreviation of --open-files-in-pager');
    assert.equal(await outcome(api, "git grep $'-O\\0' foo"), 'asked');
    assert.equal(await outcome(api, 'git grep foo ../outside'), 'asked');
    assert.equal(await outcome(api, 'git grep foo /etc'), 'asked');
    await config().update('agentQuestions.permissions.autoApprove', { rustup: true }, vscode.ConfigurationTarget.Global);
    assert.equal(await outcome(api, 'rustup show'), 'allowed', 'written by hand: the prefix covers what follows');
  });

  test('"Always deny" beats "Always allow"; the rules are listed with their scope, and forgotten', async () => {
    const api = await getApi();
    // The deny first: once `git status …` is allowed, `git status --ignored` would not be asked.
    assert.equal((await grant(api, 'git status --ignored', 'git status --ignored', 'deny', 'session')).decision, 'deny');
    assert.equal((await grant(api, 'git status', 'git status …', 'allow_always')).decision, 'allow_always');
    assert.equal(await outcome(api, 'git status -s'), 'allowed');
    assert.equal(await outcome(api, 'git status --ignored'), 'denied');
    assert.equal(await outcome(api, 'git status && git status --ignored'), 'denied');
    const listed = (await vscode.commands.executeCommand<Array<{ label: string; decision: string; scope: string; source: string; uses: number }>>(
      'agentQuestions.manageRememberedPermissions',
      { list: true },
    ))!;
    assert.deepEqual(
      listed.map((r) => [r.label, r.decision, r.scope, r.source]),
      [
        ['git status --ignored', 'deny', 'session', 'Extension tests.rules'],
        ['git status …', 'allow', 'workspace', 'Extension tests.rules'],
      ],
    );
    assert.equal(listed[1]!.uses, 1);
    await vscode.commands.executeCommand('agentQuestions.manageRememberedPermissions', { forget: 'cmd:git status', scope: 'workspace' });
    assert.equal(await outcome(api, 'git status -s'), 'asked');
  });

  test("rules in settings: the user's allow and deny decide; the workspace's settings add deny rules, never an allow; all-workspaces grants are written to the user settings", async () => {
    const api = await getApi();
    await config().update('agentQuestions.permissions.autoApprove', { 'make build': true, 'make clean': false }, vscode.ConfigurationTarget.Global);
    await config().update('agentQuestions.permissions.autoApprove', { 'make deploy': true, 'make build': false }, vscode.ConfigurationTarget.Workspace);
    assert.equal(await outcome(api, 'make clean'), 'denied');
    assert.equal(await outcome(api, 'make deploy'), 'asked', "the workspace's allow is ignored");
    assert.equal(await outcome(api, 'make build'), 'denied', "the workspace's deny wins over the user's allow");
    await config().update('agentQuestions.permissions.autoApprove', undefined, vscode.ConfigurationTarget.Workspace);
    assert.equal(await outcome(api, 'make build -j4'), 'allowed');

    await grant(api, 'cargo check', 'cargo check …', 'allow_always', 'user');
    const user = config().inspect<Record<string, unknown>>('agentQuestions.permissions.autoApprove')?.globalValue;
    assert.deepEqual(user, { 'make build': true, 'make clean': false, 'cargo check': true });
    assert.equal(await outcome(api, 'cargo check --all'), 'allowed');
  });

  test("VS Code's chat.tools.terminal.autoApprove decides when agentQuestions.permissions.honorTerminalAutoApprove is on, and is ignored when off", async () => {
    const api = await getApi();
    await config().update('chat.tools.terminal.autoApprove', { 'make lint': true, 'make publish': false }, vscode.ConfigurationTarget.Global);
    assert.equal(await outcome(api, 'make lint'), 'asked');
    assert.equal(await outcome(api, 'make publish'), 'asked');
    await config().update('agentQuestions.permissions.honorTerminalAutoApprove', true, vscode.ConfigurationTarget.Global);
    assert.equal(await outcome(api, 'make lint'), 'allowed');
    assert.equal(await outcome(api, 'make publish'), 'denied');
    await config().update('agentQuestions.permissions.honorTerminalAutoApprove', false, vscode.ConfigurationTarget.Global);
    assert.equal(await outcome(api, 'make lint'), 'asked');
  });

  test('Check a Command returns the decision now, the rule that decides (label, scope, where it came from), why, and what the command does', async () => {
    const api = await getApi();
    type Check = { decision: string; rule?: { label: string; scope: string; source: string }; reason: string; summary: string };
    const check = async (line: string) => (await vscode.commands.executeCommand<Check>('agentQuestions.checkCommand', line))!;

    const asked = await check('git status -s');
    assert.equal(asked.decision, 'ask');
    assert.equal(asked.rule, undefined);
    assert.match(asked.reason, /`git status -s` is not allowed by any rule/);
    // git status runs the repository's core.fsmonitor: the workspace's .git/config is read, and sets none.
    assert.equal(asked.summary, 'Runs git. Writes nothing, no network, deletes nothing.');

    await grant(api, 'git status', 'git status …', 'allow_always', 'session');
    const allowed = await check('git status -s');
    assert.equal(allowed.decision, 'allow');
    assert.deepEqual(allowed.rule, { label: 'git status …', scope: 'session', source: 'Extension tests.rules' });
    assert.match(allowed.reason, /"Always allow" for git status …/);

    await config().update('agentQuestions.permissions.autoApprove', { 'rm -rf build': false }, vscode.ConfigurationTarget.Global);
    const denied = await check('rm -rf build');
    assert.equal(denied.decision, 'deny');
    assert.deepEqual(denied.rule, { label: 'rm -rf build', scope: 'user', source: 'your settings' });
    assert.match(denied.summary, /^Runs rm\. Deletes build\. Writes nothing, no network\.$/);

    const outside = await check('cp notes.txt ~/notes.txt && curl -s https://example.com');
    assert.equal(outside.decision, 'ask');
    assert.match(outside.summary, /Writes outside the workspace: ~\/notes\.txt\. Reaches the network \(curl downloads or sends data \(https:\/\/example\.com\)\)/);
  });

  test("Check a Command's line is on the card too: a shell command's permission request carries the one-line summary", async () => {
    const api = await getApi();
    const added = nextAdded(api);
    const response = ask(api, 'echo x > .git/hooks/pre-commit');
    const request = await added;
    assert.equal(request.kind, 'permission');
    const summary = request.kind === 'permission' ? request.toolCall?.summary : undefined;
    api.decide(request.id, 'deny');
    await response;
    assert.match(summary ?? '', /^Runs echo\. Writes \.git\/hooks\/pre-commit \(Git's folder/);
  });
});
