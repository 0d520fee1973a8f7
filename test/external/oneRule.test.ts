import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { startChatModelServer, type ChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import { startResponsesModel, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { runCodexExec, type CodexRun } from '../harness/codexCli.mjs';
import { remainingMs } from '../harness/deadline';
import { openCodeProject, serveOpenCode } from '../harness/openCodeCli.mjs';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// One policy for every agent: a sub-command rule granted with "Always allow" in the panel on a real
// Claude Code prompt (print mode, --permission-prompt-tool) decides the same sub-command for the real
// Codex (codex exec, through its PermissionRequest hook and the configuration we hand out), but for a
// runner («npm test …»), which covers a call only inside the agent's sandbox; a
// dangerous-argument variant of it is asked in both, and in the real OpenCode (`opencode serve`,
// through the plugin we hand out).
// Claude Code runs read-only commands (find, ls) without asking, so the rule is tried on one it asks about.
const BENIGN = 'npm test';
const DANGEROUS = 'npm test --script-shell=./evil.sh';
const GREP = 'git grep -n TODO';
// Claude Code 2.1 runs `git grep` with -n, -c, -l, -e, -C, --cached, --untracked, --threads, `-- .` and more
// without asking (read-only to it); it asks with --column, -W, -m or --color, so it is asked this benign form.
const GREP_ASKED = 'git grep -n --column TODO';
// git takes --op for --open-files-in-pager, which runs ./evil.sh with the matching files.
const PAGER = 'git grep --op=./evil.sh TODO';
const bash = (match: string, command: string) => ({ match, calls: [{ name: 'Bash', input: { command, description: 'Run the tests' } }] });
const shell = (match: string, command: string) => ({
  match,
  calls: [{ name: 'exec_command', input: { cmd: command, sandbox_permissions: 'require_escalated', justification: 'Run the tests' } }],
});
const openCodeBash = (match: string, command: string) => ({ match, calls: [{ name: 'bash', input: { command, description: 'Search the notes' } }] });
const ASKING_EXEC = ['--approve-for-me', '--dangerously-bypass-hook-trust'];

suite('One "Always allow" for every agent (the real Claude Code, Codex and OpenCode)', () => {
  let anthropic: ModelServer;
  let responses: ResponsesModel;
  let chat: ChatModelServer;
  let mcpUrl = '';
  let terminalEnv: Record<string, string> = {};
  // The workspace is its own repository's top, and the agents run in it, as a user's do: git rules
  // cover a command only there (run elsewhere, or in a repository above the workspace, it is asked).
  const repository = mkdtempSync(join(tmpdir(), 'aq-one-rule-repository-'));
  gitRepository(repository);
  const ui = useWorkbench({ workspace: repository });

  suiteSetup(async function () {
    anthropic = await startModelServer({
      scenarios: [bash('scenario:benign', BENIGN), bash('scenario:dangerous', DANGEROUS), bash('scenario:git-grep', GREP_ASKED), bash('scenario:pager', PAGER)],
    });
    responses = await startResponsesModel({
      scenarios: [shell('scenario:benign', BENIGN), shell('scenario:dangerous', DANGEROUS), shell('scenario:git-grep', GREP), shell('scenario:pager', PAGER)],
    });
    chat = await startChatModelServer({ scenarios: [openCodeBash('scenario:pager', PAGER)] });
    mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
  });

  setup(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  suiteTeardown(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' }).catch(() => undefined);
    await Promise.all([anthropic?.close(), responses?.close(), chat?.close()]);
    rmSync(repository, { recursive: true, force: true });
  });

  /** The CLI's result; a run still going at the test's deadline is killed and its output reported. */
  async function finished<T extends { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(done: Promise<T>, kill: () => void): Promise<T> {
    const timer = setTimeout(kill, remainingMs());
    const result = await done;
    clearTimeout(timer);
    if (result.signal === 'SIGKILL') throw new Error(`waited until the test's deadline: the CLI did not finish:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  const claude = (scenario: string, cwd: string) =>
    runClaude({
      prompt: `Go. ${scenario}`,
      modelUrl: anthropic.url,
      mcpUrl,
      mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'],
      permissionPromptTool: 'mcp__agent-questions__approve',
      cwd,
    });
  const codex = (scenario: string, cwd: string): CodexRun =>
    runCodexExec({
      prompt: `Go. ${scenario}`,
      config: agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text,
      modelUrl: responses.url,
      extraEnv: terminalEnv,
      flags: ASKING_EXEC,
      cwd,
    });

  /** The run's permission request appears in the panel with `command`; it is denied there. */
  async function deniedInPanel(command: string): Promise<void> {
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'wants to run a command');
    await ui.panel.locator('.tool-call pre.command', { hasText: command }).waitFor();
    assert.equal((await ui.panel.locator('.tool-call pre.command').innerText()).trim(), command);
    await button(ui.panel, 'deny').click();
  }

  test('"Always allow `npm test …`" granted on a Claude Code prompt does not cover Codex leaving its sandbox for it; `npm test --script-shell=…` is asked in both', async function () {
    const cwd = mkdtempSync(join(tmpdir(), 'aq-one-rule-'));
    writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'one-rule', version: '1.0.0', scripts: { test: 'echo tests-ran' } }));
    // What the dangerous variant would run as its shell.
    writeFileSync(join(cwd, 'evil.sh'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
    try {
      // Claude Code asks; the user picks the prefix rule and Always allow.
      let run = claude('scenario:benign', cwd);
      await waitForRequest(ui.panel, 'wants to run a command');
      await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'npm test …' }).first().click();
      assert.equal((await button(ui.panel, 'allow_always').innerText()).trim(), 'Always allow `npm test …` in this workspace');
      await button(ui.panel, 'allow_always').click();
      assert.equal((await finished(run.done, () => run.child.kill('SIGKILL'))).code, 0);

      // Codex, through its hook, asks only to leave its sandbox: a runner rule («npm test …» runs the
      // workspace's code) covers a call only inside the agent's sandbox, so the same sub-command is asked.
      const asked = codex('scenario:benign', cwd);
      await deniedInPanel(BENIGN);
      await finished(asked.done, () => asked.kill());

      // The dangerous variant is asked in both, and denied; its shell never ran.
      const codexDangerous = codex('scenario:dangerous', cwd);
      await deniedInPanel(DANGEROUS);
      await finished(codexDangerous.done, () => codexDangerous.kill());
      run = claude('scenario:dangerous', cwd);
      await deniedInPanel(DANGEROUS);
      await finished(run.done, () => run.child.kill('SIGKILL'));
      assert.equal(existsSync(join(cwd, 'pwned')), false, 'the script shell never ran');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
    }
  });

  test('prevents `git grep --op=…` (a pager program) from riding on "Always allow `git grep …`" granted on a Claude Code prompt: `git grep -n TODO` from Codex is allowed without asking, the pager form is asked in Claude Code, Codex and OpenCode', async function () {
    this.timeout(420_000);
    const cwd = repository;
    const openCode = openCodeProject({
      files: agentConfigs(mcpUrl).find((c) => c.agent === 'OpenCode')!.files!,
      modelUrl: chat.url,
      terminalEnv,
      extraConfig: { permission: { bash: 'ask' } },
    });
    gitRepository(openCode.cwd);
    try {
      // Claude Code asks about `git grep -n --column TODO`; the user picks the prefix rule and Always allow.
      let run = claude('scenario:git-grep', cwd);
      await waitForRequest(ui.panel, 'wants to run a command').catch(async (error: Error) => {
        const said = await finished(run.done, () => run.child.kill('SIGKILL'));
        throw new Error(`${error.message}\nClaude Code said:\n${said.stdout}\n${said.stderr}`);
      });
      assert.equal((await ui.panel.locator('.tool-call pre.command').innerText()).trim(), GREP_ASKED);
      await ui.panel.locator('.rule-choice vscode-radio', { hasText: 'git grep …' }).first().click();
      assert.equal((await button(ui.panel, 'allow_always').innerText()).trim(), 'Always allow `git grep …` in this workspace');
      await button(ui.panel, 'allow_always').click();
      const claudeResult = await finished(run.done, () => run.child.kill('SIGKILL'));
      assert.equal(claudeResult.code, 0, claudeResult.stdout + claudeResult.stderr);
      assert.match(claudeResult.stdout, /MODEL RECEIVED: [\s\S]*notes\.txt:1:1:TODO/);

      // Codex, through its hook: the same benign form is allowed by the rule, without asking.
      const before = (await ui.workbench.driver<unknown[]>('history')).length;
      const allowed = codex('scenario:git-grep', cwd);
      const codexResult = await finished(allowed.done, () => allowed.kill());
      assert.match(codexResult.stdout, /MODEL RECEIVED: [\s\S]*exited with code 0[\s\S]*notes\.txt:1:TODO/, codexResult.stdout);
      const history = await ui.workbench.driver<Array<{ decision?: string; source: { label: string } }>>('history');
      assert.equal(history.length, before + 1);
      assert.equal(history[0]!.decision, 'allow_always', 'decided by the rule, without asking');
      assert.equal(history[0]!.source.label, 'Codex');

      // The pager form is asked in each agent, and denied.
      run = claude('scenario:pager', cwd);
      await deniedInPanel(PAGER);
      await finished(run.done, () => run.child.kill('SIGKILL'));
      const codexPager = codex('scenario:pager', cwd);
      await deniedInPanel(PAGER);
      await finished(codexPager.done, () => codexPager.kill());
      const server = await serveOpenCode(openCode);
      try {
        const reply = server.prompt('Search the notes. scenario:pager');
        await deniedInPanel(PAGER);
        assert.match(await reply, /MODEL RECEIVED: The user rejected permission/);
      } finally {
        await server.close();
      }
      assert.equal(existsSync(join(cwd, 'pwned')), false, 'the pager program never ran');
      assert.equal(existsSync(join(openCode.cwd, 'pwned')), false, 'the pager program never ran for OpenCode');
    } finally {
      openCode.cleanUp();
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
    }
  });
});

/** A git repository in `cwd` with a tracked file holding TODO, and `evil.sh`, a program that would make `pwned`. */
function gitRepository(cwd: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Agent Questions', '-c', 'user.email=tests@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd, stdio: 'pipe' });
  writeFileSync(join(cwd, 'notes.txt'), 'TODO: write the notes\n');
  git('init', '-q');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'Notes');
  writeFileSync(join(cwd, 'evil.sh'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
}
