import * as assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer as createHttpServer } from 'node:http';
import { connect as connectSocket, type AddressInfo, type Socket } from 'node:net';
import { ConnectionGate } from '../../../src/mcp/mcpConnections';
import { MAX_CONNECTIONS } from '../../../src/mcp/mcpEndpoint';
import { ASK, callAsk, connect, INITIALIZE, post, TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';

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
    kept.socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ),
  );
  // The whole chunked response: the result, then the last chunk.
  await eventually(
    () => /"result".*\r\n0\r\n\r\n$/s.test(kept.received),
    () => `no answer to initialize: ${kept.received}`,
    10_000,
  );
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

/** A tools/call of ask_user on `session`, whole, as one raw request. */
function rawCall(port: number, session: string, id: number): string {
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask_user', arguments: ASK } });
  return `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: ${session}\r\nMcp-Protocol-Version: 2025-06-18\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Writes a byte every 500 ms: never idle, never done (a slowloris). */
function trickle(socket: Socket, text: string) {
  let i = 0;
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(text[i++ % text.length]!)), 500);
  socket.once('close', () => clearInterval(timer));
}

/**
 * A local process without the token: holds `count` connections that never complete a request (half
 * send nothing, half the start of one), and reopens each the moment it is closed.
 */
function flood(port: number, count: number) {
  const sockets = new Set<Socket>();
  const state = { connected: 0, reopened: 0, stopped: false };
  const open = (partial: boolean) => {
    const socket = connectSocket(port, '127.0.0.1');
    let connected = false;
    sockets.add(socket);
    socket.on('connect', () => {
      connected = true;
      state.connected++;
      if (partial) socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    });
    socket.on('error', () => undefined);
    // Reads what it is sent (a 503), so it sees each close at once.
    socket.resume();
    socket.on('close', () => {
      sockets.delete(socket);
      if (connected) state.connected--;
      if (state.stopped) return;
      state.reopened++;
      open(partial);
    });
  };
  for (let i = 0; i < count; i++) open(i % 2 === 1);
  return Object.assign(state, {
    stop() {
      state.stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  });
}

suite('MCP endpoint: connections', () => {
  test('prevents a local process from locking agents out: with every connection held by a flood that sends no complete request and reopens each one closed, an agent initializes 10 times out of 10', async function () {
    this.timeout(60_000);
    await withEndpoint(async ({ endpoint }) => {
      const held = flood(endpoint.port, MAX_CONNECTIONS);
      try {
        await eventually(
          () => held.connected === MAX_CONNECTIONS,
          () => `the flood holds ${held.connected} of ${MAX_CONNECTIONS} connections`,
          20_000,
        );
        // Each request on a connection of its own: every one has to get past the flood.
        const failures: string[] = [];
        for (let i = 0; i < 10; i++) {
          try {
            const client = new Client({ name: `agent ${i}`, version: '1' });
            await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' } } }));
            await client.close();
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }
        assert.deepEqual(failures, [], `${10 - failures.length} of 10 initialize calls succeeded`);
        await eventually(
          () => held.reopened > 0 && held.connected === MAX_CONNECTIONS,
          () => `the flood reopened ${held.reopened} and holds ${held.connected}`,
          10_000,
        );
      } finally {
        held.stop();
      }
    });
  });

  test('every accepted connection has Nagle off (noDelay) before the HTTP server sees it: a streamed response is not held for a delayed ACK', async () => {
    const http = createHttpServer((_req, res) => res.end('ok'));
    const gate = new ConnectionGate(http, 4, 10_000, () => undefined);
    // What the gate does to each socket before it hands it on, seen from the HTTP server's side.
    const noDelay = new WeakMap<Socket, boolean>();
    gate.server.prependListener('connection', (socket: Socket) => {
      const set = socket.setNoDelay.bind(socket);
      socket.setNoDelay = (enable?: boolean) => (noDelay.set(socket, enable ?? true), set(enable));
    });
    const seen: Array<boolean | undefined> = [];
    http.on('connection', (socket: Socket) => seen.push(noDelay.get(socket)));
    await new Promise<void>((resolve) => gate.server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(gate.server.address() as AddressInfo).port}/`;
      for (let i = 0; i < 3; i++) assert.equal(await (await fetch(url, { headers: { connection: 'close' } })).text(), 'ok');
      assert.deepEqual(seen, [true, true, true]);
    } finally {
      gate.destroyAll();
      await new Promise((resolve) => gate.server.close(resolve));
    }
  });

  test('prevents idle connections from piling up: past the cap the one that has waited longest without a request is closed, so the cap holds and an agent still gets in', async function () {
    this.timeout(30_000);
    const cap = 64;
    await withEndpoint(
      async ({ endpoint, logs }) => {
        const sockets = Array.from({ length: cap + 200 }, () => rawSocket(endpoint.port));
        const closed = () => sockets.filter((s) => s.closedAfterMs !== undefined);
        await eventually(
          () => closed().length >= 200,
          () => `${closed().length} of the 200 connections over the cap were closed`,
          10_000,
        );
        const held = sockets.filter((s) => s.closedAfterMs === undefined);
        assert.equal(held.length, cap, 'the endpoint holds exactly the cap');
        assert.ok(held.every((s) => s.received === ''));
        // What was closed to make room was told so, in words a client can retry on.
        for (const s of closed()) assert.match(s.received, /^HTTP\/1\.1 503 [^]*\r\nRetry-After: 1\r\n[^]*"message":"Too many connections are open \(64\); retry in a moment"/);
        assert.equal(logs.filter((l) => l.includes('closing those that sent no request')).length, 1, 'one log line for the whole flood');
        // An agent is served while they are still open: its connection takes the place of the oldest.
        assert.equal((await post(endpoint.url, INITIALIZE)).status, 200);
        for (const s of held) s.socket.destroy();
      },
      { limits: { connections: cap } },
    );
  });

  test('a connection closed to make room is told 503 with Retry-After, not reset, and a request it still sends opens no session', async () => {
    const cap = 4;
    await withEndpoint(
      async ({ endpoint }) => {
        const waiting = Array.from({ length: cap }, () => rawSocket(endpoint.port));
        await eventually(
          () => waiting.every((s) => s.socket.readyState === 'open'),
          () => 'the connections did not open',
          10_000,
        );
        const newer = rawSocket(endpoint.port);
        await eventually(
          () => newer.socket.readyState === 'open',
          () => 'the new connection did not open',
          10_000,
        );
        // The oldest made room; its request, sent only now, changes nothing.
        const body = JSON.stringify(INITIALIZE);
        waiting[0]!.socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        await eventually(
          () => waiting[0]!.closedAfterMs !== undefined,
          () => 'the connection closed to make room is still open',
          10_000,
        );
        assert.match(waiting[0]!.received, /^HTTP\/1\.1 503 /);
        assert.match(waiting[0]!.received, /\r\nretry-after: 1\r\n/i);
        assert.match(waiting[0]!.received, /"message":"Too many connections are open \(4\); retry in a moment"/);
        assert.equal(endpoint.clients().length, 0, 'no session was opened for it');
        assert.ok(
          [...waiting.slice(1), newer].every((s) => s.closedAfterMs === undefined),
          'only the oldest made room',
        );
      },
      { limits: { connections: cap } },
    );
  });

  test('past the cap, while every connection carries a call whose request has arrived, each new one is answered 503 with Connection: close and Retry-After, and closed at once', async function () {
    this.timeout(30_000);
    const cap = 8;
    await withEndpoint(
      async ({ endpoint, logs, broker }) => {
        const session = (await post(endpoint.url, INITIALIZE, { connection: 'close' })).headers.get('mcp-session-id')!;
        // Each asks a question that waits for the user: its whole request arrived, its response streams on.
        // One at a time: a connection that has not sent its request yet would be closed to make room.
        const busy: Array<ReturnType<typeof rawSocket>> = [];
        for (let i = 0; i < cap; i++) {
          const s = rawSocket(endpoint.port);
          s.socket.once('connect', () => s.socket.write(rawCall(endpoint.port, session, i + 2)));
          busy.push(s);
          await eventually(
            () => broker.size === i + 1,
            () => `${broker.size} of ${i + 1} questions are waiting`,
            10_000,
          );
        }
        const refused = Array.from({ length: 20 }, () => rawSocket(endpoint.port));
        await eventually(
          () => refused.every((s) => s.closedAfterMs !== undefined),
          () => `${refused.filter((s) => s.closedAfterMs !== undefined).length} of the 20 connections over the cap were closed`,
          10_000,
        );
        for (const s of refused) {
          assert.match(s.received, /^HTTP\/1\.1 503 /);
          assert.match(s.received, /\r\nConnection: close\r\n/i);
          assert.match(s.received, /\r\nRetry-After: 1\r\n/i);
          assert.match(s.received, /"message":"Too many connections are open \(8\); retry in a moment"/);
        }
        assert.ok(
          busy.every((s) => s.closedAfterMs === undefined),
          'a connection whose call waits is never closed to make room',
        );
        assert.equal(logs.filter((l) => l.includes('refuses new connections')).length, 1, 'one log line for the whole flood');
        // Once they go, a client is served again.
        for (const s of busy) s.socket.destroy();
        await eventually(
          async () => (await post(endpoint.url, INITIALIZE)).status === 200,
          () => 'initialize never succeeded after the busy connections closed',
          10_000,
        );
      },
      { limits: { connections: cap, waitingPerSession: cap }, bodyTimeoutMs: 60_000 },
    );
  });

  test('prevents slow bodies from locking agents out: with every connection in a request whose body trickles in, the slowest is closed to make room and an agent initializes 5 times out of 5', async function () {
    this.timeout(60_000);
    const cap = 8;
    await withEndpoint(
      async ({ endpoint }) => {
        // Each holder has the token, declares a body and sends a byte of it every 500 ms.
        const holders = Array.from({ length: cap }, () => rawSocket(endpoint.port));
        for (const s of holders) {
          s.socket.once('connect', () => {
            s.socket.write(
              `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${endpoint.port}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
            );
            trickle(s.socket, ' ');
          });
        }
        await eventually(
          () => holders.every((s) => s.socket.bytesWritten > 0),
          () => 'not every holder is sending',
          10_000,
        );
        const failures: string[] = [];
        for (let i = 0; i < 5; i++) {
          const reply = await post(endpoint.url, INITIALIZE, { connection: 'close' }).catch((error: Error) => error);
          if (reply instanceof Error || reply.status !== 200) failures.push(reply instanceof Error ? reply.message : String(reply.status));
        }
        assert.deepEqual(failures, [], `${5 - failures.length} of 5 initialize calls succeeded`);
      },
      { limits: { connections: cap }, bodyTimeoutMs: 60_000 },
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
        await eventually(
          () => kept[0]!.closedAfterMs !== undefined,
          () => 'the connection idle the longest is still open',
          10_000,
        );
        assert.ok(
          kept.slice(1).some((s) => s.closedAfterMs === undefined),
          'only what made room was closed',
        );
      },
      { limits: { connections: cap } },
    );
  });

  test('a connection that sent no request makes room before a kept-alive one, even one younger than them all', async () => {
    const cap = 4;
    await withEndpoint(
      async ({ endpoint }) => {
        const kept: Array<Awaited<ReturnType<typeof keptAliveSocket>>> = [];
        for (let i = 0; i < cap - 1; i++) kept.push(await keptAliveSocket(endpoint.port));
        const fresh = rawSocket(endpoint.port);
        await eventually(
          () => fresh.socket.readyState === 'open',
          () => 'the fresh connection did not open',
          10_000,
        );
        const newer = rawSocket(endpoint.port);
        await eventually(
          () => fresh.closedAfterMs !== undefined,
          () => 'the connection that sent no request is still open',
          10_000,
        );
        assert.ok(
          [...kept, newer].every((s) => s.closedAfterMs === undefined),
          'no kept-alive connection was closed while one had sent no request',
        );
      },
      { limits: { connections: cap } },
    );
  });

  test("prevents slow headers and idle connections from holding a socket: each is closed 10 s after it opened or went idle (not at Node's 30 s check), while a streamed tools/call waits on", async function () {
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
      await eventually(
        () => Object.values(all).every((s) => s.closedAfterMs !== undefined),
        () =>
          `still open after 15 s: ${Object.entries(all)
            .filter(([, s]) => s.closedAfterMs === undefined)
            .map(([name]) => name)
            .join(', ')}`,
        15_000,
      );
      const keptAliveMs = keptAlive.closedAfterMs! - (answeredAt - keptAlive.openedAt);
      const times = { idle: idle.closedAfterMs!, slowHeaders: slowHeaders.closedAfterMs!, keptAlive: keptAliveMs };
      for (const [name, ms] of Object.entries(times)) assert.ok(ms > 9_000 && ms < 15_000, `${name} closed after ${ms} ms`);
      console.log(
        `      closed after ${Object.entries(times)
          .map(([name, ms]) => `${name} ${ms} ms`)
          .join(', ')}`,
      );

      // The streamed call, silent all this time (its first keep-alive is due at 15 s), still waits and is answered.
      assert.equal(broker.size, 1);
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      assert.match((await call).content[0]!.text, /^The user answered 1 question, "[^"]*" \(request id "[^"]+"\): database = "SQLite"\./);
      await client.close();
    });
  });
});
