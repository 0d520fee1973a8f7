import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { startChatModelServer, type ChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { remainingMs } from '../harness/deadline';
import { openCodeProject, serveOpenCode } from '../harness/openCodeCli.mjs';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 40, item 6, for OpenCode, which has no sandbox: with «Write in the workspace» and «npm test …»
// granted in the panel (on the real Claude Code's prompts), the real OpenCode (`opencode serve`, the
// plugin we hand out) running `npm test` in a workspace whose tests were planted to write outside it
// and into a protected file is still asked: a runner rule covers a call only inside the agent's
// sandbox, and the prompt offers no runner rule. Denied, neither file exists.
const PACKAGE_JSON = JSON.stringify({ name: 'opencode-runner', version: '1.0.0', scripts: { test: 'sh tests.sh' } });

suite('A runner rule does not cover OpenCode, which has no sandbox (the real Claude Code and OpenCode)', () => {
  let anthropic: ModelServer;
  let chat: ChatModelServer;
  let mcpUrl = '';
  let terminalEnv: Record<string, string> = {};
  // The workbench opens the workspace itself: «Write in the workspace» is about VS Code's folders.
  const root = mkdtempSync(join(tmpdir(), 'aq-opencode-runner-'));
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  const protectedFile = join(ws, '.claude', 'settings.json');
  for (const dir of [join(ws, 'src'), outside]) mkdirSync(dir, { recursive: true });
  const ui = useWorkbench({ workspace: ws });

  suiteSetup(async () => {
    const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'Run the tests' } });
    anthropic = await startModelServer({
      scenarios: [
        { match: 'scenario:write', calls: [{ name: 'Write', input: { file_path: join(ws, 'src', 'a.ts'), content: 'export const a = 1;\n' } }] },
        { match: 'scenario:test', calls: [bash('npm test')] },
      ],
    });
    chat = await startChatModelServer({ scenarios: [{ match: 'scenario:test', calls: [{ name: 'bash', input: { command: 'npm test', description: 'Run the tests' } }] }] });
    mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  suiteTeardown(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' }).catch(() => undefined);
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list').catch(() => [])) await ui.workbench.driver('reject', { requestId: pending.id });
    await Promise.all([anthropic?.close(), chat?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  /** Claude Code in print mode in the workspace, asking the panel through our approve tool. */
  async function claudeGranted(scenario: string, label: string): Promise<void> {
    const run = runClaude({
      prompt: `Go. ${scenario}`,
      modelUrl: anthropic.url,
      mcpUrl,
      mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'],
      permissionPromptTool: 'mcp__agent-questions__approve',
      cwd: ws,
    });
    const timer = setTimeout(() => run.child.kill('SIGKILL'), remainingMs());
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'wants to' }).first().click();
    await waitForRequest(ui.panel, 'wants to');
    await ui.panel.locator('.rule-choice vscode-radio', { hasText: label }).first().click();
    await button(ui.panel, 'allow_always').click();
    const result = await run.done;
    clearTimeout(timer);
    assert.equal(result.code, 0, result.stdout + result.stderr);
  }

  test('prevents «npm test …» and «Write in the workspace» from letting OpenCode run planted tests: its `npm test` is asked, no runner rule is offered, and denied, nothing is written outside the workspace or into a protected file', async function () {
    writeFileSync(join(ws, 'package.json'), PACKAGE_JSON);
    writeFileSync(join(ws, 'tests.sh'), 'echo tests-ran\n');
    await claudeGranted('scenario:write', 'Write in the workspace');
    await claudeGranted('scenario:test', 'npm test …');

    // The planted tests (test files are code; «Write in the workspace» covers them).
    writeFileSync(join(ws, 'tests.sh'), `mkdir -p ${dirname(protectedFile)}; touch ${outside}/pwned-opencode ${protectedFile}; echo tests-ran\n`);
    // OpenCode in the workspace, with the files we hand out and `"bash": "ask"`.
    const files = agentConfigs(mcpUrl).find((c) => c.agent === 'OpenCode')!.files!;
    for (const file of files) {
      mkdirSync(dirname(join(ws, file.path)), { recursive: true });
      writeFileSync(join(ws, file.path), file.text);
    }
    const project = openCodeProject({ files: [], modelUrl: chat.url, terminalEnv, extraConfig: { permission: { bash: 'ask' } } });
    const server = await serveOpenCode({ cwd: ws, env: { ...project.env, PWD: ws } });
    try {
      const reply = server.prompt('Run the tests. scenario:test');
      // Allowed by the rules, OpenCode would run it and answer without any request reaching the panel.
      let asked = false;
      const ranUnasked = reply.then((text) => {
        if (!asked) throw new Error(`OpenCode's npm test was not asked (outside file: ${existsSync(join(outside, 'pwned-opencode'))}): ${text}`);
      });
      const row = ui.workbench.page.locator('.monaco-list-row', { hasText: 'OpenCode wants to run a command' }).first();
      await Promise.race([row.click().then(() => (asked = true)), ranUnasked]);
      await waitForRequest(ui.panel, 'OpenCode wants to run a command');
      assert.equal((await ui.panel.locator('.tool-call pre.command').innerText()).trim(), 'npm test');
      const card = await ui.panel.locator('.request.permission').innerText();
      assert.match(card, /Runs this workspace's code: `sh tests\.sh`/, card);
      assert.equal(await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'npm test …' }).count(), 0, 'no runner rule is offered');
      await button(ui.panel, 'deny').click();
      assert.match(await reply, /MODEL RECEIVED: The user rejected permission/);
    } finally {
      await server.close();
      project.cleanUp();
    }
    assert.equal(existsSync(join(outside, 'pwned-opencode')), false, 'the planted tests wrote nothing outside the workspace');
    assert.equal(existsSync(protectedFile), false, 'the planted tests wrote no protected file');
  });
});
