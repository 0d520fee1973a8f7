import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startChatModelServer, type ChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import type { AgentConfig } from '../../src/agents/agentConfig';
import { agentConfigs } from '../../src/agents/configRegistry';
import { remainingMs, until } from '../harness/deadline';
import { openCodeProject, serveOpenCode, startOpenCode, type OpenCodeFinished as Finished } from '../harness/openCodeCli.mjs';
import { button, chooseAndSubmit } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// The real OpenCode CLI, configured with exactly the files "Connect an External Agent…" hands out,
// against a scripted Chat Completions model on 127.0.0.1, asks through our MCP endpoint inside the
// real VS Code: questions through ask_user (`opencode run`), and, through the handed-out plugin and
// the hook command, its permission asks and its own question tool (`opencode serve`, which leaves
// asks to its clients where `opencode run` rejects them at once).
const ASK_USER = 'agent-questions_ask_user';
const DATABASE = { questions: [{ id: 'database', header: 'Database', question: 'Which database should I use?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };
const BASH_COMMAND = 'touch marker && echo done';
const SCENARIOS = [
  { match: 'scenario:ask', calls: [{ name: ASK_USER, input: DATABASE }] },
  { match: 'scenario:bash', calls: [{ name: 'bash', input: { command: BASH_COMMAND, description: 'Create a marker file' } }] },
  {
    match: 'scenario:question',
    calls: [
      {
        name: 'question',
        input: {
          questions: [
            {
              question: 'Which cache should I use?',
              header: 'Cache',
              options: [
                { label: 'Redis', description: 'In memory' },
                { label: 'None', description: 'No cache' },
              ],
            },
          ],
        },
      },
    ],
  },
];

suite('OpenCode through the MCP endpoint and its plugin (the real OpenCode CLI)', () => {
  let model: ChatModelServer;
  /** What a VS Code terminal opened now has: the endpoint's URL and token, and the hook command. */
  let terminalEnv: Record<string, string> = {};
  let openCodeConfig: AgentConfig;
  const cleanUps: Array<() => void> = [];
  const ui = useWorkbench();

  suiteSetup(async function () {
    model = await startChatModelServer({ scenarios: SCENARIOS });
    const mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    assert.equal(terminalEnv['AGENT_QUESTIONS_MCP_URL'], mcpUrl);
    assert.match(terminalEnv['AGENT_QUESTIONS_HOOK']!, /dist\/approvalHook\.js$/);
    openCodeConfig = agentConfigs(mcpUrl).find((c) => c.agent === 'OpenCode')!;
  });

  suiteTeardown(async () => {
    await model?.close();
    for (const cleanUp of cleanUps) cleanUp();
  });

  /**
   * A project holding the handed-out files byte for byte, and the environment of a VS Code terminal
   * with a scratch HOME; the scripted model and `"bash": "ask"` come from a second config file.
   */
  function project(): { cwd: string; env: Record<string, string> } {
    assert.equal(openCodeConfig.files?.length, 2, 'opencode.json and the plugin');
    for (const file of openCodeConfig.files!) assert.ok(openCodeConfig.text.includes(file.text), `${file.path} is copied whole with the configuration`);
    const where = openCodeProject({ files: openCodeConfig.files!, modelUrl: model.url, terminalEnv, extraConfig: { permission: { bash: 'ask' } } });
    cleanUps.push(where.cleanUp);
    return where;
  }

  const start = startOpenCode;

  /** The CLI's result; a run still going at the test's deadline is killed and its output reported. */
  async function finished(run: { child: ChildProcess; done: Promise<Finished> }): Promise<Finished> {
    const timer = setTimeout(() => run.child.kill('SIGKILL'), remainingMs());
    const result = await run.done;
    clearTimeout(timer);
    if (result.signal === 'SIGKILL') throw new Error(`waited until the test's deadline: OpenCode did not finish:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** OpenCode starts in 3–35 s here (longer beside other layers), so the first request can take a while to appear. */
  const shown = (text: string) => ui.panel.locator('.request', { hasText: text }).first().waitFor();

  test('`opencode mcp list` connects with the configuration we hand out, and fails with a wrong token', async function () {
    const where = project();
    // OpenCode starts in 3–35 s here, longer beside other layers.
    const list = async (token: string) => (await finished(start(['mcp', 'list'], { ...where, env: { ...where.env, AGENT_QUESTIONS_MCP_TOKEN: token } }))).stdout;
    assert.match(await list(terminalEnv['AGENT_QUESTIONS_MCP_TOKEN']!), /✓ agent-questions\s+connected/);
    assert.match(await list('wrong'), /✗ agent-questions\s+failed[\s\S]*401/);
  });

  test('`opencode run` asks through ask_user with the configuration we hand out; the request is labelled with its name; after more than a minute the answer from the panel is in its output', async function () {
    const run = start(['run', 'Set up the service. scenario:ask'], project());
    await shown('Which database should I use?').catch((error: Error) => {
      throw new Error(`${error.message}\nOpenCode said:\n${run.output()}`);
    });
    const source = await ui.panel.locator('.request-source').first().innerText();
    assert.match(source, /^opencode asks/);
    assert.match(await ui.panel.locator('.request-source .via').innerText(), /^MCP client · name self-reported · token [0-9a-f]{6}$/);
    // The point of the test: OpenCode gives an MCP call 60 s unless the server's entry says otherwise (ours: a day).
    await new Promise((r) => setTimeout(r, 62_000));
    await chooseAndSubmit(ui.panel, 'SQLite');
    const { code, stdout } = await finished(run);
    assert.equal(code, 0, stdout);
    assert.match(stdout, /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./);
  });

  test('`opencode run` rejects a permission ask itself at once; the plugin leaves it alone, so nothing comes and goes in the panel', async function () {
    const where = project();
    const { stdout, stderr } = await finished(start(['run', 'Make the marker. scenario:bash'], where));
    assert.match(stdout + stderr, /permission requested: bash \(touch marker, echo done\); auto-rejecting/);
    assert.equal(existsSync(join(where.cwd, 'marker')), false);
    const history = await ui.workbench.driver<Array<{ kind: string; summary: string }>>('history');
    assert.deepEqual(
      history.filter((h) => h.kind === 'permission'),
      [],
      'no permission request came and went',
    );
  });

  test('the plugin brings OpenCode permission asks to the panel first (Allow runs the command, Deny tells the model why) and its own question tool as a question; answered or interrupted in OpenCode, it leaves the panel; with a stale token OpenCode keeps the ask itself', async function () {
    const where = project();
    const server = await serveOpenCode({ ...where, env: { ...where.env, OPENCODE_ENABLE_QUESTION_TOOL: '1' } });
    const { api, prompt } = server;
    const marker = join(where.cwd, 'marker');
    const waiting = await ui.workbench.driver<{ callId: number }>('ask', {
      request: { questions: [{ id: 'later', header: 'Later', question: 'A question that waits', options: [{ label: 'A' }, { label: 'B' }] }] },
    });
    try {
      // Allow: the command appears whole, first in the queue, and runs.
      let reply = prompt('Make the marker. scenario:bash');
      const row = ui.workbench.page.locator('.monaco-list-row', { hasText: 'OpenCode wants to run a command' }).first();
      await row.waitFor();
      const tree = await ui.workbench.driver<{ value: { tree: Array<{ label: string; children: string[] }> } }>('command', { id: 'agentQuestions.internal.attentionState' });
      assert.deepEqual(tree.value.tree, [
        { label: 'Permissions', children: ['OpenCode wants to run a command'] },
        { label: 'Questions', children: ['Later'] },
      ]);
      await row.click();
      await shown('wants to run a command');
      assert.equal(await ui.panel.locator('.tool-call pre.command').innerText(), BASH_COMMAND);
      assert.match(await ui.panel.locator('.request-source .via').innerText(), /^OpenCode plugin · name self-reported · token [0-9a-f]{6}$/);
      await ui.workbench.screenshot('opencode-permission');
      await button(ui.panel, 'allow_once').click();
      assert.match(await reply, /MODEL RECEIVED: done/);
      assert.equal(existsSync(marker), true, 'the allowed command ran');

      // Deny: the command does not run and the model gets the message.
      rmSync(marker);
      reply = prompt('Make the marker. scenario:bash');
      await ui.workbench.page.locator('.monaco-list-row', { hasText: 'OpenCode wants to run a command' }).first().click();
      await shown('wants to run a command');
      await ui.panel.locator('.deny-message').click();
      await ui.workbench.page.keyboard.type('not now, use the staging box');
      await button(ui.panel, 'deny').click();
      assert.match(await reply, /MODEL RECEIVED: The user rejected permission to use this specific tool call with the following feedback: not now, use the staging box/);
      assert.equal(existsSync(marker), false, 'the denied command did not run');

      // OpenCode's own question tool (on in its TUI and apps; OPENCODE_ENABLE_QUESTION_TOOL here) lands as a question request.
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
      await ui.workbench.driver('await', { callId: waiting.callId });
      reply = prompt('Pick a cache. scenario:question');
      await shown('Which cache should I use?');
      assert.match(await ui.panel.locator('.request-source').first().innerText(), /^OpenCode asks/);
      await chooseAndSubmit(ui.panel, 'Redis');
      assert.match(await reply, /MODEL RECEIVED: User has answered your questions: "Which cache should I use\?"="Redis"/);

      // Answered in OpenCode itself (its TUI replies through the same route): the panel lets the request go.
      reply = prompt('Make the marker. scenario:bash');
      await shown('wants to run a command');
      const [asked] = await api<Array<{ id: string }>>('GET', '/permission');
      await api('POST', `/permission/${asked!.id}/reply`, { reply: 'reject' });
      await reply;
      await ui.panel.locator('.empty').waitFor();
      const [settled] = await ui.workbench.driver<Array<{ kind: string; status: string }>>('history');
      assert.deepEqual([settled!.kind, settled!.status], ['permission', 'cancelled']);
      assert.equal(existsSync(marker), false);

      // Interrupted in OpenCode (its session aborted, which sends no permission.replied): the panel lets the request go.
      reply = prompt('Make the marker. scenario:bash').catch((error: Error) => error.message);
      await shown('wants to run a command');
      const [interrupted] = await api<Array<{ id: string; sessionID: string }>>('GET', '/permission');
      const abortedAt = Date.now();
      await api('POST', `/session/${interrupted!.sessionID}/abort`);
      await ui.panel.locator('.empty').waitFor();
      console.log(`      the panel was empty ${Date.now() - abortedAt} ms after the interrupt`);
      await reply;
      const [withdrawn] = await ui.workbench.driver<Array<{ kind: string; status: string }>>('history');
      assert.deepEqual([withdrawn!.kind, withdrawn!.status], ['permission', 'cancelled']);
      assert.equal(existsSync(marker), false, 'the interrupted command did not run');

      // A stale token: the hook fails closed, the reason is logged, and the ask stays OpenCode's.
      await ui.workbench.driver('command', { id: 'agentQuestions.rotateMcpToken', args: [{ skipConfirmation: true }] });
      reply = prompt('Make the marker. scenario:bash');
      // At the deadline, the assertion below shows what OpenCode said instead.
      await until('the hook to say the endpoint refused the token', () => /refused the token/.test(server.output()), { everyMs: 100 }).catch(() => undefined);
      assert.match(server.output(), /Agent Questions hook: the endpoint refused the token \(401\).*; OpenCode asks you itself\./);
      // OpenCode 1.18.33 keeps the interrupted ask in its own list: only the new one counts.
      const pending = (await api<Array<{ id: string; permission: string }>>('GET', '/permission')).filter((p) => p.id !== interrupted!.id);
      assert.deepEqual(
        pending.map((p) => p.permission),
        ['bash'],
        'still waiting for OpenCode’s own prompt',
      );
      assert.deepEqual(await ui.workbench.driver('list'), [], 'nothing reached the panel');
      await api('POST', `/permission/${pending[0]!.id}/reply`, { reply: 'reject' });
      await reply;
      assert.equal(existsSync(marker), false);
    } finally {
      await server.close();
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
    }
  });
});
