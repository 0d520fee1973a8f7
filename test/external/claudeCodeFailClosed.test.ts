import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { configSection, startInteractiveClaude, type InteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { quietFor, step, until } from '../harness/deadline';
import { claudePid, descendantsMatching } from '../harness/processTree.mjs';
import { pressUntil } from '../harness/tmuxScreen.mjs';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 41, held-out situations for interactive Claude Code: the model asks to run `touch <marker>`,
// our hook holds it in the Queue, and then the answer is taken away — Claude Code's hook time limit
// passes, the hook is killed, the endpoint is turned off, the user interrupts. None of them may run
// the command: what is left is Claude Code's own "Do you want to proceed?" (a person's prompt).
// A late "Allow once" in the panel still runs it. Claude Code already held in all of these when the
// issue was filed: these are regression tests, with the configuration we hand out.
const CASES = ['timeout', 'killed', 'endpoint', 'interrupt', 'late'] as const;
type Case = (typeof CASES)[number];
const markerOf = (name: Case) => `fail-closed-${name}-marker`;
const SCENARIOS = CASES.map((name) => ({
  match: `scenario:fc-${name}`,
  calls: [{ name: 'Bash', input: { command: `touch ${markerOf(name)} && echo made-${markerOf(name)}`, description: 'Create a marker file' } }],
  reply: 'BASH RESULT (error={is_error}): {result}',
}));
/** Claude Code's own permission prompt, drawn while the hook runs and left for the person when the hook gives no decision. */
const OWN_PROMPT = /Do you want to proceed\?/;
/** What Claude Code shows once Esc rejected the call at its prompt. */
const REJECTED = /Interrupted|tell Claude what to do differently|User rejected/;
/** Our hook's process: `node "$AGENT_QUESTIONS_HOOK" claude-code`, its command line with the variable expanded. */
const HOOK_PROCESS = /approvalHook\.js claude-code/;
/** The hook's time limit this suite sets for the timeout case: long enough for the request to reach the Queue on a busy machine. */
const SHORT_HOOK_TIMEOUT_S = 20;
/** The user's delay before Allow once. */
const LATE_MS = 30_000;
/** Issue 41: after an interrupt the request leaves our Queue within 5 s. */
const LEAVES_AFTER_INTERRUPT_MS = 5000;

interface Pending {
  id: string;
  createdAt: number;
}
interface Settled {
  requestId: string;
  status: string;
  decision?: string;
  decidedBy?: { by: string; part?: string; where?: string; at?: string };
}
interface Held {
  session: InteractiveClaude;
  marker: string;
  requestId: string;
  createdAt: number;
}

suite("Interactive Claude Code never runs a held command without a person's allow (hook timed out or killed, endpoint off, interrupted; Allow once after 30 s)", () => {
  let model: ModelServer;
  const sessions: InteractiveClaude[] = [];
  const ui = useWorkbench();

  suiteSetup(async () => {
    model = await startModelServer({ scenarios: SCENARIOS });
  });

  teardown(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.close()));
    for (const pending of await ui.workbench.driver<Pending[]>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
    await model?.close();
  });

  /** The handed-out .claude/settings.json, with the hook's `timeout` (seconds) changed when given. */
  function handedOutSettings(url: string, hookTimeoutSeconds?: number): string {
    const text = configSection(agentConfigs(url).find((c) => c.agent === 'Claude Code')!.text, '// .claude/settings.json');
    if (hookTimeoutSeconds === undefined) return text;
    const settings = JSON.parse(text) as { hooks: Record<string, Array<{ hooks: Array<{ timeout: number }> }>> };
    for (const entry of settings.hooks['PermissionRequest']!) for (const hook of entry.hooks) hook.timeout = hookTimeoutSeconds;
    return JSON.stringify(settings, null, 2);
  }

  /** The pending request for `marker`, or undefined once it left the Queue. */
  async function pendingFor(marker: string): Promise<Pending | undefined> {
    return (await ui.workbench.driver<Pending[]>('list')).find((r) => JSON.stringify(r).includes(marker));
  }

  const settledAs = async (requestId: string): Promise<Settled> => (await ui.workbench.driver<Settled[]>('history')).find((e) => e.requestId === requestId)!;

  /**
   * A new session as from a VS Code terminal opened now (the endpoint turned on again), the prompt
   * sent, and the Bash call held: it waits in our Queue while Claude Code shows its own prompt.
   */
  async function held(name: Case, hookTimeoutSeconds?: number): Promise<Held> {
    const url = await enableEndpoint(ui.workbench);
    const env = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    const session = startInteractiveClaude({ modelUrl: model.url, env, projectFiles: { '.claude/settings.json': handedOutSettings(url, hookTimeoutSeconds) } });
    sessions.push(session);
    await session.ready();
    await session.prompt(`Make the marker. scenario:fc-${name}`, model);
    const marker = markerOf(name);
    const request = await until('the Bash call to wait in our Queue', () => pendingFor(marker));
    await session.waitFor(OWN_PROMPT);
    return { session, marker, requestId: request.id, createdAt: request.createdAt };
  }

  const ran = (h: Held) => existsSync(join(h.session.project, h.marker));
  const hookPids = (h: Held) => descendantsMatching(claudePid(h.session), HOOK_PROCESS);

  /**
   * The decision was taken away: the hook has ended and the request left our Queue; then Claude
   * Code's own prompt is still there and nothing ran; Esc there (the person's "No") runs nothing either.
   * Our request was cancelled, decided by `decidedBy`.
   */
  async function leftToThePerson(h: Held, decidedBy: Settled['decidedBy']): Promise<void> {
    await until('the hook process to end', () => hookPids(h).length === 0);
    await until('the request to leave our Queue', async () => !(await pendingFor(h.marker)));
    // Claude Code could only run it now, on its own: give it the chance, and see that it does not.
    await quietFor(3000);
    assert.equal(ran(h), false, 'the command ran without a person');
    assert.match(h.session.screen(), OWN_PROMPT, "Claude Code's own prompt is left for the person");
    await pressUntil(h.session.press, h.session.screen, 'Escape', REJECTED, 'Claude Code');
    await quietFor(3000);
    assert.equal(ran(h), false, 'the command ran after the person said no');
    assert.equal(
      model.received.some((r) => JSON.stringify(r.body.messages ?? []).includes(`made-${h.marker}`)),
      false,
      'the model got the output of the command',
    );
    const settled = await settledAs(h.requestId);
    assert.equal(settled.status, 'cancelled');
    assert.deepEqual(settled.decidedBy, decidedBy);
  }

  test("prevents a Claude Code hook that passed its time limit from running the command: Claude Code's own prompt stays, nothing runs", async function () {
    this.timeout(300_000);
    const h = await held('timeout', SHORT_HOOK_TIMEOUT_S);
    step(`Claude Code's hook time limit (${SHORT_HOOK_TIMEOUT_S} s) to pass`);
    // Claude Code stops the hook at its time limit: the asker withdrew.
    await leftToThePerson(h, { by: 'asker' });
  });

  test("prevents a killed Claude Code hook (SIGKILL) from running the command: Claude Code's own prompt stays, nothing runs", async function () {
    this.timeout(300_000);
    const h = await held('killed');
    const [hook, ...others] = await until("this session's hook process", () => {
      const pids = hookPids(h);
      return pids.length ? pids : undefined;
    });
    assert.deepEqual(others, [], 'one hook process');
    process.kill(hook!, 'SIGKILL');
    await leftToThePerson(h, { by: 'asker' });
  });

  test("prevents turning the endpoint off from running a held command: the request leaves the Queue decided by the shutdown, Claude Code's own prompt stays", async function () {
    this.timeout(300_000);
    const h = await held('endpoint');
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: false });
    await leftToThePerson(h, { by: 'shutdown', part: 'endpoint' });
  });

  test('prevents an interrupted call (Esc in Claude Code while held) from running or staying in our Queue: it leaves within 5 s', async function () {
    this.timeout(300_000);
    const h = await held('interrupt');
    let pressedAt = 0;
    const press = (key: string) => {
      pressedAt = Date.now();
      h.session.press(key);
    };
    await pressUntil(press, h.session.screen, 'Escape', REJECTED, 'Claude Code');
    const leftAt = await until('the interrupted request to leave our Queue', async () => ((await pendingFor(h.marker)) ? undefined : Date.now()), { everyMs: 100 });
    const seconds = (leftAt - pressedAt) / 1000;
    console.log(`      the request left our Queue ${seconds.toFixed(1)} s after Esc`);
    assert.ok(leftAt - pressedAt <= LEAVES_AFTER_INTERRUPT_MS, `left our Queue ${seconds.toFixed(1)} s after Esc`);
    await until('the hook process to end', () => hookPids(h).length === 0);
    await quietFor(3000);
    assert.equal(ran(h), false, 'the interrupted command ran');
    const settled = await settledAs(h.requestId);
    assert.equal(settled.status, 'cancelled');
    // Claude Code stops the hook on Esc (the asker withdrew), unless the hook first saw the rejection in its transcript.
    assert.ok(
      ['{"by":"asker"}', '{"by":"user","where":"agent"}'].includes(JSON.stringify(settled.decidedBy)),
      `withdrawn by the agent's side, not decided in the panel: ${JSON.stringify(settled.decidedBy)}`,
    );
  });

  test('Claude Code: Allow once given in the panel after the request waited 30 s still runs the command', async function () {
    this.timeout(300_000);
    const h = await held('late');
    // The user's delay, measured from when the request reached the Queue; nothing runs meanwhile and the request stays.
    const waited = await until(`the request to have waited ${LATE_MS / 1000} s in our Queue`, async () => {
      if (ran(h)) return 'the command ran before the answer';
      if (!(await pendingFor(h.marker))) return 'the request left our Queue before the answer';
      return Date.now() - h.createdAt >= LATE_MS ? 'waited' : undefined;
    });
    assert.equal(waited, 'waited');
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'Claude Code wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), new RegExp(`touch ${h.marker}`));
    await button(ui.panel, 'allow_once').click();
    await h.session.waitFor(new RegExp(`BASH RESULT \\(error=false\\): made-${h.marker}`));
    assert.equal(ran(h), true, 'the allowed command ran');
    const settled = await settledAs(h.requestId);
    assert.equal(settled.decision, 'allow_once');
    assert.ok(settled.decidedBy?.by === 'user', `decided by ${JSON.stringify(settled.decidedBy)}`);
  });
});
