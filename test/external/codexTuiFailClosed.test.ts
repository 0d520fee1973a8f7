import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { outputText, startResponsesModel, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { startCodexTui, type CodexTui } from '../harness/codexCli.mjs';
import { hookPidsOf } from '../harness/codexTuiHook.mjs';
import { quietFor, step, until } from '../harness/deadline';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 41, held-out situations for the interactive Codex (the TUI in tmux, `-a on-request`, the
// configuration we hand out): the model asks to run `touch marker` outside the sandbox, our hook
// holds it in the Queue, and then the answer is taken away — the endpoint turned off, the hook
// killed, the user interrupts (Esc, Ctrl-C). None of them may run the command without a person: if
// Codex shows its own approval prompt, the person's "No" (Esc) runs nothing either. After an
// interrupt our request leaves the Queue within 5 s. Codex's hook time limit is checked in
// test/unit/hook/failClosed.test.ts; `codex exec --approve-for-me` in codexFailClosed.test.ts.
const COMMAND = 'touch marker && echo done';
const SCENARIOS = [
  { match: 'scenario:shell', calls: [{ name: 'exec_command', input: { cmd: COMMAND, sandbox_permissions: 'require_escalated', justification: 'Create the marker file' } }] },
];
/** Runs of each case: one in `npm test`; AGENT_QUESTIONS_FAIL_CLOSED_RUNS=10 for issue 41's 10 of 10. */
const RUNS = Number(process.env.AGENT_QUESTIONS_FAIL_CLOSED_RUNS ?? 1);
/** The hook's words to the model when it denies an undecided request (runHook.ts, or the shell of the handed-out command). */
const UNDECIDED = /No decision in the Agent Questions panel \([^)]*\); denied, so nothing decides for the user/;
/** Codex's own approval prompt, shown when a hook gives no decision. */
const OWN_PROMPT = /Would you like to run the following command\?/;
/** The prompt line, back once the turn is over. */
const IDLE = /Ask Codex to do anything|Conversation interrupted|tell the model what to do differently/;
/** Issue 41: after an interrupt the request leaves our Queue within 5 s. */
const LEAVES_AFTER_INTERRUPT_MS = 5000;

interface Pending {
  id: string;
}
interface Settled {
  requestId: string;
  status: string;
  decidedBy?: { by: string; part?: string; where?: string };
}
interface Held {
  tui: CodexTui;
  requestId: string;
  since: number;
}

suite("The interactive Codex never runs a held command without a person's allow (endpoint off, hook killed, Esc, Ctrl-C; the real codex in tmux)", () => {
  let model: ResponsesModel;
  const tuis: CodexTui[] = [];
  const ui = useWorkbench();

  suiteSetup(async () => {
    model = await startResponsesModel({ scenarios: SCENARIOS });
  });

  teardown(async () => {
    for (const tui of tuis.splice(0)) tui.close();
    for (const pending of await ui.workbench.driver<Pending[]>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
    await model?.close();
  });

  /** This session's pending request (its hook input names the session's folder), or undefined once it left the Queue. */
  async function pendingFor(tui: CodexTui): Promise<Pending | undefined> {
    return (await ui.workbench.driver<Pending[]>('list')).find((r) => JSON.stringify(r).includes(tui.cwd));
  }

  const settledAs = async (requestId: string): Promise<Settled> => (await ui.workbench.driver<Settled[]>('history')).find((e) => e.requestId === requestId)!;
  const ran = (h: Held) => existsSync(join(h.tui.cwd, 'marker'));
  /** The function_call_output items the model received in this run. */
  const outputs = (h: Held) => model.received.slice(h.since).flatMap((r) => (r.body.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => outputText(i.output)));

  /**
   * A new interactive codex as from a VS Code terminal opened now (the endpoint turned on again),
   * the handed-out hook trusted as Codex asks, the prompt sent, and the command held in our Queue.
   */
  async function held(): Promise<Held> {
    const mcpUrl = await enableEndpoint(ui.workbench);
    const env = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    const config = agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text;
    const tui = startCodexTui({ config, modelUrl: model.url, extraEnv: env, flags: ['-a', 'on-request'] });
    tuis.push(tui);
    await tui.waitFor(/Hooks need review[\s\S]*Trust all and continue/);
    await tui.pressUntil('Down', /› 2\. Trust all and continue/);
    await tui.pressUntil('Enter', /Ask Codex to do anything/);
    const since = model.received.length;
    await tui.submit('Make the marker. scenario:shell');
    const request = await until('the command to wait in our Queue', () => pendingFor(tui)).catch((error: Error) => {
      throw new Error(`${error.message}\nCodex's screen:\n${tui.screen()}`);
    });
    return { tui, requestId: request.id, since };
  }

  /**
   * The answer was taken away: the hook has ended, the request left our Queue, and the model got the
   * hook's denial (a hook that gives up denies for Codex). Should Codex show its own prompt instead
   * (the hook gave no decision), the person's "No" (Esc) is given there and the run fails saying so.
   * Either way, nothing ran.
   */
  async function deniedByTheHook(h: Held): Promise<void> {
    await until('the hook process to end', () => hookPidsOf(h.tui).length === 0);
    await until('the request to leave our Queue', async () => !(await pendingFor(h.tui)));
    const next = await until("the model to get the hook's denial, or Codex to show its own prompt (or the command to run)", () =>
      ran(h) ? 'ran' : outputs(h).some((o) => UNDECIDED.test(o)) ? 'denied' : OWN_PROMPT.test(h.tui.screen()) ? 'own prompt' : undefined,
    );
    assert.equal(ran(h), false, `the command ran without a person (${next})\nCodex's screen:\n${h.tui.screen()}`);
    if (next === 'own prompt') await h.tui.pressUntil('Escape', IDLE);
    await h.tui.waitFor(IDLE);
    // Codex could only run it now, on its own: give it the chance, and see that it does not.
    await quietFor(3000);
    assert.equal(ran(h), false, `the command ran without a person (${next})\nCodex's screen:\n${h.tui.screen()}`);
    assert.equal(
      outputs(h).some((o) => /Process exited with code 0/.test(o)),
      false,
      'the model got the output of the command',
    );
    assert.equal(next, 'denied', "the hook gave no decision: Codex asked in its own prompt (answered No there; nothing ran), not the hook's denial");
  }

  /** `RUNS` runs, each checked whole: a failing run is reported with the others' outcome rather than ending the test. */
  async function everyRun(run: () => Promise<void>): Promise<void> {
    const failures: string[] = [];
    for (let i = 1; i <= RUNS; i++) {
      try {
        await run();
      } catch (error) {
        // Whatever went wrong (Codex may have exited), whether the command ran is what matters most.
        const ranAnyway = tuis.some((tui) => existsSync(join(tui.cwd, 'marker')));
        console.log(`      run ${i} failed: ${error instanceof Error ? error.message : String(error)}`);
        failures.push(`run ${i}${ranAnyway ? ' (THE COMMAND RAN)' : ' (the command did not run)'}: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
      } finally {
        for (const tui of tuis.splice(0)) tui.close();
        for (const pending of await ui.workbench.driver<Pending[]>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${RUNS} runs failed`);
  }

  test(`prevents the interactive Codex from running a held command when the endpoint is turned off (${RUNS} runs)`, async function () {
    this.timeout(RUNS * 120_000);
    await everyRun(async () => {
      const h = await held();
      await ui.workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: false });
      await deniedByTheHook(h);
      assert.deepEqual((await settledAs(h.requestId)).decidedBy, { by: 'shutdown', part: 'endpoint' });
    });
  });

  test(`prevents the interactive Codex from running a held command when the hook is killed (SIGKILL) (${RUNS} runs)`, async function () {
    this.timeout(RUNS * 120_000);
    await everyRun(async () => {
      const h = await held();
      const [hook, ...others] = await until("this session's hook process", () => {
        const pids = hookPidsOf(h.tui);
        return pids.length ? pids : undefined;
      });
      assert.deepEqual(others, [], 'one hook process');
      process.kill(hook!, 'SIGKILL');
      await deniedByTheHook(h);
      const settled = await settledAs(h.requestId);
      assert.equal(settled.status, 'cancelled');
      assert.equal(settled.decidedBy?.by, 'asker');
    });
  });

  for (const [key, name] of [
    ['Escape', 'Esc'],
    ['C-c', 'Ctrl-C'],
  ] as const) {
    test(`prevents an interrupted call (${name} in the interactive Codex while held) from running or staying in our Queue: it leaves within 5 s (${RUNS} runs)`, async function () {
      this.timeout(RUNS * 120_000);
      await everyRun(async () => {
        const h = await held();
        // The hook is running (Codex shows its status line) before the key is pressed.
        await until("this session's hook process", () => hookPidsOf(h.tui).length > 0);
        const pressedAt = Date.now();
        h.tui.press(key);
        step(`the request to leave our Queue after ${name}`);
        const leftAt = await until(`the interrupted request to leave our Queue`, async () => ((await pendingFor(h.tui)) ? undefined : Date.now()), { everyMs: 100 }).catch(
          (error: Error) => {
            throw new Error(`${error.message}\nCodex's screen:\n${h.tui.screen()}`);
          },
        );
        const seconds = (leftAt - pressedAt) / 1000;
        console.log(`      the request left our Queue ${seconds.toFixed(1)} s after ${name}`);
        assert.ok(leftAt - pressedAt <= LEAVES_AFTER_INTERRUPT_MS, `left our Queue ${seconds.toFixed(1)} s after ${name}`);
        await until('the hook process to end', () => hookPidsOf(h.tui).length === 0);
        await quietFor(3000);
        assert.equal(ran(h), false, `the interrupted command ran\nCodex's screen:\n${h.tui.screen()}`);
        // Should Codex ask in its own prompt after all, the person says No there, and still nothing runs.
        if (OWN_PROMPT.test(h.tui.screen())) {
          await h.tui.pressUntil('Escape', IDLE);
          await quietFor(3000);
          assert.equal(ran(h), false, `the command ran after the person said no\nCodex's screen:\n${h.tui.screen()}`);
        }
        const settled = await settledAs(h.requestId);
        assert.equal(settled.status, 'cancelled');
        assert.equal(settled.decidedBy?.by, 'asker', `withdrawn by the agent's side, not decided in the panel: ${JSON.stringify(settled.decidedBy)}`);
      });
    });
  }
});
