import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startChatModelServer, type ChatModelServer } from '../fixtures/openai-chat-model/server.mjs';
import { quietFor, step, until } from '../harness/deadline';
import { pendingFor as pendingIn, rejectPending, settledAs as settledIn } from '../harness/heldRequests';
import { openCodeProject, serveOpenCode } from '../harness/openCodeCli.mjs';
import { button, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// Issue 41, held-out situations for OpenCode (`opencode serve`, which leaves permission asks to its
// clients): the model asks to run `touch <marker>`, our plugin holds the ask in our Queue, and then
// the answer is taken away by turning the endpoint off. Nothing may run: OpenCode's own ask stays
// pending for a person. A late "Allow once" in the panel still runs it. (Allow, Deny, an interrupt
// and a stale token are in openCode.test.ts.)
const CASES = ['endpoint', 'late'] as const;
type Case = (typeof CASES)[number];
const markerOf = (name: Case) => `opencode-fail-closed-${name}-marker`;
const SCENARIOS = CASES.map((name) => ({
  match: `scenario:ocfc-${name}`,
  calls: [{ name: 'bash', input: { command: `touch ${markerOf(name)} && echo made-${markerOf(name)}`, description: 'Create a marker file' } }],
}));
/** The line the plugin logs when the hook gives no decision (OpenCode writes the plugin's stderr to its own). */
const HANDED_BACK = /Agent Questions hook: .+; OpenCode asks you itself\./;
/** The user's delay before Allow once. */
const LATE_MS = 30_000;

interface OwnAsk {
  id: string;
  permission: string;
  patterns?: string[];
}
type Server = Awaited<ReturnType<typeof serveOpenCode>>;
interface Held {
  server: Server;
  cwd: string;
  marker: string;
  /** The assistant's text once OpenCode finished the turn, or the error that ended it. */
  reply: Promise<string>;
  requestId: string;
  createdAt: number;
  /** OpenCode's own ask for the same call. */
  ownAsk: OwnAsk;
}

suite("OpenCode never runs a held command without a person's allow (endpoint turned off; Allow once after 30 s)", () => {
  let model: ChatModelServer;
  const servers: Server[] = [];
  const cleanUps: Array<() => void> = [];
  const ui = useWorkbench();

  suiteSetup(async () => {
    model = await startChatModelServer({ scenarios: SCENARIOS });
  });

  teardown(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await rejectPending(ui.workbench.driver);
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
    await model?.close();
    for (const cleanUp of cleanUps) cleanUp();
  });

  const pendingFor = (marker: string) => pendingIn(ui.workbench.driver, marker);
  const settledAs = async (requestId: string) => (await settledIn(ui.workbench.driver, requestId))!;

  /** OpenCode's own pending asks for `marker`'s command. */
  const ownAsks = async (h: { server: Server; marker: string }) =>
    (await h.server.api<OwnAsk[]>('GET', '/permission')).filter((p) => p.permission === 'bash' && JSON.stringify(p).includes(h.marker));

  /**
   * `opencode serve` as from a VS Code terminal opened now (the endpoint turned on again), with the
   * files "Connect an External Agent…" hands out, the prompt sent, and the bash call held: it waits
   * in our Queue while OpenCode's own ask for it is pending.
   */
  async function held(name: Case): Promise<Held> {
    const url = await enableEndpoint(ui.workbench);
    const terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', {
      names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'],
    });
    const files = agentConfigs(url).find((c) => c.agent === 'OpenCode')!.files!;
    const where = openCodeProject({ files, modelUrl: model.url, terminalEnv, extraConfig: { permission: { bash: 'ask' } } });
    cleanUps.push(where.cleanUp);
    const server = await serveOpenCode(where);
    servers.push(server);
    const marker = markerOf(name);
    const reply = server.prompt(`Make the marker. scenario:ocfc-${name}`).catch((error: Error) => error.message);
    // OpenCode starts in 3–35 s here: the ask can take a while to come.
    const request = await until('the bash call to wait in our Queue', () => pendingFor(marker));
    const [ownAsk] = await ownAsks({ server, marker });
    assert.ok(ownAsk, "OpenCode's own ask is pending while ours waits");
    return { server, cwd: where.cwd, marker, reply, requestId: request.id, createdAt: request.createdAt, ownAsk };
  }

  const ran = (h: Held) => existsSync(join(h.cwd, h.marker));
  /** Whether a tool result the model received holds the command's output (its call's arguments hold the command itself). */
  const modelGotOutput = (h: Held) => model.received.some((r) => (r.body.messages ?? []).some((m) => m.role === 'tool' && JSON.stringify(m.content).includes(`made-${h.marker}`)));

  test("prevents turning the endpoint off from running a command our plugin holds: the request leaves the Queue decided by the shutdown, OpenCode's own ask stays pending, and rejecting it there runs nothing", async function () {
    this.timeout(300_000);
    const h = await held('endpoint');
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: false });
    await until('the request to leave our Queue', async () => !(await pendingFor(h.marker)));
    const outcome = await until('the plugin to hand the ask back to OpenCode, or the command to run', () =>
      ran(h) ? 'the command ran without a person' : HANDED_BACK.test(h.server.output()) ? 'handed back' : undefined,
    );
    assert.equal(outcome, 'handed back');
    // OpenCode could only run it now, on its own: give it the chance, and see that it does not.
    await quietFor(3000);
    assert.equal(ran(h), false, 'the command ran without a person');
    assert.deepEqual(
      (await ownAsks(h)).map((a) => a.id),
      [h.ownAsk.id],
      "OpenCode's own ask is left pending for the person",
    );
    const settled = await settledAs(h.requestId);
    assert.equal(settled.status, 'cancelled');
    assert.deepEqual(settled.decidedBy, { by: 'shutdown', part: 'endpoint' });

    // The person says no in OpenCode itself.
    step('OpenCode to finish the turn after its own ask was rejected');
    await h.server.api('POST', `/permission/${h.ownAsk.id}/reply`, { reply: 'reject' });
    const reply = await h.reply;
    assert.doesNotMatch(reply, new RegExp(`made-${h.marker}`));
    assert.equal(ran(h), false, 'the command ran after the person said no');
    assert.equal(modelGotOutput(h), false, 'the model got the output of the command');
  });

  test('OpenCode: Allow once given in the panel after the request waited 30 s still runs the command', async function () {
    this.timeout(300_000);
    const h = await held('late');
    // The user's delay, measured from when the request reached the Queue; nothing runs meanwhile and both asks stay.
    const waited = await until(`the request to have waited ${LATE_MS / 1000} s in our Queue`, async () => {
      if (ran(h)) return 'the command ran before the answer';
      if (!(await pendingFor(h.marker))) return 'the request left our Queue before the answer';
      if ((await ownAsks(h)).length === 0) return "OpenCode's own ask went away before the answer";
      return Date.now() - h.createdAt >= LATE_MS ? 'waited' : undefined;
    });
    assert.equal(waited, 'waited');
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'OpenCode wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), new RegExp(`touch ${h.marker}`));
    await button(ui.panel, 'allow_once').click();
    assert.match(await h.reply, new RegExp(`MODEL RECEIVED: made-${h.marker}`));
    assert.equal(ran(h), true, 'the allowed command ran');
    const settled = await settledAs(h.requestId);
    assert.equal(settled.decision, 'allow_once');
    assert.equal(settled.decidedBy?.by, 'user', `decided by ${JSON.stringify(settled.decidedBy)}`);
  });
});
