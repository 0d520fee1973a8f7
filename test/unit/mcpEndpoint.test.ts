import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { MAX_SESSIONS, McpEndpoint, tokenMatches } from '../../src/extension/mcpEndpoint';
import { createToolServer } from '../../src/extension/mcpTools';
import { makeBroker, makePolicy } from './fakes';

const TOKEN = 'test-token-0123456789';
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'unit-client', version: '1' } } };
const ASK = { questions: [{ id: 'database', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };

async function start(maxPendingPerClient = 8) {
  const { broker } = makeBroker();
  const logs: string[] = [];
  const endpoint = await McpEndpoint.start({
    port: 0,
    token: () => TOKEN,
    log: (m) => logs.push(m),
    createServer: (scope) => createToolServer({ broker, policy: makePolicy(), timeoutMs: () => 0, log: (m) => logs.push(m), maxPendingPerClient }, '0.0.0', scope),
  });
  return { broker, endpoint, logs };
}

/** Runs a test against a fresh endpoint and always closes it. */
async function withEndpoint(run: (started: Awaited<ReturnType<typeof start>>) => Promise<void>, maxPendingPerClient?: number) {
  const started = await start(maxPendingPerClient);
  try {
    await run(started);
  } finally {
    await started.endpoint.close();
  }
}

async function connect(url: string, token = TOKEN, name = 'unit-client') {
  const client = new Client({ name, version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(condition(), 'condition never became true');
};

suite('MCP endpoint', () => {
  test('tokens compare in constant time and only as "Bearer <token>"', () => {
    assert.equal(tokenMatches(`Bearer ${TOKEN}`, TOKEN), true);
    assert.equal(tokenMatches(`Bearer ${TOKEN}x`, TOKEN), false);
    assert.equal(tokenMatches(TOKEN, TOKEN), false);
    assert.equal(tokenMatches(undefined, TOKEN), false);
    assert.equal(tokenMatches('Bearer ', TOKEN), false);
  });

  test('ask_user over MCP: the question is queued labelled with the client name, and the answer comes back typed', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url, TOKEN, 'Claude Code');
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map((t) => t.name), ['ask_user', 'approve']);
      const call = client.callTool({ name: 'ask_user', arguments: ASK });
      await until(() => broker.size === 1);
      assert.deepEqual(broker.list()[0]!.source, { type: 'mcp', label: 'Claude Code' });
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } });
      const result = (await call) as { content: Array<{ text: string }>; isError?: boolean };
      assert.match(result.content[0]!.text, /^The user answered 1 question: database = "SQLite"\.\n\{"requestId":"r1","status":"answered"/);
      assert.equal(result.isError, undefined);
      await client.close();
    });
  });

  test('invalid ask_user input gets the same model-readable message as the language-model tool', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const result = (await client.callTool({ name: 'ask_user', arguments: { questions: [{ ...ASK.questions[0], options: [{ label: 'Only' }] }] } })) as { content: Array<{ text: string }>; isError?: boolean };
      assert.match(result.content[0]!.text, /^ask_user input is invalid; nothing was asked\. Fix 1 problem and call ask_user again:\n- questions\[0\]\.options: needs 2 to 6 options \(got 1\)/);
      assert.equal(result.isError, true);
      assert.equal(broker.size, 0);
      await client.close();
    });
  });

  test('a client that goes away while its question waits cancels it', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const controller = new AbortController();
      const response = post(endpoint.url, INITIALIZE);
      const sessionId = (await response).headers.get('mcp-session-id')!;
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      await post(endpoint.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      const settled = new Promise<string>((resolve) => broker.onDidChange((c) => c.type === 'settled' && resolve(c.response.status)));
      const call = fetch(endpoint.url, {
        method: 'POST',
        signal: controller.signal,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${TOKEN}`, ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_user', arguments: ASK } }),
      }).catch(() => undefined);
      await until(() => broker.size === 1);
      controller.abort();
      await call;
      assert.equal(await settled, 'cancelled');
      assert.equal(broker.size, 0);
    });
  });

  test('notifications/cancelled from the client settles the question as cancelled', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const controller = new AbortController();
      const settled = new Promise<string>((resolve) => broker.onDidChange((c) => c.type === 'settled' && resolve(c.response.status)));
      const call = client.callTool({ name: 'ask_user', arguments: ASK }, undefined, { signal: controller.signal }).catch((error: Error) => error);
      await until(() => broker.size === 1);
      controller.abort('the user pressed Escape');
      assert.equal(await settled, 'cancelled');
      assert.equal(broker.size, 0);
      await call;
      await client.close();
    });
  });

  test('refuses: no token, a wrong token, a foreign Host, a browser Origin, an oversized body, a non-JSON body', async () => {
    await withEndpoint(async ({ endpoint, logs }) => {
      assert.equal((await post(endpoint.url, INITIALIZE, { authorization: '' })).status, 401);
      const wrong = await post(endpoint.url, INITIALIZE, { authorization: 'Bearer nope' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.headers.get('www-authenticate'), 'Bearer');
      // fetch will not forge Host; a raw request can.
      const { request } = await import('node:http');
      const foreignHost = await new Promise<number>((resolve, reject) => {
        const req = request(endpoint.url, { method: 'POST', headers: { host: `attacker.example:${endpoint.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(INITIALIZE));
      });
      assert.equal(foreignHost, 403);
      assert.equal((await post(endpoint.url, INITIALIZE, { origin: 'http://127.0.0.1:8080' })).status, 403);
      assert.equal((await post(endpoint.url, 'x'.repeat(1024 * 1024 + 1))).status, 413);
      assert.equal((await post(endpoint.url, '{nope')).status, 400);
      assert.equal((await post(endpoint.url.replace('/mcp', '/other'), INITIALIZE)).status, 404);
      assert.equal(logs.join('\n').includes(TOKEN), false, 'the token is never logged');
    });
  });

  test('a flood of 1,000 sessions is bounded, and the endpoint still answers afterwards', async () => {
    await withEndpoint(async ({ endpoint }) => {
      const statuses = await Promise.all(Array.from({ length: 1000 }, () => post(endpoint.url, INITIALIZE).then((r) => r.status)));
      assert.ok(statuses.every((s) => s === 200 || s === 503), `only 200 or 503, got ${[...new Set(statuses)].join(', ')}`);
      assert.ok(endpoint.clients().length <= MAX_SESSIONS, `${endpoint.clients().length} sessions open`);
      const client = await connect(endpoint.url);
      assert.equal((await client.listTools()).tools.length, 2);
      await client.close();
    });
  });

  test("one client's waiting calls are capped; the rest are refused with a readable message", async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const calls = Array.from({ length: 5 }, () => client.callTool({ name: 'ask_user', arguments: ASK }) as Promise<{ content: Array<{ text: string }>; isError?: boolean }>);
      await until(() => broker.size === 3);
      const refused = await Promise.race([Promise.all(calls.slice(3)), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not refused')), 2000))]);
      for (const r of refused) assert.match(r.content[0]!.text, /^Too many requests from this client are already waiting \(3\)/);
      for (const request of broker.list()) broker.reject(request.id);
      await Promise.all(calls.slice(0, 3));
      await client.close();
    }, 3);
  });
});
