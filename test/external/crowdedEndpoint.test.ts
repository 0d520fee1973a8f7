import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATER_WAITING_PER_GROUP, LATER_WAITING_PER_OWNER } from '../../src/broker/questions/laterAnswers';
import { MAX_CONNECTIONS } from '../../src/mcp/mcpEndpoint';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { runClaude } from '../harness/claudeCode.mjs';
import { remainingMs, until } from '../harness/deadline';
import { slowBodies } from '../harness/slowBodies';
import { enableEndpoint, useWorkbench } from '../ui/workbench';

// The endpoint holds against a process that has its token (every process started in a VS Code
// terminal does): the real Claude Code connects and asks while that process keeps every connection
// busy with a body that trickles in, and while it claims the `wait: false` places under four names.
const CONNECTS = 20;
/** A byte of each slow body every 2 s: slow, but never idle. */
const TRICKLE_MS = 2000;
const crowdQuestion = (i: number) => `Crowd ${i}: which database?`;
const ask = (question: string, wait = true) => ({
  questions: [{ id: 'database', header: 'Database', question, options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }],
  ...(wait ? {} : { wait: false }),
});
const SECOND_AGENT = 'The second agent: which database, later?';
const LATER_FLOOD = 'A flood under four names: which database, later?';

interface Connect {
  ok: boolean;
  /** From starting the CLI to its report that our server is connected. */
  connectedMs: number;
  /** From starting the CLI to its exit, the answered question included. */
  totalMs: number;
  why: string;
}

suite('The MCP endpoint holds against a token holder (the real Claude Code through a crowd)', () => {
  let model: ModelServer;
  let mcpUrl = '';
  let token = '';
  const ui = useWorkbench();

  suiteSetup(async function () {
    model = await startModelServer({
      scenarios: [
        ...Array.from({ length: CONNECTS * 2 }, (_, i) => ({ match: `scenario:crowd-${i}.`, calls: [{ name: 'mcp__agent-questions__ask_user', input: ask(crowdQuestion(i)) }] })),
        { match: 'scenario:later.', calls: [{ name: 'mcp__agent-questions__ask_user', input: ask(SECOND_AGENT, false) }] },
      ],
    });
    mcpUrl = await enableEndpoint(ui.workbench);
    const env = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_TOKEN'] });
    token = env['AGENT_QUESTIONS_MCP_TOKEN']!;
  });

  teardown(async () => {
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
    await disconnectAll();
  });

  /**
   * Disconnects every session, as a user would in Manage Connected Agents: `claude -p` leaves its
   * session open when it exits, and a session that has just completed a call is never closed to make
   * room, so 32 runs within minutes would fill the endpoint's sessions whatever the crowd does.
   */
  async function disconnectAll(): Promise<void> {
    const state = await ui.workbench.driver<{ value: { sessions: Array<{ key: number }> } }>('command', { id: 'agentQuestions.internal.mcpState' });
    for (const { key } of state.value.sessions) await ui.workbench.driver('command', { id: 'agentQuestions.manageConnectedAgents', args: [{ disconnect: key }] });
  }

  suiteTeardown(async () => {
    await model?.close();
  });

  /** The id of the waiting request that shows `text`, if any. */
  const pendingWith = async (text: string) => (await ui.workbench.driver<Array<{ id: string }>>('list')).find((r) => JSON.stringify(r).includes(text))?.id;

  /** Claude Code (print mode) connects, asks `crowdQuestion(i)`, the test answers it; the model must receive the answer. */
  async function connectAndAsk(i: number): Promise<Connect> {
    const started = Date.now();
    let connectedMs = NaN;
    const run = runClaude({
      prompt: `Go. scenario:crowd-${i}.`,
      modelUrl: model.url,
      mcpUrl,
      mcpToken: token,
      allowedTools: ['mcp__agent-questions__ask_user'],
      outputFormat: 'stream-json',
    });
    run.child.stdout!.on('data', (chunk: Buffer) => {
      if (Number.isNaN(connectedMs) && chunk.toString().includes('"name":"agent-questions","status":"connected"')) connectedMs = Date.now() - started;
    });
    let exited = false;
    const killer = setTimeout(() => run.child.kill('SIGKILL'), remainingMs());
    const done = run.done.finally(() => ((exited = true), clearTimeout(killer)));
    // Answered as soon as it waits; a run that ends first never asked.
    const id = await until(`Claude Code's question ${i} to wait, or the CLI to end`, async () => (exited ? 'ended' : await pendingWith(crowdQuestion(i))), { everyMs: 100 });
    if (id !== 'ended') await ui.workbench.driver('reply', { requestId: id, answers: { database: { selected: ['SQLite'], skipped: false } } });
    const { code, stdout, stderr } = await done;
    const status = /"mcp_servers":\[[^\]]*\]/.exec(stdout)?.[0] ?? '(no init line)';
    const ok = code === 0 && /MODEL RECEIVED: [^\n]*SQLite/.test(stdout);
    return { ok, connectedMs, totalMs: Date.now() - started, why: ok ? '' : `run ${i}: exit ${code}; ${status}; ${stderr.slice(0, 300)}` };
  }

  async function connects(from: number, before: () => Promise<unknown> = async () => undefined): Promise<Connect[]> {
    const results: Connect[] = [];
    for (let i = from; i < from + CONNECTS; i++) {
      await before();
      results.push(await connectAndAsk(i));
      await disconnectAll();
    }
    return results;
  }

  test(`prevents a token holder's ${MAX_CONNECTIONS} slow-body connections from locking an agent out: the real Claude Code connects and has its question answered ${CONNECTS} times of ${CONNECTS}`, async function () {
    this.timeout(900_000);
    const began = Date.now();
    const alone = await connects(0);
    assert.deepEqual(
      alone.filter((c) => !c.ok).map((c) => c.why),
      [],
      'without the crowd',
    );

    const crowd = slowBodies(mcpUrl, token, MAX_CONNECTIONS, TRICKLE_MS);
    try {
      await until(`the crowd to hold all ${MAX_CONNECTIONS} connections`, () => crowd.open === MAX_CONNECTIONS);
      // Each connect starts with every connection held: the agent's first one finds the endpoint full.
      const crowded = await connects(CONNECTS, () => until('the crowd to hold every connection again', () => crowd.open === MAX_CONNECTIONS));
      const report = {
        alone: summary(alone),
        crowded: summary(crowded),
        crowd: { open: crowd.open, opened: crowd.opened, firstStillOpen: crowd.firstStillOpen, endings: crowd.endings, longestLifeMs: crowd.longestLifeMs },
        testMs: Date.now() - began,
      };
      console.log(`      measured: ${JSON.stringify(report)}`);
      assert.deepEqual(
        crowded.filter((c) => !c.ok).map((c) => c.why),
        [],
        `${crowded.filter((c) => c.ok).length} of ${CONNECTS} succeeded with the crowd`,
      );
      // The crowd's connections do not last: each is closed to make room or at the body deadline.
      assert.equal(crowd.firstStillOpen, 0, `${crowd.firstStillOpen} of the first ${MAX_CONNECTIONS} slow bodies are still open`);
      assert.ok(crowd.endings.bodyDeadline + crowd.endings.unanswered >= MAX_CONNECTIONS, JSON.stringify(crowd.endings));
    } finally {
      crowd.stop();
    }
  });

  test("prevents one process with four names from taking a second agent's wait: false place: the real Claude Code still gets one", async function () {
    this.timeout(300_000);
    // One process, one token, four sessions under four names, each asking until it is refused.
    const names = ['crowd-a', 'crowd-b', 'crowd-c', 'crowd-d'];
    const clients = await Promise.all(
      names.map(async (name) => {
        const client = new Client({ name, version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
        return client;
      }),
    );
    try {
      let taken = 0;
      let refusal = '';
      for (const client of clients) {
        for (let i = 0; i <= LATER_WAITING_PER_OWNER; i++) {
          const result = (await client.callTool({ name: 'ask_user', arguments: ask(LATER_FLOOD, false) })) as { isError?: boolean; content: Array<{ text: string }> };
          if (result.isError) {
            refusal = result.content[0]!.text;
            break;
          }
          taken++;
        }
      }
      // Then a second agent, the real Claude Code, asks with wait: false through the same token.
      const run = runClaude({ prompt: 'Go. scenario:later.', modelUrl: model.url, mcpUrl, mcpToken: token, allowedTools: ['mcp__agent-questions__ask_user'] });
      const killer = setTimeout(() => run.child.kill('SIGKILL'), remainingMs());
      const { code, stdout, stderr } = await run.done.finally(() => clearTimeout(killer));
      assert.equal(code, 0, stdout + stderr);
      assert.match(stdout, /MODEL RECEIVED: [\s\S]*"status":"waiting"/, stdout);
      assert.ok(await pendingWith(SECOND_AGENT), "the second agent's question waits in the Queue");
      assert.ok(taken > LATER_WAITING_PER_GROUP / 2, `the flood took ${taken} places`);
      assert.ok(taken < LATER_WAITING_PER_GROUP, `the flood took ${taken} places, every one its token has`);
      assert.match(refusal, /kept for agents of your token that have none waiting/);
      console.log(`      measured: the flood took ${taken} wait: false places under ${names.length} names; the second agent got one`);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    }
  });
});

function summary(connects: Connect[]) {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const connected = connects.map((c) => c.connectedMs).filter((ms) => !Number.isNaN(ms));
  const totals = connects.map((c) => c.totalMs);
  return {
    ok: connects.filter((c) => c.ok).length,
    connectedMedianMs: median(connected),
    connectedMaxMs: Math.max(...connected),
    totalMedianMs: median(totals),
    totalMaxMs: Math.max(...totals),
  };
}
