import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAY_SECONDS } from '../../src/agents/agentConfig';
import { claudeCodeMcpJson } from '../../src/agents/claudeCode/claudeCodeConfig';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { startChatModelServer, type ChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import { startResponsesModel, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { runCodexExec } from '../harness/codexCli.mjs';
import { remainingMs, until } from '../harness/deadline';
import { openCodeProject, startOpenCode } from '../harness/openCodeCli.mjs';
import { button, chooseAndSubmit, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// A question waits as long as the human: the real Claude Code, Codex and OpenCode ask through the
// endpoint inside the real VS Code, and the user answers in the panel only after each CLI's own
// limit for a silent call has passed (Claude Code's 60 s first-byte wait at its defaults; its idle
// limit and OpenCode's call timeout lowered to 40 s, which progress notifications every 15 s reset:
// 20 s left 5 s of slack, too little on a loaded machine). All five wait at once, so the suite takes
// about two and a half minutes. The 6-minute soak with the configurations as
// handed out is `npm run soak`.
const question = (id: string, header: string, text: string) => ({ questions: [{ id, header, question: text, options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] });
const CLAUDE_DEFAULTS = question('database', 'Claude defaults', 'Claude Code at its defaults: which database?');
const CLAUDE_IDLE = question('database', 'Claude idle 40s', 'Claude Code with a 40 s idle limit: which database?');
const CODEX = question('database', 'Codex', 'Codex: which database?');
const OPENCODE = question('database', 'OpenCode', 'OpenCode with a 40 s call timeout: which database?');
const COMMAND = 'touch long-wait-marker && echo done';
const IDLE_40_S = { CLAUDE_CODE_MCP_TOOL_IDLE_TIMEOUT: '40000' };

suite('A question waits as long as the human (the real CLIs, answered in the panel after their limits)', () => {
  let anthropic: ModelServer;
  let responses: ResponsesModel;
  let chat: ChatModelServer;
  let mcpUrl = '';
  let terminalEnv: Record<string, string> = {};
  const ui = useWorkbench();

  suiteSetup(async function () {
    anthropic = await startModelServer({
      scenarios: [
        { match: 'scenario:claude-defaults', calls: [{ name: 'mcp__agent-questions__ask_user', input: CLAUDE_DEFAULTS }] },
        { match: 'scenario:claude-idle', calls: [{ name: 'mcp__agent-questions__ask_user', input: CLAUDE_IDLE }] },
        { match: 'scenario:claude-approve', calls: [{ name: 'Bash', input: { command: COMMAND, description: 'Create a marker file' } }] },
      ],
    });
    responses = await startResponsesModel({ scenarios: [{ match: 'scenario:codex', calls: [{ name: 'ask_user', input: CODEX }] }] });
    chat = await startChatModelServer({ scenarios: [{ match: 'scenario:opencode', calls: [{ name: 'agent-questions_ask_user', input: OPENCODE }] }] });
    mcpUrl = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    assert.equal(terminalEnv['AGENT_QUESTIONS_MCP_URL'], mcpUrl);
  });

  suiteTeardown(async () => {
    await Promise.all([anthropic?.close(), responses?.close(), chat?.close()]);
  });

  /** When each awaited request (by a text its JSON contains) was first seen waiting: one poller for all, every 250 ms (how precisely an arrival is timed). */
  const seen = new Map<string, number>();
  async function watchArrivals(texts: string[], stop: AbortSignal): Promise<void> {
    while (!stop.aborted && texts.some((t) => !seen.has(t))) {
      const pending = JSON.stringify(await ui.workbench.driver<unknown[]>('list'));
      for (const text of texts) if (!seen.has(text) && pending.includes(text)) seen.set(text, Date.now());
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const arrival = (text: string): Promise<number> => until(`a request with "${text}" to wait in the queue`, () => seen.get(text), { everyMs: 100 });

  /** Whether a request (by a text its JSON contains) still waits, or how it left: for a failure's report. */
  async function whereIs(text: string): Promise<string> {
    if (JSON.stringify(await ui.workbench.driver<unknown[]>('list')).includes(text)) return 'still waiting in the Queue';
    const settled = (await ui.workbench.driver<Array<Record<string, unknown>>>('history')).find((entry) => JSON.stringify(entry).includes(text));
    return settled
      ? `left the Queue: ${JSON.stringify({ status: settled['status'], decision: settled['decision'], decidedBy: settled['decidedBy'] })}`
      : 'neither waiting nor settled';
  }

  /** One answer at a time: the panel shows one request, picked from the Queue. */
  let answering = Promise.resolve();
  function answerInPanel(row: string, shown: string, answer: () => Promise<void>): Promise<void> {
    const turn = answering.then(async () => {
      try {
        // Picked from the Queue only when not already on screen: showing it again draws it anew, and a click in its first moments only chooses.
        if (!(await ui.panel.locator('.request:not([inert])', { hasText: shown }).first().isVisible()))
          await ui.workbench.page.locator('.monaco-list-row', { hasText: row }).first().click();
        await waitForRequest(ui.panel, shown);
        await answer();
        await ui.panel.locator('.request', { hasText: shown }).waitFor({ state: 'detached' });
      } catch (error) {
        throw new Error(`${(error as Error).message}\n"${shown}" then: ${await whereIs(shown)}`);
      }
    });
    answering = turn.catch(() => undefined);
    return turn;
  }

  /** Waits `seconds` after the request arrived, answers it in the panel, and says how long it waited; a request that never arrives is reported with its CLI's output so far, where the harness keeps it. */
  async function answerAfter(seconds: number, text: string, row: string, answer: () => Promise<void>, output?: () => string): Promise<number> {
    const arrived = await arrival(text).catch((error: Error) => {
      throw output ? new Error(`${error.message}\n${row}'s output so far:\n${output()}`) : error;
    });
    await new Promise((r) => setTimeout(r, seconds * 1000 - (Date.now() - arrived)));
    await answerInPanel(row, text, answer);
    return (Date.now() - arrived) / 1000;
  }

  /** A CLI still running at the test's deadline is killed, so its output is reported. */
  const killAtDeadline = (child: { kill(signal?: NodeJS.Signals): boolean }) => setTimeout(() => child.kill('SIGKILL'), remainingMs());

  test('answered after each limit: Claude Code (defaults, 90 s; idle limit 40 s, 70 s; print-mode approval, 90 s), Codex (90 s) and OpenCode (call timeout 40 s, 70 s) each get the answer', async function () {
    // Five CLIs start at once while npm test starts its other layers: ten minutes for them to ask,
    // which costs the run nothing (the ten-minute wait runs beside it) and only a failure uses.
    this.timeout(600_000);
    const cwd = mkdtempSync(join(tmpdir(), 'aq-long-wait-'));
    const codexConfig = agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text;
    // OpenCode's handed-out files with its call timeout lowered from a day to 40 s (1.18 applies it
    // only when `catalog` and `execution` are equal).
    const openCodeFiles = agentConfigs(mcpUrl)
      .find((c) => c.agent === 'OpenCode')!
      .files!.map((f) => (f.path === 'opencode.json' ? { ...f, text: f.text.replaceAll(String(DAY_SECONDS * 1000), '40000') } : f));
    assert.match(openCodeFiles[0]!.text, /"catalog": 40000,\s*"execution": 40000/);
    const openCode = openCodeProject({ files: openCodeFiles, modelUrl: chat.url, terminalEnv });
    const stopWatching = new AbortController();
    try {
      // The .mcp.json we hand out, at Claude Code's default limits.
      const defaults = runClaude({
        prompt: 'Go. scenario:claude-defaults',
        modelUrl: anthropic.url,
        mcpUrl: '',
        mcpConfig: claudeCodeMcpJson(),
        allowedTools: ['mcp__agent-questions__ask_user'],
        extraEnv: terminalEnv,
      });
      // A plain entry (no per-server timeout, which would raise the idle limit) with the idle limit lowered.
      const idle = runClaude({
        prompt: 'Go. scenario:claude-idle',
        modelUrl: anthropic.url,
        mcpUrl,
        mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'],
        allowedTools: ['mcp__agent-questions__ask_user'],
        extraEnv: IDLE_40_S,
      });
      const approve = runClaude({
        prompt: 'Go. scenario:claude-approve',
        modelUrl: anthropic.url,
        mcpUrl,
        mcpToken: terminalEnv['AGENT_QUESTIONS_MCP_TOKEN'],
        permissionPromptTool: 'mcp__agent-questions__approve',
        extraEnv: IDLE_40_S,
        cwd,
      });
      const codex = runCodexExec({ prompt: 'Go. scenario:codex', config: codexConfig, modelUrl: responses.url, extraEnv: terminalEnv });
      const opencode = startOpenCode(['run', 'Go. scenario:opencode'], openCode);
      const timers = [
        killAtDeadline(defaults.child),
        killAtDeadline(idle.child),
        killAtDeadline(approve.child),
        killAtDeadline(opencode.child),
        setTimeout(() => codex.kill(), remainingMs()),
      ];

      const watching = watchArrivals([CLAUDE_DEFAULTS, CLAUDE_IDLE, CODEX, OPENCODE].map((q) => q.questions[0]!.question).concat('long-wait-marker'), stopWatching.signal);
      watching.catch(() => undefined); // awaited below; a failure before that must not go unhandled
      const waited = await Promise.all([
        answerAfter(90, CLAUDE_DEFAULTS.questions[0]!.question, 'Claude defaults', () => chooseAndSubmit(ui.panel, 'SQLite')),
        answerAfter(70, CLAUDE_IDLE.questions[0]!.question, 'Claude idle 40s', () => chooseAndSubmit(ui.panel, 'SQLite')),
        answerAfter(90, 'long-wait-marker', 'wants to run a command', () => button(ui.panel, 'allow_once').click()),
        answerAfter(90, CODEX.questions[0]!.question, 'Codex', () => chooseAndSubmit(ui.panel, 'SQLite')),
        answerAfter(70, OPENCODE.questions[0]!.question, 'OpenCode', () => chooseAndSubmit(ui.panel, 'SQLite'), opencode.output),
      ]);
      stopWatching.abort();
      await watching;
      console.log(`      answered after ${waited.map((s) => `${s.toFixed(0)} s`).join(', ')} (Claude defaults, Claude idle 40 s, Claude approval, Codex, OpenCode)`);
      const [d, i, a, c, o] = await Promise.all([defaults.done, idle.done, approve.done, codex.done, opencode.done]);
      for (const timer of timers) clearTimeout(timer);

      assert.match(
        d.stdout,
        /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./,
        `Claude Code at its defaults:\n${d.stdout}\n${d.stderr}`,
      );
      assert.match(
        i.stdout,
        /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./,
        `Claude Code with a 40 s idle limit:\n${i.stdout}\n${i.stderr}`,
      );
      assert.match(a.stdout, /MODEL RECEIVED: done/, `Claude Code's approval:\n${a.stdout}\n${a.stderr}`);
      assert.equal(existsSync(join(cwd, 'long-wait-marker')), true, 'the approved command ran');
      assert.match(c.stdout, /MODEL RECEIVED: [\s\S]*The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./, `Codex:\n${c.stdout}\n${c.stderr}`);
      assert.match(
        o.stdout,
        /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): database = "SQLite"\./,
        `OpenCode with a 40 s call timeout:\n${o.stdout}\n${o.stderr}`,
      );
      assert.ok(waited[0]! >= 90 && waited[2]! >= 90 && waited[3]! >= 90 && waited[1]! >= 70 && waited[4]! >= 70, waited.join(', '));
    } finally {
      stopWatching.abort();
      openCode.cleanUp();
      rmSync(cwd, { recursive: true, force: true });
      for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
    }
  });
});
