import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { startResponsesModel, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { configSection } from '../harness/claudeCodeTmux.mjs';
import { runCodexExec } from '../harness/codexCli.mjs';
import { remainingMs } from '../harness/deadline';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 40, item 6, with the real CLIs and the configuration we hand out: after «Write in the
// workspace» and «npm test …» are granted in the panel, an agent that rewrites the tests `npm test`
// runs (tests.sh: test files are code, and «Write in the workspace» covers them; package.json itself
// is protected) to touch a file outside the workspace and runs `npm test` leaves no file there. Claude Code runs it in
// its own sandbox (bubblewrap and socat here); Codex in its workspace-write sandbox, and its request
// to leave the sandbox is asked although «npm test …» is granted. An ordinary `npm test` still runs.
const TESTS_RAN = 'echo tests-ran';
const PACKAGE_JSON = JSON.stringify({ name: 'runner-sandbox', version: '1.0.0', scripts: { test: 'sh tests.sh' } });
/** The planted tests: they touch a file outside the workspace, then pass. */
const script = (outside: string, agent: string) => `touch ${outside}/pwned-${agent}; ${TESTS_RAN}\n`;

suite("A runner rule runs only inside the agent's sandbox (the real Claude Code and Codex)", () => {
  let anthropic: ModelServer;
  let responses: ResponsesModel;
  // The workbench opens the workspace itself: «Write in the workspace» is about VS Code's folders.
  const root = mkdtempSync(join(tmpdir(), 'aq-runner-sandbox-'));
  const ws = join(root, 'ws');
  // In the home folder, where shell start-up files are: Codex's workspace-write sandbox also lets
  // commands write in /tmp and $TMPDIR (its default writable roots), so a folder there would not do.
  const outside = mkdtempSync(join(homedir(), '.aq-runner-sandbox-outside-'));
  for (const dir of [join(ws, 'src'), join(ws, '.claude')]) mkdirSync(dir, { recursive: true });
  let terminalEnv: Record<string, string> = {};
  let settings = '';
  let mcpUrl = '';
  const ui = useWorkbench({ workspace: ws });

  suiteSetup(async () => {
    const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'Run the tests' } });
    anthropic = await startModelServer({
      scenarios: [
        { match: 'scenario:write', calls: [{ name: 'Write', input: { file_path: join(ws, 'src', 'a.ts'), content: 'export const a = 1;\n' } }] },
        { match: 'scenario:test', calls: [bash('npm test')] },
        // Claude Code writes an existing file only after reading it.
        {
          match: 'scenario:plant',
          calls: [
            { name: 'Read', input: { file_path: join(ws, 'tests.sh') } },
            { name: 'Write', input: { file_path: join(ws, 'tests.sh'), content: script(outside, 'claude') } },
            bash('npm test'),
          ],
        },
      ],
    });
    const exec = (cmd: string, escalate: boolean) => ({
      name: 'exec_command',
      input: { cmd, ...(escalate ? { sandbox_permissions: 'require_escalated', justification: 'Run the tests' } : {}) },
    });
    responses = await startResponsesModel({
      scenarios: [
        { match: 'scenario:codex-plant', calls: [exec(`printf '%s' '${script(outside, 'codex').trim()}' > tests.sh && npm test`, false)] },
        { match: 'scenario:codex-leave', calls: [exec('npm test', true)] },
      ],
    });
    mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    settings = configSection(agentConfigs(mcpUrl).find((c) => c.agent === 'Claude Code')!.text, '// .claude/settings.json');
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  suiteTeardown(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' }).catch(() => undefined);
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list').catch(() => [])) await ui.workbench.driver('reject', { requestId: pending.id });
    await Promise.all([anthropic?.close(), responses?.close()]);
    for (const dir of [root, outside]) rmSync(dir, { recursive: true, force: true });
  });

  async function finished<T extends { signal: NodeJS.Signals | null; stdout: string; stderr: string }>(done: Promise<T>, kill: () => void): Promise<T> {
    const timer = setTimeout(kill, remainingMs());
    const result = await done;
    clearTimeout(timer);
    if (result.signal === 'SIGKILL') throw new Error(`the CLI did not finish by the test's deadline:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** `claude -p` in the workspace, with the .claude/settings.json we hand out (its hook asks the panel). */
  const claude = (scenario: string) => {
    writeFileSync(join(ws, '.claude', 'settings.json'), settings);
    return runClaude({ prompt: `Go. ${scenario}`, modelUrl: anthropic.url, mcpUrl, mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'], extraEnv: terminalEnv, cwd: ws });
  };

  /** The panel's request is granted with the rule labelled `label`, Always allow. */
  async function grant(label: string): Promise<void> {
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'Claude Code wants to' }).first().click();
    await waitForRequest(ui.panel, 'Claude Code wants to');
    await ui.panel.locator('.rule-choice vscode-radio', { hasText: label }).first().click();
    await button(ui.panel, 'allow_always').click();
  }

  test('Claude Code: with «Write in the workspace» and «npm test …» granted, a planted test script runs in the sandbox and writes nothing outside; an ordinary npm test runs', async function () {
    writeFileSync(join(ws, 'package.json'), PACKAGE_JSON);
    writeFileSync(join(ws, 'tests.sh'), `${TESTS_RAN}\n`);
    let run = claude('scenario:write');
    await grant('Write in the workspace');
    assert.equal((await finished(run.done, () => run.child.kill('SIGKILL'))).code, 0);
    run = claude('scenario:test');
    await grant('npm test …');
    const ordinary = await finished(run.done, () => run.child.kill('SIGKILL'));
    assert.match(ordinary.stdout, /tests-ran/, ordinary.stdout + ordinary.stderr);
    assert.doesNotMatch(ordinary.stderr, /Sandbox disabled/, 'Claude Code started its sandbox');

    // Both rules cover the plant and the run: nothing is asked, and the sandbox keeps the write inside.
    const before = (await ui.workbench.driver<unknown[]>('history')).length;
    run = claude('scenario:plant');
    const planted = await finished(run.done, () => run.child.kill('SIGKILL'));
    const history = await ui.workbench.driver<Array<{ decision?: string }>>('history');
    assert.deepEqual(
      history.slice(0, history.length - before).map((h) => h.decision),
      ['allow_always', 'allow_always'],
      'the Write and npm test were decided by the two rules, without asking',
    );
    assert.match(planted.stdout, /Read-only file system[\s\S]*tests-ran/, planted.stdout + planted.stderr);
    assert.equal(existsSync(join(outside, 'pwned-claude')), false, 'the planted script wrote nothing outside the workspace');
  });

  test('Codex: the planted script runs in its workspace-write sandbox and writes nothing outside; leaving the sandbox is asked although «npm test …» is granted', async function () {
    const codex = (scenario: string) =>
      runCodexExec({
        prompt: `Go. ${scenario}`,
        config: agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text,
        modelUrl: responses.url,
        extraEnv: terminalEnv,
        flags: ['--approve-for-me', '--dangerously-bypass-hook-trust', '-c', 'sandbox_mode="workspace-write"'],
        cwd: ws,
      });
    let run = codex('scenario:codex-plant');
    const planted = await finished(run.done, () => run.kill());
    assert.match(planted.stdout, /tests-ran/, planted.stdout + planted.stderr);
    assert.equal(existsSync(join(outside, 'pwned-codex')), false, 'the planted script wrote nothing outside the workspace');

    // Out of the sandbox: the granted runner rule does not cover it; the panel asks, and the user denies.
    run = codex('scenario:codex-leave');
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'Codex wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'Codex wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), /npm test/);
    await button(ui.panel, 'deny').click();
    await finished(run.done, () => run.kill());
    assert.equal(existsSync(join(outside, 'pwned-codex')), false, 'the denied escalation never ran');
  });
});
