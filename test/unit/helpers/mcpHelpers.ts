// What the MCP endpoint's unit tests share: a fresh endpoint on a free port with the real tools and
// a real broker, SDK clients, raw requests.
import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpEndpoint, type McpEndpointOptions } from '../../../src/mcp/mcpEndpoint';
import { LaterAnswers } from '../../../src/broker/questions/laterAnswers';
import { approveDecider, createToolServer } from '../../../src/mcp/mcpTools';
import { makeBroker, makePolicy } from './fakes';

export const TOKEN = 'test-token-0123456789';
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unit-client', version: '1' } },
};
export const ASK = { questions: [{ id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };

type StartOptions = Partial<Pick<McpEndpointOptions, 'limits' | 'bodyTimeoutMs' | 'token' | 'keepAliveMs'>>;

async function start(options: StartOptions) {
  const { broker } = makeBroker();
  const logs: string[] = [];
  const later = new LaterAnswers({ keepMs: () => 60_000 });
  const policy = makePolicy();
  const tools = { broker, later, policy, timeoutMs: () => 0, log: (m: string) => logs.push(m), workspaceFolders: () => [] };
  const endpoint = await McpEndpoint.start({
    port: 0,
    token: () => TOKEN,
    log: (m) => logs.push(m),
    createServer: (scope) => createToolServer(tools, '0.0.0', scope),
    decide: approveDecider(tools),
    ...options,
  });
  return { broker, endpoint, logs, later, policy };
}

/** The names of the endpoint's open sessions, sorted: which clients it kept. */
export const sessionNames = (endpoint: Awaited<ReturnType<typeof start>>['endpoint']) =>
  endpoint
    .sessions()
    .map((s) => s.name)
    .sort();

/** Runs a test against a fresh endpoint and always closes it. */
export async function withEndpoint(run: (started: Awaited<ReturnType<typeof start>>) => Promise<void>, options: StartOptions = {}) {
  const started = await start(options);
  try {
    await run(started);
  } finally {
    await started.endpoint.close();
  }
}

export async function connect(url: string, token = TOKEN, name = 'unit-client') {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

export type ToolResult = { content: Array<{ text: string }>; isError?: boolean };

export const callAsk = (client: Client) => client.callTool({ name: 'ask_user', arguments: ASK }) as Promise<ToolResult>;

export function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(condition(), 'condition never became true');
};
