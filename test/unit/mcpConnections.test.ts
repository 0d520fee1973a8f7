import * as assert from 'node:assert/strict';
import { connect as connectSocket, type Socket } from 'node:net';
import { callAsk, connect, INITIALIZE, post, TOKEN, until, withEndpoint } from './mcpHelpers';

/** A raw connection that records what the server sends and when the server closes it. */
function rawSocket(port: number) {
  const socket = connectSocket(port, '127.0.0.1');
  const state = { socket, received: '', openedAt: Date.now(), closedAfterMs: undefined as number | undefined };
  socket.on('connect', () => (state.openedAt = Date.now()));
  socket.on('data', (data) => (state.received += data.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (state.closedAfterMs = Date.now() - state.openedAt));
  return state;
}

/** A raw keep-alive connection that has completed one request (initialize) and now sits idle. */
async function keptAliveSocket(port: number) {
  const kept = rawSocket(port);
  const body = JSON.stringify(INITIALIZE);
  kept.socket.once('connect', () =>
    kept.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
  );
  // The whole chunked response: the result, then the last chunk.
  await eventually(() => /"result".*\r\n0\r\n\r\n$/s.test(kept.received), () => `no answer to initialize: ${kept.received}`, 10_000);
  return kept;
}

/** Waits for a condition, failing with `what` if it does not hold by `ms`. */
async function eventually(condition: () => boolean | Promise<boolean>, what: () => string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(what());
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Writes a byte every 500 ms: never idle, never done (a slowloris). */
function trickle(socket: Socket, text: string) {
  let i = 0;
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(text[i++ % text.length]!)), 500);
  socket.once('close', () => clearInterval(timer));
}

suite('MCP endpoint: connections', () => {
  test('prevents idle connections from piling up: past the cap each new one is answered 503 with Connection: close and Retry-After, and closed at once', async function () {
    this.timeout(30_000);
    const cap = 64;
    await withEndpoint(
      async ({ endpoint, logs }) => {
        const sockets = Array.from({ length: cap + 200 }, () => rawSocket(endpoint.port));
        const refused = () => sockets.filter((s) => s.closedAfterMs !== undefined);
        await eventually(() => refused().length >= 200, () => `${refused().length} of the 200 connections over the cap were closed`, 10_000);
        for (const s of refused()) {
          assert.match(s.received, /^HTTP\/1\.1 503 /);
          assert.match(s.received, /\r\nConnection: close\r\n/i);
          assert.match(s.received, /\r\nRetry-After: 1\r\n/i);
          assert.match(s.received, /"message":"Too many connections are open \(64\); retry in a moment"/);
        }
        const held = sockets.filter((s) => s.closedAfterMs === undefined);
        assert.equal(held.length, cap, 'the endpoint holds exactly the cap');
        assert.ok(held.every((s) => s.received === ''));
        assert.equal(logs.filter((l) => l.includes('refuses new connections')).length, 1, 'one log line for the whole flood');
        // Once they go, a client is served again.
        for (const s of held) s.socket.destroy();
        await eventually(async () => (await post(endpoint.url, INITIALIZE)).status === 200, () => 'initialize never succeeded after the idle connections closed', 10_000);
      },
      { limits: { connections: cap } },
    );
  });

  test("a flood's finished keep-alive connections do not lock an agent out: at the cap, the one idle the longest is closed to make room", async () => {
    const cap = 8;
    await withEndpoint(
      async ({ endpoint }) => {
        const kept: Array<Awaited<ReturnType<typeof keptAliveSocket>>> = [];
        for (let i = 0; i < cap; i++) kept.push(await keptAliveSocket(endpoint.port));
        const client = await connect(endpoint.url);
        assert.equal((await client.listTools()).tools.length, 3);
        await client.close();
        await eventually(() => kept[0]!.closedAfterMs !== undefined, () => 'the connection idle the longest is still open', 10_000);
        assert.ok(kept.slice(1).some((s) => s.closedAfterMs === undefined), 'only what made room was closed');
        // A connection that has not completed a request is never closed to make room: past the cap it gets 503.
        const fresh = Array.from({ length: cap + 4 }, () => rawSocket(endpoint.port));
        await eventually(() => fresh.some((s) => s.received.startsWith('HTTP/1.1 503 ')), () => 'no 503 once the cap held only connections waiting for their first request', 10_000);
      },
      { limits: { connections: cap } },
    );
  });

  test('prevents slow headers and idle connections from holding a socket: each is closed 10 s after it opened or went idle (not at Node\'s 30 s check), while a streamed tools/call waits on', async function () {
    this.timeout(60_000);
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const call = callAsk(client);
      await until(() => broker.size === 1);

      const idle = rawSocket(endpoint.port);
      const slowHeaders = rawSocket(endpoint.port);
      slowHeaders.socket.once('connect', () => {
        slowHeaders.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\n`);
        trickle(slowHeaders.socket, 'X-Slow: yes\r\n');
      });
      // A keep-alive connection that completed a request, then trickles the next one's headers.
      const keptAlive = await keptAliveSocket(endpoint.port);
      const answeredAt = Date.now();
      trickle(keptAlive.socket, 'POST /mcp HTTP/1.1\r\n');

      const all = { idle, slowHeaders, keptAlive };
      await eventually(() => Object.values(all).every((s) => s.closedAfterMs !== undefined), () => `still open after 15 s: ${Object.entries(all).filter(([, s]) => s.closedAfterMs === undefined).map(([name]) => name).join(', ')}`, 15_000);
      const keptAliveMs = keptAlive.closedAfterMs! - (answeredAt - keptAlive.openedAt);
      const times = { idle: idle.closedAfterMs!, slowHeaders: slowHeaders.closedAfterMs!, keptAlive: keptAliveMs };
      for (const [name, ms] of Object.entries(times)) assert.ok(ms > 9_000 && ms < 15_000, `${name} closed after ${ms} ms`);
      console.log(`      closed after ${Object.entries(times).map(([name, ms]) => `${name} ${ms} ms`).join(', ')}`);

      // The streamed call, silent all this time (its first keep-alive is due at 15 s), still waits and is answered.
      assert.equal(broker.size, 1);
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } });
      assert.match((await call).content[0]!.text, /^The user answered 1 question, "[^"]*" \(request id "[^"]+"\): database = "SQLite"\./);
      await client.close();
    });
  });
});
