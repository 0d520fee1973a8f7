import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

// Issue 40, item 2, with the real CLIs and the configuration we hand out: the folder the agent was
// started in counts, as its hook's `cwd` says. A rule granted in the panel on a command run in the
// workspace allows it there without asking; the same rule does not cover the command's twin run by
// the agent started in a (scratch) home folder, where a relative path names a home file: it is asked,
// with no rule offered, and denied there it never happens.
// Codex: «cat …» and `cat .ssh/id_rsa`, asked through its hook when the command asks to leave Codex's
// sandbox. Claude Code runs `cat` and its Read tool in the folder it was started in without a
// permission request; the PreToolUse guard in the settings we hand out sends such a read to the panel
// when that folder is outside the workspace folders, and says nothing inside them. Its hook's `cwd`
// is also shown with a runner, «npm test …» and `npm test` in a home folder whose package.json would write.
const KEY = `AQ-FAKE-PRIVATE-KEY-${randomUUID()}`;
const README = `AQ-README-${randomUUID()}`;

/** One agent's case: the command that grants the rule and is covered in the workspace, and its twin in the home folder. */
interface Case {
  agent: 'Claude Code' | 'Codex';
  inWorkspace: string;
  rule: string;
  inHome: string;
}
const CODEX: Case = { agent: 'Codex', inWorkspace: 'cat README.md', rule: 'cat …', inHome: 'cat .ssh/id_rsa' };
const CLAUDE: Case = { agent: 'Claude Code', inWorkspace: 'npm test', rule: 'npm test …', inHome: 'npm test' };
/** A package.json whose tests write `file` (in the folder they run in) and print `said`. */
const packageJson = (file: string, said: string) => JSON.stringify({ name: 'agent-home', version: '1.0.0', scripts: { test: `touch ${file} && echo ${said}` } });

type Ended = { signal: NodeJS.Signals | null; stdout: string; stderr: string };
/** A CLI run: `done` at its exit; finished() is `done`, failing with its output if it is still going at the test's deadline. */
type Run = { done: Promise<Ended>; finished: () => Promise<Ended> };

suite('The folder the agent runs in decides (the real Claude Code and Codex started in a home folder)', () => {
  let anthropic: ModelServer;
  let responses: ResponsesModel;
  let terminalEnv: Record<string, string> = {};
  let settings = '';
  let mcpUrl = '';
  // A scratch home (never the real one) with a fake key, and the workspace beside it.
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aq-agent-home-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(ws);
  writeFileSync(join(home, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY}\n-----END OPENSSH PRIVATE KEY-----\n`, { mode: 0o600 });
  writeFileSync(join(ws, 'README.md'), `${README}\n`);
  writeFileSync(join(ws, 'package.json'), packageJson('tests-ran', 'workspace-tests'));
  writeFileSync(join(home, 'package.json'), packageJson('home-tests-ran', 'home-tests'));
  const ui = useWorkbench({ workspace: ws });

  suiteSetup(async () => {
    const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'Run it' } });
    anthropic = await startModelServer({
      scenarios: [
        { match: 'scenario:workspace', calls: [bash(CLAUDE.inWorkspace)] },
        { match: 'scenario:home', calls: [bash(CLAUDE.inHome)] },
        { match: 'scenario:readkey', calls: [bash('cat .ssh/id_rsa')] },
        { match: 'scenario:readme', calls: [bash('cat README.md')] },
      ],
    });
    // Codex runs commands in its sandbox without asking (reads included); it asks, through its hook, to leave it.
    const escalated = (cmd: string) => ({ name: 'exec_command', input: { cmd, sandbox_permissions: 'require_escalated', justification: 'Read the file' } });
    responses = await startResponsesModel({
      scenarios: [
        { match: 'scenario:workspace', calls: [escalated(CODEX.inWorkspace)] },
        { match: 'scenario:home', calls: [escalated(CODEX.inHome)] },
      ],
    });
    mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    settings = configSection(agentConfigs(mcpUrl).find((c) => c.agent === 'Claude Code')!.text, '// .claude/settings.json');
  });

  setup(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' });
  });

  teardown(async () => {
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list').catch(() => [])) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await ui.workbench.driver('command', { id: 'agentQuestions.clearRememberedPermissions' }).catch(() => undefined);
    await Promise.all([anthropic?.close(), responses?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  /** The agent started in `cwd` with the configuration we hand out (for Claude Code, .claude/settings.json there: its hook asks the panel). */
  function start(agent: Case['agent'], scenario: string, cwd: string): Run {
    if (agent === 'Codex') {
      const run = runCodexExec({
        prompt: `Go. ${scenario}`,
        config: agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text,
        modelUrl: responses.url,
        extraEnv: terminalEnv,
        flags: ['--approve-for-me', '--dangerously-bypass-hook-trust'],
        cwd,
      });
      return { done: run.done, finished: run.finished };
    }
    mkdirSync(join(cwd, '.claude'), { recursive: true });
    writeFileSync(join(cwd, '.claude', 'settings.json'), settings);
    // A VS Code terminal's configuration folder: where the window's discovery file tells the hook its workspace folders.
    const env = { ...terminalEnv, XDG_CONFIG_HOME: join(ui.workbench.stateDir, 'home', '.config') };
    const run = runClaude({ prompt: `Go. ${scenario}`, modelUrl: anthropic.url, mcpUrl, mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'], extraEnv: env, cwd });
    // Claude Code's harness has no deadline of its own: the run is ended at the test's.
    const deadline = setTimeout(() => run.child.kill('SIGKILL'), remainingMs());
    const done = run.done.finally(() => clearTimeout(deadline));
    const finished = async () => {
      const ended = await done;
      if (ended.signal === 'SIGKILL') throw new Error(`Claude Code did not finish by the test's deadline:\n${ended.stdout}\n${ended.stderr}`);
      return ended;
    };
    return { done, finished };
  }

  /** The request for `command` shown in the panel; fails with the CLI's output if the run ends without asking. */
  async function asked(agent: string, command: string, run: Run): Promise<void> {
    const ended = run.done.then((d) => {
      throw new Error(`${agent} ended without asking about \`${command}\`:\n${d.stdout}\n${d.stderr}`);
    });
    await Promise.race([
      ended,
      ui.workbench.page
        .locator('.monaco-list-row', { hasText: `${agent} wants to run a command` })
        .first()
        .click(),
    ]);
    await waitForRequest(ui.panel, `${agent} wants to run a command`);
    await ui.panel.locator('.tool-call pre.command', { hasText: command }).waitFor();
  }

  /** The rule granted in the panel on the workspace command; then the rule covers it there without asking; its twin in the home folder is asked, with no rule offered, and denied. */
  async function folderMatters({ agent, inWorkspace, rule, inHome }: Case): Promise<{ denied: { stdout: string; stderr: string } }> {
    let run = start(agent, 'scenario:workspace', ws);
    await asked(agent, inWorkspace, run);
    await ui.panel.locator('.rule-choice vscode-radio', { hasText: rule }).first().click();
    assert.equal((await button(ui.panel, 'allow_always').innerText()).trim(), `Always allow \`${rule}\` in this workspace`);
    await button(ui.panel, 'allow_always').click();
    await run.finished();

    // The control: in the workspace the rule decides, without asking.
    const before = (await ui.workbench.driver<unknown[]>('history')).length;
    run = start(agent, 'scenario:workspace', ws);
    const covered = await run.finished();
    const history = await ui.workbench.driver<Array<{ decision?: string; source: { label: string } }>>('history');
    assert.deepEqual(
      history.slice(0, history.length - before).map((h) => [h.source.label, h.decision]),
      [[agent, 'allow_always']],
      `in the workspace «${rule}» decides without asking:\n${covered.stdout}\n${covered.stderr}`,
    );

    // Started in the home folder: asked, and the card offers no rule (outside the workspace folders «${rule}» cannot cover it).
    run = start(agent, 'scenario:home', home);
    await asked(agent, inHome, run);
    const card = ui.panel.locator('.request.permission').first();
    assert.doesNotMatch(await card.innerText(), /Always allow/);
    assert.equal(await card.locator('.rule-choice vscode-radio').count(), 0, 'no rule is offered');
    await button(ui.panel, 'deny').click();
    return { denied: await run.finished() };
  }

  test('prevents «cat …» from reading .ssh/id_rsa for Codex started in the home folder: asked and, denied, the key never reaches the model; `cat README.md` in the workspace runs under it without asking', async function () {
    const first = responses.received.length;
    const { denied } = await folderMatters(CODEX);
    assert.match(JSON.stringify(responses.received), new RegExp(README), 'in the workspace the covered `cat README.md` ran');
    assert.doesNotMatch(denied.stdout + denied.stderr, new RegExp(KEY), 'the key was not printed');
    assert.doesNotMatch(JSON.stringify(responses.received.slice(first)), new RegExp(KEY), 'the key never reached the model');
  });

  test('prevents Claude Code started in the home folder from reading .ssh/id_rsa unasked: asked in the Queue with no rule offered and, denied, the key never reaches the model; `cat README.md` in the workspace runs without a request', async function () {
    // The control: in the workspace the guard says nothing and Claude Code reads on its own, as before.
    const before = (await ui.workbench.driver<unknown[]>('history')).length;
    const inWorkspace = await start('Claude Code', 'scenario:readme', ws).finished();
    assert.match(JSON.stringify(anthropic.received), new RegExp(README), `in the workspace \`cat README.md\` ran:\n${inWorkspace.stdout}\n${inWorkspace.stderr}`);
    assert.equal((await ui.workbench.driver<unknown[]>('history')).length, before, 'no request for a read in the workspace');

    const first = anthropic.received.length;
    const run = start('Claude Code', 'scenario:readkey', home);
    await asked('Claude Code', 'cat .ssh/id_rsa', run);
    const card = ui.panel.locator('.request.permission').first();
    assert.doesNotMatch(await card.innerText(), /Always allow/);
    assert.equal(await card.locator('.rule-choice vscode-radio').count(), 0, 'no rule is offered');
    await button(ui.panel, 'deny').click();
    const denied = await run.finished();
    assert.doesNotMatch(denied.stdout + denied.stderr, new RegExp(KEY), 'the key was not printed');
    assert.doesNotMatch(JSON.stringify(anthropic.received.slice(first)), new RegExp(KEY), 'the key never reached the model');
  });

  test("prevents «npm test …» from running the home folder's package.json for Claude Code started there (its hook's cwd): asked and, denied, nothing runs; `npm test` in the workspace runs under it without asking", async function () {
    const { denied } = await folderMatters(CLAUDE);
    assert.equal(existsSync(join(ws, 'tests-ran')), true, 'in the workspace the covered `npm test` ran');
    assert.doesNotMatch(denied.stdout, /home-tests/);
    assert.equal(existsSync(join(home, 'home-tests-ran')), false, "the home folder's tests never ran");
  });
});
