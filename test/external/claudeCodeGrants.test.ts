import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { configSection, startInteractiveClaude, type InteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { until } from '../harness/deadline';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// The real Claude Code, interactive, in the VS Code workspace with the configuration we hand out.
// The user answers "Yes, and don't ask again" in Claude Code's own prompt: the grant it writes to
// .claude/settings.local.json is read by our file watcher, translated and named in a notification.
// A broad grant planted in .claude/settings.json is named too; replacing it with our narrower rule
// edits the file as the preview showed, and Claude Code's next `npm exec` comes to our panel.
const REPLY = 'BASH RESULT (error={is_error}): {result}';
const bash = (match: string, command: string) => ({ match, calls: [{ name: 'Bash', input: { command, description: 'Run it' } }], reply: REPLY });
const SCENARIOS = [bash('scenario:npm-test', 'npm test'), bash('scenario:npm-exec', 'npm exec --yes -- left-pad')];

interface Grant {
  file: string;
  scope: string;
  list: string;
  rule: string;
  meaning: string;
  broader?: string;
}

suite("Claude Code's own grants, as the user makes them in its terminal (the real Claude Code)", () => {
  let model: ModelServer;
  let terminalEnv: Record<string, string> = {};
  let claude: InteractiveClaude | undefined;
  const root = mkdtempSync(join(tmpdir(), 'aq-claude-grants-'));
  const ws = join(root, 'ws');
  mkdirSync(join(ws, '.claude'), { recursive: true });
  writeFileSync(join(ws, 'package.json'), JSON.stringify({ name: 'grants', version: '1.0.0', scripts: { test: 'echo tests-ran' } }));
  const shared = join(ws, '.claude', 'settings.json');
  const local = join(ws, '.claude', 'settings.local.json');
  const ui = useWorkbench({ workspace: ws });

  const ledger = async () =>
    (await ui.workbench.driver<{ value: { agentGrants: Grant[] } }>('command', { id: 'agentQuestions.manageRememberedPermissions', args: [{ list: true, agentGrants: true }] }))
      .value.agentGrants;
  /** The notification naming a grant, as the extension showed it (a toast may hide again before a test looks). */
  const noticeFor = (rule: string) =>
    until(`a notification naming ${rule}`, async () =>
      (await ui.workbench.driver<{ value: Array<{ message: string; grants: string[] }> }>('command', { id: 'agentQuestions.internal.agentGrantNotices' })).value.find((n) =>
        n.grants.includes(rule),
      ),
    );

  suiteSetup(async () => {
    model = await startModelServer({ scenarios: SCENARIOS });
    const url = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    writeFileSync(shared, configSection(agentConfigs(url).find((c) => c.agent === 'Claude Code')!.text, '// .claude/settings.json'));
  });

  teardown(async () => {
    await claude?.close();
    claude = undefined;
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' }).catch(() => undefined);
    await model?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('"Yes, and don\'t ask again" for `npm test` in Claude Code\'s own prompt: the grant in .claude/settings.local.json is in the ledger, translated and named in a notification', async function () {
    claude = startInteractiveClaude({ modelUrl: model.url, env: terminalEnv, project: ws });
    await claude.ready();
    await claude.prompt('Run the tests. scenario:npm-test', model);
    await waitForRequest(ui.panel, 'wants to run a command');
    // Claude Code's own prompt, drawn while the request waits in the panel: its second choice.
    await claude.waitFor(/2\. Yes, and don.t ask again/);
    claude.press('Down');
    await claude.waitFor(/❯ 2\. Yes, and don.t ask again/);
    await claude.pressUntil('Enter', /BASH RESULT \(error=false\):[\s\S]*tests-ran/);
    const written = await until('Claude Code to write its grant to .claude/settings.local.json', () => existsSync(local) && readFileSync(local, 'utf8').includes('npm test'));
    assert.ok(written);
    const seen = Date.now();
    const rule = (JSON.parse(readFileSync(local, 'utf8')) as { permissions: { allow: string[] } }).permissions.allow.find((r) => r.includes('npm test'))!;
    assert.match(rule, /^Bash\(npm test(:\*| \*)\)$/);
    // The panel's request was withdrawn when the terminal answered.
    await ui.panel.locator('.empty').waitFor();

    const notice = await noticeFor(rule);
    assert.equal(notice.message, `Claude Code's own settings allow \`${rule}\`: it runs without asking you here.`);
    console.log(`      named in a notification ${Date.now() - seen} ms after the file was seen written`);
    const grant = (await ledger()).find((g) => g.file === local && g.rule === rule);
    assert.ok(grant, 'the ledger lists the new grant');
    assert.equal(grant.scope, 'local');
    assert.match(grant.meaning, /any `npm test` command, with any options and paths/);
    assert.match(grant.broader ?? '', /our «npm test …» rule covers only the options it knows/);
    // In VS Code's notifications, where it stays after its toast hides.
    await ui.workbench.driver('command', { id: 'notifications.showList' });
    await ui.workbench.page.locator('.notifications-center .notification-list-item', { hasText: rule }).first().waitFor();
    await ui.workbench.screenshot('claude-code-grant-notification');
    await ui.workbench.driver('command', { id: 'notifications.hideList' });
  });

  test("a planted `Bash(npm:*)` is named; replacing it with «npm test …» edits the file as previewed, and Claude Code's `npm exec` then comes to the panel", async function () {
    const settings = JSON.parse(readFileSync(shared, 'utf8')) as { permissions?: { allow?: string[] } };
    settings.permissions = { ...settings.permissions, allow: [...(settings.permissions?.allow ?? []), 'Bash(npm:*)'] };
    writeFileSync(shared, `${JSON.stringify(settings, null, 2)}\n`);
    const grant = await until('the ledger to list Bash(npm:*)', async () => (await ledger()).find((g) => g.file === shared && g.rule === 'Bash(npm:*)'));
    await noticeFor('Bash(npm:*)');
    const page = ui.workbench.page;
    // What the notification's "Replace with a Narrower Rule…" runs; its pick, preview and modal are clicked here.
    const replaced = ui.workbench.driver('command', { id: 'agentQuestions.replaceAgentGrant', args: [{ grant }] });
    const picker = page.locator('.quick-input-widget');
    await picker.locator('.quick-input-list .monaco-list-row', { hasText: 'npm test …' }).first().click();
    // The preview: a diff of the file against the edit, before anything is written.
    const dialog = page.locator('.monaco-dialog-box', { hasText: /Take Bash\(npm:\*\) out of \S*\.claude\/settings\.json\?/ });
    await dialog.waitFor();
    const preview = await until('the preview to be open', async () =>
      (await ui.workbench.driver<Array<{ uri: string; text: string }>>('documents')).find((d) => d.uri.startsWith('agent-questions-grant-preview:')),
    );
    assert.ok(readFileSync(shared, 'utf8').includes('Bash(npm:*)'), 'nothing is written before the user confirms');
    await ui.workbench.screenshot('claude-code-grant-replace-preview');
    await dialog.locator('.monaco-button', { hasText: 'Replace' }).click();
    assert.equal(((await replaced) as { value: { applied: boolean } }).value.applied, true);
    await until('the file to be written', () => !readFileSync(shared, 'utf8').includes('Bash(npm:*)'));
    assert.equal(readFileSync(shared, 'utf8'), preview.text, 'the file is written as previewed');
    const ours = (
      await ui.workbench.driver<{ value: Array<{ label: string; source: string }> }>('command', { id: 'agentQuestions.manageRememberedPermissions', args: [{ list: true }] })
    ).value;
    assert.deepEqual(
      ours.map((r) => [r.label, r.source]),
      [['npm test …', "Replacing Claude Code's Bash(npm:*)"]],
    );

    // Claude Code no longer lets `npm exec` through on its own: it asks, and the request comes here.
    claude = startInteractiveClaude({ modelUrl: model.url, env: terminalEnv, project: ws });
    await claude.ready();
    await claude.prompt('Run the tool. scenario:npm-exec', model);
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), /npm exec --yes -- left-pad/);
    await button(ui.panel, 'deny').click();
    await claude.waitFor(/BASH RESULT \(error=true\)/);
  });
});
