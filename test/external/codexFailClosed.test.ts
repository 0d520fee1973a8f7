import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { isReview, outputText, startResponsesModel, type ResponsesModel } from '../fixtures/openai-responses-model/server.mjs';
import { runCodexExec, type CodexRun } from '../harness/codexCli.mjs';
import { quietFor, step, until } from '../harness/deadline';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 41: `codex exec --approve-for-me` sends a request whose hook failed (exit 1, killed) to Codex's
// automatic reviewer, a model, which may approve it. The scripted model's reviewer approves every
// action, so a request that reaches it runs: a request the panel left undecided must be denied by
// the hook itself, and the reviewer must never be asked. The real Codex CLI with the configuration
// we hand out; the hook's own deadline is checked in test/unit/hook/failClosed.test.ts.
const COMMAND = 'touch marker && echo done';
const SCENARIOS = [
  { match: 'scenario:shell', calls: [{ name: 'exec_command', input: { cmd: COMMAND, sandbox_permissions: 'require_escalated', justification: 'Create the marker file' } }] },
];
const ASKING_EXEC = ['--approve-for-me', '--dangerously-bypass-hook-trust'];
/** Runs of each case: one in `npm test` (the fail-open was deterministic); AGENT_QUESTIONS_FAIL_CLOSED_RUNS=10 for issue 41's 10 of 10 (see docs/agents.md). */
const RUNS = Number(process.env.AGENT_QUESTIONS_FAIL_CLOSED_RUNS ?? 1);
/** The hook's words to the model when it denies an undecided request (runHook.ts). */
const UNDECIDED = /No decision in the Agent Questions panel \([^)]*\); denied, so nothing decides for the user/;

interface Settled {
  status: string;
  decision?: string;
  decidedBy?: { by: string; part?: string };
}

suite('Codex exec --approve-for-me never runs a command the panel left undecided (the real codex exec)', () => {
  let model: ResponsesModel;
  const ui = useWorkbench();

  suiteSetup(async () => {
    model = await startResponsesModel({ scenarios: SCENARIOS });
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
    await model?.close();
  });

  /** Turns the endpoint on (again) and starts `codex exec` as from a new VS Code terminal, with the configuration handed out now. */
  async function startCodex(cwd: string): Promise<CodexRun> {
    const mcpUrl = await enableEndpoint(ui.workbench);
    const terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', {
      names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'],
    });
    const config = agentConfigs(mcpUrl).find((c) => c.agent === 'Codex CLI')!.text;
    return runCodexExec({ prompt: 'Make the marker. scenario:shell', config, modelUrl: model.url, extraEnv: terminalEnv, flags: ASKING_EXEC, cwd });
  }

  /** The run's permission request, shown in the panel. */
  async function waitsInPanel(): Promise<void> {
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.equal(await ui.panel.locator('.tool-call pre.command').innerText(), COMMAND);
  }

  /** The ids of this run's hook processes (`node …/approvalHook.js codex`), not another run's on the machine. */
  function hookPids(run: CodexRun): number[] {
    let found: string;
    try {
      found = execFileSync('pgrep', ['-f', 'approvalHook\\.js codex'], { encoding: 'utf8' });
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
    const parentOf = (pid: number) => {
      try {
        // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after its ")".
        return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ')[1]);
      } catch {
        return 0;
      }
    };
    const descends = (pid: number) => {
      for (let p = pid; p > 1; p = parentOf(p)) if (p === run.child.pid) return true;
      return false;
    };
    return found.split('\n').filter(Boolean).map(Number).filter(descends);
  }

  /**
   * One run: the request waits in the panel, `leaveUndecided` takes the answer away, and then the
   * command never ran, Codex's reviewer was never asked, and the model got the hook's denial.
   */
  async function undecidedRun(leaveUndecided: (run: CodexRun) => Promise<void>): Promise<Settled> {
    const cwd = mkdtempSync(join(tmpdir(), 'aq-codex-undecided-'));
    const since = model.received.length;
    let run: CodexRun | undefined;
    try {
      run = await startCodex(cwd);
      await waitsInPanel();
      await leaveUndecided(run);
      step('Codex finishes');
      const { stdout, stderr } = await run.finished();
      const requests = model.received.slice(since);
      assert.equal(existsSync(join(cwd, 'marker')), false, `the command ran:\n${stdout}\n${stderr}`);
      assert.equal(requests.filter((r) => isReview(r.body)).length, 0, "Codex's automatic reviewer was asked");
      const outputs = requests.flatMap((r) => (r.body.input ?? []).filter((i) => i.type === 'function_call_output').map((i) => outputText(i.output)));
      assert.match(outputs.at(-1) ?? '', UNDECIDED, 'the model got the denial');
      assert.match(stdout, UNDECIDED);
      await until('the request leaves the queue', async () => (await ui.workbench.driver<unknown[]>('list')).length === 0);
      return (await ui.workbench.driver<Settled[]>('history'))[0]!;
    } finally {
      run?.kill();
      rmSync(cwd, { recursive: true, force: true });
    }
  }

  /** `RUNS` runs, each checked whole: a failing run is reported with the others' outcome rather than ending the test. */
  async function everyRun(leaveUndecided: (run: CodexRun) => Promise<void>, check: (settled: Settled) => void): Promise<void> {
    const failures: string[] = [];
    for (let i = 1; i <= RUNS; i++) {
      try {
        check(await undecidedRun(leaveUndecided));
      } catch (error) {
        failures.push(`run ${i}: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
        // What a failed run left: its request, and the endpoint perhaps off (the next run turns it on).
        for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
      }
    }
    assert.deepEqual(failures, [], `${failures.length} of ${RUNS} runs failed`);
  }

  test(`prevents codex exec --approve-for-me from running a command the panel left undecided: the endpoint turned off while it waits (${RUNS} runs)`, async function () {
    this.timeout(RUNS * 90_000);
    await everyRun(
      async () => {
        await ui.workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: false });
      },
      (settled) => {
        assert.equal(settled.status, 'cancelled');
        assert.deepEqual(settled.decidedBy, { by: 'shutdown', part: 'endpoint' });
      },
    );
  });

  // SIGTERM: the hook answers the denial itself. SIGKILL: it cannot; the shell of the command we hand out does.
  for (const [signal, how] of [
    ['SIGTERM', 'the hook stopped by SIGTERM'],
    ['SIGKILL', 'the hook killed (SIGKILL, it cannot answer: the shell of the handed-out command denies)'],
  ] as const) {
    test(`prevents codex exec --approve-for-me from running a command the panel left undecided: ${how} while it waits (${RUNS} runs)`, async function () {
      this.timeout(RUNS * 90_000);
      await everyRun(
        async (run) => {
          const [hook, ...others] = await until("this run's hook process", () => {
            const pids = hookPids(run);
            return pids.length ? pids : undefined;
          });
          assert.deepEqual(others, [], 'one hook process');
          process.kill(hook!, signal);
        },
        (settled) => {
          assert.equal(settled.status, 'cancelled');
          assert.equal(settled.decidedBy?.by, 'asker');
        },
      );
    });
  }

  test('codex exec --approve-for-me: Allow once given in the panel after 30 s still runs the command (and the reviewer is not asked)', async function () {
    const cwd = mkdtempSync(join(tmpdir(), 'aq-codex-late-allow-'));
    const since = model.received.length;
    try {
      const run = await startCodex(cwd);
      await waitsInPanel();
      // The user's delay: 30 s before answering, and nothing runs meanwhile.
      await quietFor(30_000);
      assert.equal(existsSync(join(cwd, 'marker')), false, 'the command ran before the answer');
      await button(ui.panel, 'allow_once').click();
      step('Codex finishes');
      const { code, stdout, stderr } = await run.finished();
      assert.equal(code, 0);
      assert.equal(existsSync(join(cwd, 'marker')), true, `the allowed command did not run:\n${stdout}\n${stderr}`);
      assert.equal(model.received.slice(since).filter((r) => isReview(r.body)).length, 0, "Codex's automatic reviewer was asked");
      assert.equal((await ui.workbench.driver<Settled[]>('history'))[0]!.decision, 'allow_once');
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
