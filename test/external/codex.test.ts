import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { KEEP_ALIVE_MS } from '../../src/mcp/mcpEndpoint';
import { startResponsesModel, outputText, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { runCodexExec, startCodexTui, type CodexRun } from '../harness/codexCli.mjs';
import { remainingMs, step, until } from '../harness/deadline';
import { button, chooseAndSubmit, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// The real Codex CLI (`codex exec`, and once the interactive `codex` in tmux) with the
// configuration "Connect an External Agent…" hands out, byte for byte, against a scripted model on
// 127.0.0.1; it asks through our MCP endpoint inside the real VS Code and the user answers in the panel.
const DATABASE = { questions: [{ id: 'database', header: 'Database', question: 'Which database should I use?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };
const COMMAND = 'touch marker && echo done';
const SCENARIOS = [
  { match: 'scenario:ask', calls: [{ name: 'ask_user', input: DATABASE }] },
  // Ask without waiting, run a command meanwhile, then wait for the answer with get_answers.
  {
    match: 'scenario:keep-working',
    calls: [
      { name: 'ask_user', input: { ...DATABASE, wait: false } },
      { name: 'exec_command', input: { cmd: 'echo OTHER-WORK-DONE' } },
      { name: 'get_answers', input: { ids: ['{waitingId}'], waitSeconds: 600 } },
    ],
  },
  // Out of the sandbox: a command Codex must ask about under an approval policy that asks.
  { match: 'scenario:shell', calls: [{ name: 'exec_command', input: { cmd: COMMAND, sandbox_permissions: 'require_escalated', justification: 'Create the marker file' } }] },
];
/** `codex exec` never asks unless approvals go through review; then the hook is asked first. Trust: see the tmux test. */
const ASKING_EXEC = ['--approve-for-me', '--dangerously-bypass-hook-trust'];

suite('Codex CLI through the configuration we hand out (the real codex exec and interactive codex)', () => {
  let model: ResponsesModel;
  let mcpUrl = '';
  /** What a VS Code terminal has: the endpoint's URL and token (and the hook command's path). */
  let terminalEnv: Record<string, string> = {};
  const ui = useWorkbench();

  /** The Codex CLI configuration the connect command hands out, exactly. */
  const handedOut = () => agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text;

  suiteSetup(async function () {
    model = await startResponsesModel({ scenarios: SCENARIOS });
    mcpUrl = await enableEndpoint(ui.workbench);
    assert.match(mcpUrl, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    assert.equal(terminalEnv['AGENT_QUESTIONS_MCP_URL'], mcpUrl);
    assert.match(terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'] ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(terminalEnv['AGENT_QUESTIONS_HOOK'] ?? '', /\/dist\/approvalHook\.js$/);
  });

  suiteTeardown(async () => {
    await model?.close();
  });

  const exec = (prompt: string, options: { env?: Record<string, string>; flags?: string[]; cwd?: string } = {}) =>
    runCodexExec({
      prompt,
      config: handedOut(),
      modelUrl: model.url,
      extraEnv: { ...terminalEnv, ...options.env },
      flags: options.flags ?? [],
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });

  /** The CLI's result; a run still going at the test's deadline is killed and its output reported. */
  async function finished(run: CodexRun) {
    step('Codex finishes');
    const timer = setTimeout(() => run.kill(), remainingMs());
    const result = await run.done;
    clearTimeout(timer);
    if (result.signal === 'SIGKILL') throw new Error(`waited until the test's deadline: Codex did not finish:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** The function_call_output items the model received, in order. */
  const toolOutputs = () => model.received.flatMap((r) => (r.body.input ?? []).filter((i) => i.type === 'function_call_output')).map((i) => outputText(i.output));

  test('codex exec: the model calls ask_user in its namespace; the question appears labelled "Codex"; Codex prints the answer', async function () {
    const run = exec('Set up the service. scenario:ask');
    await waitForRequest(ui.panel, 'Which database should I use?');
    // Codex's self-reported MCP client name (its initialize says title "Codex", name "codex-mcp-client")
    assert.match(await ui.panel.locator('.request-source').first().innerText(), /^Codex asks/);
    assert.match(await ui.panel.locator('.request-source .via').innerText(), /^MCP client · name self-reported · token [0-9a-f]{6}$/);
    await chooseAndSubmit(ui.panel, 'SQLite');
    const { code, stdout } = await finished(run);
    assert.equal(code, 0);
    assert.match(stdout, /MODEL RECEIVED: [\s\S]*The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./);
    // Codex offered our tools as a namespace and took the call that named it.
    const offered = model.received[0]!.body.tools!.find((t) => t.type === 'namespace' && t.tools?.some((x) => x.name === 'ask_user'));
    assert.equal(offered?.name, 'mcp__agent_questions');
    assert.deepEqual(offered?.tools?.map((t) => t.name).sort(), ['approve', 'ask_user', 'get_answers']);
  });

  test('codex exec with wait: false: Codex runs a command while the question waits, then get_answers brings the answer the user gave in the panel', async function () {
    const since = model.received.length;
    const run = exec('Set up the service and keep working. scenario:keep-working');
    await waitForRequest(ui.panel, 'Which database should I use?');
    await ui.panel.locator('.keeps-working').waitFor();
    // The model got ask_user's "waiting" result, then the command's output, while the question still waits.
    const outputs = () => (model.received.slice(since).at(-1)?.body.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => outputText(i.output));
    await until("the command's output reaches the model", () => outputs().some((o) => o.includes('OTHER-WORK-DONE')), { everyMs: 100 });
    const [asked, worked] = outputs();
    assert.match(asked ?? '', /"status":"waiting"/);
    assert.match(worked ?? '', /OTHER-WORK-DONE/);
    assert.equal((await ui.workbench.driver<unknown[]>('list')).length, 1, 'the question is still waiting');
    await chooseAndSubmit(ui.panel, 'SQLite');
    const { code, stdout } = await finished(run);
    assert.equal(code, 0);
    assert.match(stdout, /MODEL RECEIVED: [\s\S]*"[\w-]+": The user answered 1 question: database = "SQLite"\.\n\{"results":\[\{"requestId":"[\w-]+","status":"answered"/);
  });

  test('codex exec with a wrong token: the tool is not offered and Codex prints why the endpoint refused it', async function () {
    const { code, stdout, stderr } = await finished(exec('Set up the service. scenario:ask', { env: { AGENT_QUESTIONS_MCP_TOKEN: 'wrong-token' } }));
    assert.equal(code, 0);
    assert.match(stdout, /no tool named ask_user was offered/);
    // Codex prints only the 401's challenge, so that is where the reason goes.
    assert.match(stderr, /AuthRequired[^\n]*missing or wrong token; start the agent in a VS Code terminal/);
  });

  test('killing Codex while its question is shown settles it as cancelled at once (not at the next keep-alive) and empties the queue', async function () {
    const run = exec('Set up the service. scenario:ask');
    await waitForRequest(ui.panel, 'Which database should I use?');
    const killedAt = Date.now();
    run.kill();
    await ui.panel.locator('.empty').waitFor();
    const elapsed = Date.now() - killedAt;
    assert.deepEqual(await ui.workbench.driver('list'), []);
    const history = await ui.workbench.driver<Array<{ status: string; source: { type: string; label: string } }>>('history');
    assert.equal(history[0]!.status, 'cancelled');
    assert.deepEqual([history[0]!.source.type, history[0]!.source.label], ['mcp', 'Codex']);
    // The closed connection settles it, not the keep-alive written every 15 s into the dead one; the panel may be slow on a busy machine.
    assert.ok(elapsed < KEEP_ALIVE_MS, `settled after ${elapsed} ms`);
    console.log(`      the panel was empty ${elapsed} ms after the kill`);
    await run.done;
  });

  test('codex exec approvals through the hook: the command comes first in the queue, whole; Allow runs it; Deny sends the message to the model', async function () {
    // A question is already waiting: the permission must still come first.
    const waiting = await ui.workbench.driver<{ callId: number }>('ask', {
      request: { questions: [{ id: 'later', header: 'Later', question: 'A question that waits', options: [{ label: 'A' }, { label: 'B' }] }] },
    });
    await waitForRequest(ui.panel, 'A question that waits');
    const cwd = mkdtempSync(join(tmpdir(), 'aq-codex-shell-'));
    try {
      let run = exec('Make the marker. scenario:shell', { flags: ASKING_EXEC, cwd });
      const row = ui.workbench.page.locator('.monaco-list-row', { hasText: 'wants to run a command' }).first();
      await row.waitFor();
      const tree = await ui.workbench.driver<{ value: { tree: Array<{ label: string; children: string[] }> } }>('command', { id: 'agentQuestions.internal.attentionState' });
      assert.deepEqual(tree.value.tree, [
        { label: 'Permissions', children: ['Codex wants to run a command'] },
        { label: 'Questions', children: ['Later'] },
      ]);
      await row.click();
      await waitForRequest(ui.panel, 'wants to run a command');
      assert.equal(await ui.panel.locator('.tool-call pre.command').innerText(), COMMAND);
      assert.match(await ui.panel.locator('.request-source .via').innerText(), /^Codex hook/);
      await ui.workbench.screenshot('codex-permission-request');
      await button(ui.panel, 'allow_once').click();
      assert.equal((await finished(run)).code, 0);
      assert.equal(existsSync(join(cwd, 'marker')), true, 'the allowed command ran');
      assert.match(toolOutputs().at(-1) ?? '', /Process exited with code 0[\s\S]*Output:\ndone/);

      rmSync(join(cwd, 'marker'));
      run = exec('Make the marker. scenario:shell', { flags: ASKING_EXEC, cwd });
      await ui.workbench.page.locator('.monaco-list-row', { hasText: 'wants to run a command' }).first().click();
      await waitForRequest(ui.panel, 'wants to run a command');
      await ui.panel.locator('.deny-message').click();
      await ui.workbench.page.keyboard.type('not now, use the staging box');
      await button(ui.panel, 'deny').click();
      const { stdout } = await finished(run);
      assert.equal(existsSync(join(cwd, 'marker')), false, 'the denied command did not run');
      // The model's next request carries the denial with the message.
      assert.match(toolOutputs().at(-1) ?? '', /Rejected\(\\?"not now, use the staging box\\?"\)/);
      assert.match(stdout, /not now, use the staging box/);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
      await ui.workbench.driver('await', { callId: waiting.callId });
    }
  });

  test('the interactive codex (in tmux): trust the hook once as Codex asks; ask_user is answered in the panel, and Allow in the panel runs its command', async function () {
    // on-request: Codex asks before a command leaves the sandbox (its default here refuses at once)
    const tui = startCodexTui({ config: handedOut(), modelUrl: model.url, extraEnv: terminalEnv, flags: ['-a', 'on-request'] });
    try {
      // The handed-out hook is new to Codex: it asks to review it before the first prompt.
      // Its first screen can drop keys pressed while it is drawn: each is pressed until it shows.
      await tui.waitFor(/Hooks need review[\s\S]*Trust all and continue/);
      await tui.pressUntil('Down', /› 2\. Trust all and continue/);
      await tui.pressUntil('Enter', /Ask Codex to do anything/);
      await tui.submit('Set up the service. scenario:ask');
      await waitForRequest(ui.panel, 'Which database should I use?').catch((error: Error) => {
        throw new Error(`${error.message}\nCodex's screen:\n${tui.screen()}`);
      });
      assert.match(await ui.panel.locator('.request-source').first().innerText(), /^Codex asks/);
      await chooseAndSubmit(ui.panel, 'PostgreSQL');
      const screen = await tui.waitFor(/MODEL RECEIVED:[\s\S]*database = "PostgreSQL"/);
      assert.match(screen, /Called agent-questions\.ask_user/);
      assert.match(toolOutputs().at(-1) ?? '', /database = "PostgreSQL"/);

      await tui.waitFor(/Worked for[\s\S]*Ask Codex to do anything/);
      await tui.submit('Make the marker. scenario:shell');
      await waitForRequest(ui.panel, 'wants to run a command').catch((error: Error) => {
        throw new Error(`${error.message}\nCodex's screen:\n${tui.screen()}`);
      });
      assert.equal(await ui.panel.locator('.tool-call pre.command').innerText(), COMMAND);
      await button(ui.panel, 'allow_once').click();
      await tui.waitFor(/MODEL RECEIVED:[\s\S]*Process exited with code 0/);
      assert.equal(existsSync(join(tui.cwd, 'marker')), true, 'the allowed command ran');
    } finally {
      tui.close();
    }
  });
});
