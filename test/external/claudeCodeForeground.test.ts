import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeMcpJson } from '../../src/agents/claudeCode/claudeCodeConfig';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { remainingMs, until } from '../harness/deadline';
import { configSection, startInteractiveClaude, type InteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { answerByClick, button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Interactive Claude Code (in tmux, the way most people run it) moves an MCP call still running
// after 120 s to the background, tells the model to keep working and delivers the answer later as
// a "[SYSTEM NOTIFICATION - NOT USER INPUT]" turn. With the configuration we hand out, a question
// and a permission prompt answered in the panel after 150 s stay the tool call they answer, and
// print mode is unchanged; a question answered after ten minutes too. All four wait at once: the
// test takes about eleven minutes, beside the other layers (npm test starts it first).
const USER_DELAY_S = 150;
const LONG_DELAY_S = 600;
const QUESTION_TEXT = 'Interactive Claude Code, answered late: which database?';
const LONG_QUESTION_TEXT = 'Interactive Claude Code, answered after ten minutes: which database?';
const PRINT_QUESTION_TEXT = 'Claude Code print mode, answered late: which database?';
const question = (header: string, text: string) => ({ questions: [{ id: 'database', header, question: text, options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] });
const MARKER = 'foreground-marker';
const ASK_USER = 'mcp__agent-questions__ask_user';
const SCENARIOS = [
  { match: 'scenario:fg-ask', calls: [{ name: ASK_USER, input: question('Late question', QUESTION_TEXT) }] },
  {
    match: 'scenario:fg-bash',
    calls: [{ name: 'Bash', input: { command: `touch ${MARKER} && echo made-${MARKER}`, description: 'Create a marker file' } }],
    reply: 'BASH RESULT (error={is_error}): {result}',
  },
  { match: 'scenario:fg-long', calls: [{ name: ASK_USER, input: question('Ten-minute question', LONG_QUESTION_TEXT) }] },
  { match: 'scenario:fg-print', calls: [{ name: ASK_USER, input: question('Late print question', PRINT_QUESTION_TEXT) }] },
];
/** What Claude Code says, to the model and on screen, when it moves a call to the background. */
const BACKGROUND = /moved to the background|SYSTEM NOTIFICATION|background-task event/i;

type Block = { type?: string; id?: string; name?: string; tool_use_id?: string; is_error?: boolean; content?: unknown; text?: string };
const blocksOf = (request: ModelServer['received'][number]): Block[] =>
  (request.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? (m.content as Block[]) : [{ type: 'text', text: String(m.content) }]));
const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: Block) => c.text ?? '').join('\n') : '');

suite('Interactive Claude Code keeps a long wait in the foreground (the handed-out configuration, answered in the panel after 150 s)', () => {
  let model: ModelServer;
  let terminalEnv: Record<string, string> = {};
  let settings = '';
  const sessions: InteractiveClaude[] = [];
  const ui = useWorkbench();

  suiteSetup(async function () {
    model = await startModelServer({ scenarios: SCENARIOS });
    const url = await enableEndpoint(ui.workbench);
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    assert.equal(terminalEnv['AGENT_QUESTIONS_MCP_URL'], url);
    settings = configSection(agentConfigs(url).find((config) => config.agent === 'Claude Code')!.text, '// .claude/settings.json');
  });

  teardown(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await model?.close();
  });

  /** A session with the handed-out .mcp.json and .claude/settings.json; ask_user allowed as "don't ask again" would (settings.local.json). */
  async function startSession(): Promise<InteractiveClaude> {
    const session = startInteractiveClaude({
      modelUrl: model.url,
      // MCP tools straight in `tools`, not behind a ToolSearch call the scripted model would have to make.
      env: { ...terminalEnv, ENABLE_TOOL_SEARCH: 'false' },
      projectFiles: { '.mcp.json': claudeCodeMcpJson(), '.claude/settings.json': settings, '.claude/settings.local.json': JSON.stringify({ permissions: { allow: [ASK_USER] } }) },
      enabledMcpjsonServers: ['agent-questions'],
    });
    sessions.push(session);
    await session.ready();
    return session;
  }

  /** When a pending request whose JSON contains `text` was first seen in the queue. */
  const arrival = (text: string): Promise<number> =>
    until(`a request with "${text}" to wait in the queue`, async () => (JSON.stringify(await ui.workbench.driver<unknown[]>('list')).includes(text) ? Date.now() : undefined), {
      everyMs: 250,
    });

  /** One answer at a time: the panel shows one request, picked from the Queue. Resolves with when the answer was given (just before it). */
  let answering = Promise.resolve();
  function answerInPanel(row: string, shown: string, answer: () => Promise<void>): Promise<number> {
    const turn = answering.then(async () => {
      // Picked from the Queue only when not already on screen: showing it again restarts its arrival, and a click then only chooses.
      if (!(await ui.panel.locator('.request:not([inert])', { hasText: shown }).first().isVisible()))
        await ui.workbench.page.locator('.monaco-list-row', { hasText: row }).first().click();
      await waitForRequest(ui.panel, shown);
      const at = Date.now();
      await answer();
      await ui.panel.locator('.request', { hasText: shown }).waitFor({ state: 'detached' });
      return at;
    });
    answering = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /** The user's delay (the point of the test), then the answer; resolves with when it was given and how long the request had waited. */
  async function answerAfter(seconds: number, text: string, row: string, answer: () => Promise<void>): Promise<{ at: number; waited: number }> {
    const arrived = await arrival(text);
    await new Promise((r) => setTimeout(r, seconds * 1000 - (Date.now() - arrived)));
    // The model's next request can come before the panel has let go of the answered request: time it from the answer.
    const at = await answerInPanel(row, text, answer);
    return { at, waited: (at - arrived) / 1000 };
  }

  /** Everything a session's screen showed while `pending` was pending, sampled twice a second (what scrolls by is caught too). */
  function recordScreen(session: InteractiveClaude, pending: Promise<unknown>): { seen: () => string } {
    let seen = '';
    let done = false;
    void pending.finally(() => (done = true)).catch(() => undefined);
    void (async () => {
      while (!done) {
        const match = BACKGROUND.exec(session.screen());
        if (match && !seen) seen = session.screen();
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    return { seen: () => seen };
  }

  /** The requests of one scenario (by its prompt), in order. */
  const requestsOf = (scenario: string) => model.received.filter((r) => JSON.stringify(r.body.messages ?? []).includes(scenario));

  /** Waits for a model request of the scenario after `at` that carries `text`; the answer reached the model, in whatever frame. */
  async function nextRequest(scenario: string, at: number, text: string, session: InteractiveClaude): Promise<void> {
    await until(`a model request of ${scenario} after the answer carrying "${text}"`, () =>
      requestsOf(scenario).some((r) => r.at >= at && JSON.stringify(r.body.messages).includes(text)),
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the terminal shows:\n${session.screen()}`);
    });
  }

  /** The tool_result the model got for its call of `tool` in this scenario (the last request's view of the conversation). */
  function toolResultFor(scenario: string, tool: string): Block {
    const last = requestsOf(scenario).at(-1)!;
    const call = blocksOf(last).find((b) => b.type === 'tool_use' && b.name === tool);
    assert.ok(call, `the model called ${tool}`);
    const result = blocksOf(last).find((b) => b.type === 'tool_result' && b.tool_use_id === call.id);
    assert.ok(result, `the conversation has the result of ${tool}`);
    return result;
  }

  test('a question (ask_user) and a permission prompt (Bash, through the hook) answered after 150 s, and a question after 10 minutes, come back as the results of their calls, with no "moved to the background"; print mode unchanged', async function () {
    // The ten minutes, plus starting three sessions and the print run before and their replies after, on a busy machine.
    this.timeout(LONG_DELAY_S * 1000 + 300_000);
    const [asking, approving, waitingLong] = await Promise.all([startSession(), startSession(), startSession()]);
    await Promise.all([
      asking.prompt('Go. scenario:fg-ask', model),
      approving.prompt('Make the marker. scenario:fg-bash', model),
      waitingLong.prompt('Go. scenario:fg-long', model),
    ]);
    const print = runClaude({ prompt: 'Go. scenario:fg-print', modelUrl: model.url, mcpUrl: '', mcpConfig: claudeCodeMcpJson(), allowedTools: [ASK_USER], extraEnv: terminalEnv });
    // Still running at the test's deadline: killed, so its output is reported.
    const killPrint = setTimeout(() => print.child.kill('SIGKILL'), remainingMs());
    try {
      const askAnswer = answerAfter(USER_DELAY_S, QUESTION_TEXT, 'Late question', () => answerByClick(ui.panel, 'SQLite'));
      const bashAnswer = answerAfter(USER_DELAY_S, MARKER, 'wants to run a command', () => button(ui.panel, 'allow_once').click());
      const printAnswer = answerAfter(USER_DELAY_S, PRINT_QUESTION_TEXT, 'Late print question', () => answerByClick(ui.panel, 'PostgreSQL'));
      const longAnswer = answerAfter(LONG_DELAY_S, LONG_QUESTION_TEXT, 'Ten-minute question', () => answerByClick(ui.panel, 'SQLite'));
      const longScreen = recordScreen(waitingLong, longAnswer);
      const askScreen = recordScreen(asking, askAnswer);
      const bashScreen = recordScreen(approving, bashAnswer);
      // Claude Code shows its own permission prompt meanwhile.
      await approving.waitFor(/Do you want to proceed\?/);
      const [asked, approved, printed, long] = await Promise.all([askAnswer, bashAnswer, printAnswer, longAnswer]);
      console.log(
        `      answered after ${[asked, approved, printed, long].map((a) => `${a.waited.toFixed(0)} s`).join(', ')} (interactive ask_user, interactive Bash permission, print-mode ask_user, interactive ask_user after ten minutes)`,
      );
      assert.ok(asked.waited >= USER_DELAY_S && approved.waited >= USER_DELAY_S && printed.waited >= USER_DELAY_S && long.waited >= LONG_DELAY_S);

      // Each case is checked to the end, all at once (a wait lasts until the test's deadline), so one run shows which of them fail.
      const failures: string[] = [];
      const check = async (name: string, run: () => Promise<void>) => run().catch((error: Error) => failures.push(`${name}: ${error.message}`));
      const answeredInForeground = async (scenario: string, text: string, session: InteractiveClaude, at: number, screen: { seen: () => string }) => {
        // The answer is the result of the ask_user call, and it names the question and the request.
        await nextRequest(scenario, at, 'The user answered', session);
        const answer = textOf(toolResultFor(scenario, ASK_USER).content);
        assert.match(answer, new RegExp(`^The user answered 1 question, "${text.replace(/[?]/g, '\\?')}" \\(request id "[^"]+"\\): database = "SQLite"\\.`), answer);
        await session.waitFor(/MODEL RECEIVED: The user answered 1 question/);
        assert.equal(screen.seen(), '', `the terminal showed:\n${screen.seen()}`);
        const framed = requestsOf(scenario)
          .map((r) => JSON.stringify(r.body.messages))
          .find((body) => BACKGROUND.test(body));
        assert.equal(framed, undefined, 'the model got a background-task frame');
      };
      await Promise.all([
        check('ask_user, interactive', () => answeredInForeground('scenario:fg-ask', QUESTION_TEXT, asking, asked.at, askScreen)),
        check('ask_user, interactive, after ten minutes', () => answeredInForeground('scenario:fg-long', LONG_QUESTION_TEXT, waitingLong, long.at, longScreen)),
        check('Bash permission through the hook, interactive', async () => {
          // The command ran as the result of its Bash call.
          await nextRequest('scenario:fg-bash', approved.at, `made-${MARKER}`, approving);
          const ran = toolResultFor('scenario:fg-bash', 'Bash');
          assert.notEqual(ran.is_error, true, textOf(ran.content));
          assert.match(textOf(ran.content), new RegExp(`made-${MARKER}`));
          assert.equal(existsSync(join(approving.project, MARKER)), true, 'the allowed command ran');
          await approving.waitFor(/BASH RESULT \(error=false\): made-foreground-marker/);
          assert.equal(bashScreen.seen(), '', `the terminal showed:\n${bashScreen.seen()}`);
          const framed = requestsOf('scenario:fg-bash')
            .map((r) => JSON.stringify(r.body.messages))
            .find((text) => BACKGROUND.test(text));
          assert.equal(framed, undefined, 'the model got a background-task frame');
        }),
        check('ask_user, print mode', async () => {
          // As before: the answer is the tool result.
          const { stdout, stderr } = await print.done;
          assert.match(
            stdout,
            new RegExp(`MODEL RECEIVED: The user answered 1 question, "${PRINT_QUESTION_TEXT.replace(/[?]/g, '\\?')}" \\(request id "[^"]+"\\): database = "PostgreSQL"\\.`),
            `${stdout}\n${stderr}`,
          );
        }),
      ]);
      assert.deepEqual(failures, []);
      assert.match(settings, /"CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS": "0"/, 'the handed-out settings keep MCP calls in the foreground');
    } finally {
      clearTimeout(killPrint);
    }
  });
});
