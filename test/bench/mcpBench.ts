// Part of npm run bench: the round trip of an MCP tools/call of ask_user, answered as soon as it is
// queued (broker.reply, what the API's reply does), against a tools/call of a no-op tool on the
// same endpoint (same listener, token check, sessions and transport), measured in the same run.
// And the CLI approval path: the hook program a CLI runs for a command a remembered rule allows,
// start to exit, against a no-op hook (a Node program that reads its input and prints an allow).
// And the hook VS Code's own agent runs on every tool call (dist/vscodeAgentHook.js): on a read-only
// tool, decided without the endpoint, and on a terminal command the same remembered rule allows,
// found through a discovery file, against a no-op hook (`node -e ''`). The hook's time is split step by step
// (start-up, loaded and parsed, request -> decision, the endpoint's part).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { QuestionBroker } from '../../src/broker/broker';
import { RememberedPermissions } from '../../src/broker/permissions/rememberedPermissions';
import { McpEndpoint } from '../../src/mcp/mcpEndpoint';
import { LaterAnswers } from '../../src/broker/questions/laterAnswers';
import { approveDecider, createToolServer } from '../../src/mcp/mcpTools';
import { askApprove } from '../../src/hook/mcpApprove';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCommandChecker } from '../../src/extension/shellModule';
import { EndpointDiscoveryFile } from '../../src/mcp/endpointDiscoveryFile';
import { median, runBench } from './benchKit';

const HOOK = join(__dirname, '..', '..', '..', 'dist', 'approvalHook.js');
const VSCODE_AGENT_HOOK = join(__dirname, '..', '..', '..', 'dist', 'vscodeAgentHook.js');
const WASM = join(__dirname, '..', '..', '..', 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
const HOOK_RUNS = 40;
/** Claude Code's PermissionRequest hook input for a command the bench's rule allows. */
const HOOK_INPUT = JSON.stringify({
  session_id: 'bench',
  transcript_path: '/nonexistent/bench.jsonl',
  cwd: '/tmp',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'git log --oneline -5', description: 'Show recent commits' },
});
/** A PreToolUse input of VS Code's agent (the Local harness, as Copilot Chat 0.67 sends it) for `tool_name` in /tmp. */
const vscodeAgentInput = (tool_name: string, tool_input: Record<string, unknown>) =>
  JSON.stringify({
    timestamp: '2025-01-01T00:00:00.000Z',
    hook_event_name: 'PreToolUse',
    session_id: 'bench',
    transcript_path: '/nonexistent/bench.jsonl',
    cwd: '/tmp',
    tool_name,
    tool_input,
    tool_use_id: 'call_bench',
  });
const READ_ONLY_INPUT = vscodeAgentInput('read_file', { filePath: '/tmp/package.json', startLine: 1, endLine: 20 });
const TERMINAL_INPUT = vscodeAgentInput('run_in_terminal', { command: 'git log --oneline -5', explanation: 'Show recent commits', goal: 'Show recent commits', mode: 'sync' });
const LOCAL_ALLOW = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n';
/** A no-op PreToolUse hook as VS Code's agent runs one: it reads its input to the end and prints allow. */
const NOOP_READING_HOOK = `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write(${JSON.stringify(LOCAL_ALLOW)}))`;
const NOOP_HOOK = `process.stdin.resume();process.stdin.on('end',()=>process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'PermissionRequest',decision:{behavior:'allow'}}})))`;

/** One hook run, start to exit, in ms; it must print `allowed` (by default, Claude Code's allow). */
function hookRun(args: string[], env: Record<string, string>, input = HOOK_INPUT, allowed: (out: string) => boolean = (out) => /"behavior":"allow"/.test(out)): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve, reject) =>
    child.on('close', () => (allowed(out) ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`the hook did not allow: ${out} ${err}`)))),
  );
}

/** ask_user answered at once may cost at most this much more than the no-op tool: streamed, it must not wait on a delayed ACK. */
const TARGET_RATIO = 1.3;

// Under 1,500 per client: the SDK client adds an abort listener per request to a session-wide signal.
const RUNS = 1000;
const TOKEN = 'bench-token';
const ASK = { questions: [{ id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };

function noopServer(): Server {
  const server = new Server({ name: 'noop', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'noop', inputSchema: { type: 'object' as const } }] }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text' as const, text: 'ok' }] }));
  return server;
}

async function client(url: string): Promise<Client> {
  const c = new Client({ name: 'bench', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  return c;
}

/** Alternates the two calls, so warm-up and machine noise fall on both alike; medians in ms. */
async function timeBoth(first: () => Promise<unknown>, second: () => Promise<unknown>): Promise<[number, number]> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = -100; i < RUNS; i++) {
    for (const [call, into] of [
      [first, a],
      [second, b],
    ] as const) {
      const started = process.hrtime.bigint();
      await call();
      if (i >= 0) into.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return [median(a), median(b)];
}

async function main() {
  let next = 0;
  const broker = new QuestionBroker({ newId: () => `r${++next}` });
  broker.onDidChange((change) => {
    if (change.type !== 'added') return;
    // A command the rule should have allowed reached a person: denied, so the bench fails instead of waiting.
    if (change.request.kind === 'permission') broker.decide(change.request.id, 'deny', { by: 'user', where: 'panel' }, 'the bench rule did not allow this');
    else broker.reply(change.request.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
  });
  const store = new Map<string, unknown>();
  const policy = {
    route: () => ({ kind: 'ask' as const }),
    loadAnswersFile: async () => ({ ok: true as const, entries: {} }),
    permissions: new RememberedPermissions(
      { get: <T>(key: string) => store.get(key) as T | undefined, update: async (key: string, value: unknown) => void store.set(key, value) },
      { loadChecker: () => loadCommandChecker(WASM), workspaceFolders: () => ['/tmp'] },
    ),
  };
  // The rule a user chose with "Always allow `git log …`" (not a runner's: a runner rule covers no call run outside a sandbox).
  await policy.permissions.remember({ key: 'cmd:git log', value: true, label: 'git log …', description: 'bench' }, 'bench');
  // The second session gets the no-op tool, every other one our tools: one endpoint for all.
  let sessions = 0;
  const tools = { broker, later: new LaterAnswers({ keepMs: () => 60_000 }), policy, timeoutMs: () => 0, log: () => undefined, workspaceFolders: () => [] };
  const decide = approveDecider(tools);
  // The endpoint's side of the hook's request: its arrival at the decide route -> the decision.
  const decideMs: number[] = [];
  const endpoint = await McpEndpoint.start({
    port: 0,
    token: () => TOKEN,
    log: () => undefined,
    createServer: (scope) => (sessions++ === 1 ? noopServer() : createToolServer(tools, 'bench', scope)),
    decide: async (args, client, tokenId) => {
      const started = process.hrtime.bigint();
      const decision = await decide(args, client, tokenId);
      decideMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      return decision;
    },
  });
  try {
    const ours = await client(endpoint.url);
    const bare = await client(endpoint.url);
    const [noopMs, askMs] = await timeBoth(
      () => bare.callTool({ name: 'noop', arguments: {} }),
      () => ours.callTool({ name: 'ask_user', arguments: ASK }),
    );
    console.log(`\nMCP endpoint (Streamable HTTP on 127.0.0.1, plain Node), medians over ${RUNS} calls each`);
    console.log(`tools/call of a no-op tool                       ${noopMs.toFixed(2)} ms (baseline)`);
    console.log(`tools/call of ask_user, answered when queued     ${askMs.toFixed(2)} ms  ratio ${(askMs / noopMs).toFixed(2)}x (target <= ${TARGET_RATIO}x)`);
    await ours.close();
    await bare.close();

    const env = { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN };
    const hook: number[] = [];
    const noop: number[] = [];
    decideMs.length = 0;
    for (let i = -3; i < HOOK_RUNS; i++) {
      const ms = await hookRun([HOOK, 'claude-code'], env);
      const baseline = await hookRun(['-e', NOOP_HOOK], {});
      if (i >= 0) {
        hook.push(ms);
        noop.push(baseline);
      }
    }
    console.log(`\nCLI approval path (Claude Code's PermissionRequest hook, a command a remembered rule allows), medians over ${HOOK_RUNS} runs each`);
    console.log(`a no-op hook (node, reads its input, prints allow) ${median(noop).toFixed(1)} ms (baseline)`);
    console.log(`our hook program, through the endpoint and rules  ${median(hook).toFixed(1)} ms  ratio ${(median(hook) / median(noop)).toFixed(2)}x (target <= 1.1x)`);
    // The endpoint's part of each hook run (its first three are warm-up).
    const atEndpoint = median(decideMs.slice(3));
    await hookSplit(env, median(noop), decideMs);
    console.log(`         the endpoint's part in the hook's own runs    ${atEndpoint.toFixed(1)} ms (arrival -> decision)`);

    await vscodeAgentHookBench(endpoint.url);
  } finally {
    await endpoint.close();
  }
}

/**
 * Where the hook's time goes, step by step: Node's start-up (the no-op hook); the hook program loaded
 * and its input parsed, sent nowhere (no endpoint in its environment); its request -> the decision
 * back, timed in this process; and of that, the endpoint's arrival -> decision.
 */
async function hookSplit(env: Record<string, string>, noopMs: number, decideMs: number[]): Promise<void> {
  const loaded: number[] = [];
  for (let i = -3; i < HOOK_RUNS; i++) {
    const ms = await hookRun([HOOK, 'claude-code'], {}, HOOK_INPUT, (out) => out === '');
    if (i >= 0) loaded.push(ms);
  }
  const call = { tool_name: 'Bash', input: JSON.parse(HOOK_INPUT).tool_input as Record<string, unknown>, cwd: '/tmp' };
  const options = {
    url: env['AGENT_QUESTIONS_MCP_URL']!,
    token: TOKEN,
    clientInfo: { name: 'agent-questions-hook:claude-code', title: 'Claude Code', version: '1' },
    signal: new AbortController().signal,
  };
  const roundTrip: number[] = [];
  decideMs.length = 0;
  for (let i = -10; i < 200; i++) {
    const started = process.hrtime.bigint();
    await askApprove(call, options);
    if (i >= 0) roundTrip.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const atEndpoint = median(decideMs.slice(10));
  console.log(`  split: node start-up (the no-op hook)             ${noopMs.toFixed(1)} ms`);
  console.log(`         + the hook loaded, input parsed, no request ${(median(loaded) - noopMs).toFixed(1)} ms`);
  console.log(`         + request -> decision back (in-process)     ${median(roundTrip).toFixed(1)} ms, of which the endpoint (arrival -> decision) ${atEndpoint.toFixed(1)} ms`);
}

/** VS Code's agent's PreToolUse hook, on a read-only tool and on a rule-allowed command, against `node -e ''`, alternated run by run. */
async function vscodeAgentHookBench(url: string): Promise<void> {
  const config = mkdtempSync(join(tmpdir(), 'aq-bench-'));
  const env = { XDG_CONFIG_HOME: config };
  const discovery = new EndpointDiscoveryFile(env);
  discovery.write(url, TOKEN, ['/tmp'], { warn: (message) => console.error(message) });
  const isAllow = (out: string) => out === LOCAL_ALLOW;
  const readOnly: number[] = [];
  const terminal: number[] = [];
  const noop: number[] = [];
  const noopReading: number[] = [];
  try {
    for (let i = -3; i < HOOK_RUNS; i++) {
      const times = [
        await hookRun([VSCODE_AGENT_HOOK, '86400'], env, READ_ONLY_INPUT, isAllow),
        await hookRun([VSCODE_AGENT_HOOK, '86400'], env, TERMINAL_INPUT, isAllow),
        await hookRun(['-e', ''], {}, READ_ONLY_INPUT, () => true),
        await hookRun(['-e', NOOP_READING_HOOK], {}, READ_ONLY_INPUT, isAllow),
      ];
      if (i >= 0) {
        readOnly.push(times[0]!);
        terminal.push(times[1]!);
        noop.push(times[2]!);
        noopReading.push(times[3]!);
      }
    }
  } finally {
    discovery.remove();
    rmSync(config, { recursive: true, force: true });
  }
  const added = (values: number[]) =>
    `${median(values).toFixed(1)} ms, ${(median(values) - median(noop)).toFixed(1)} ms added, ratio ${(median(values) / median(noop)).toFixed(2)}x`;
  console.log(`\nVS Code's agent's PreToolUse hook (dist/vscodeAgentHook.js, the Local harness's input), medians over ${HOOK_RUNS} runs each`);
  console.log(`a no-op hook (node -e '')                             ${median(noop).toFixed(1)} ms (baseline)`);
  console.log(`a read-only tool (read_file), allowed at once         ${added(readOnly)} (target <= 60 ms added)`);
  console.log(`a terminal command a remembered rule allows           ${added(terminal)}`);
  // The no-op hook: one that does a hook's least, reading its input and printing allow (as the Claude Code line's baseline does).
  console.log(`a no-op hook that reads its input and prints allow    ${median(noopReading).toFixed(1)} ms`);
  console.log(
    `the terminal command against it                      ${(median(terminal) - median(noopReading)).toFixed(1)} ms added, ratio ${(median(terminal) / median(noopReading)).toFixed(2)}x (target <= 1.1x)`,
  );
}

runBench(main);
