import * as assert from 'node:assert/strict';
import { connect as connectSocket } from 'node:net';
import { MAX_ELEMENTS, MAX_NESTING } from '../../../src/mcp/mcpEndpoint';
import { post, TOKEN, withEndpoint } from '../helpers/mcpHelpers';

const MB = 1024 * 1024;

/** Runs `send` and records the length of every text JSON.parse is given meanwhile (in this process: the endpoint's). */
async function withParsesSeen(send: () => Promise<Response>): Promise<{ response: Response; parsed: number[] }> {
  const parsed: number[] = [];
  const parse = JSON.parse;
  JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    parsed.push(String(text).length);
    return parse(text, reviver);
  };
  try {
    return { response: await send(), parsed };
  } finally {
    JSON.parse = parse;
  }
}

interface Exchange {
  /** What the server answered, as text. */
  response: string;
  /** Body bytes the server's side of the connection took before it closed. */
  written: number;
  /** Whether the server closed the connection (rather than the test giving up). */
  closed: boolean;
  ms: number;
}

/**
 * A raw HTTP/1.1 request: writes `head`, then up to `body` bytes as fast as the connection takes
 * them (chunked when asked), and ends when the server closes the connection or after `giveUpMs`.
 */
function exchange(port: number, head: string, options: { body: number; chunked?: boolean; pauseAfter?: number; giveUpMs?: number }): Promise<Exchange> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connectSocket(port, '127.0.0.1');
    const piece = Buffer.alloc(64 * 1024, 0x20);
    const frame = options.chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
    let response = '';
    let written = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ response, written, closed, ms: Date.now() - started });
    };
    const giveUp = setTimeout(() => finish(false), options.giveUpMs ?? 5000);
    socket.on('data', (data) => (response += data.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined); // a reset once the server closes on us
    const pump = () => {
      while (!done && written < Math.min(options.body, options.pauseAfter ?? Infinity)) {
        written += piece.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}

const head = (port: number, headers: string[]) =>
  [`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', ...headers, '', ''].join('\r\n');

suite('MCP endpoint: request bodies', () => {
  test("a refused request's body is never read: no token and a 256 MB body, the connection is closed after a few MB", async () => {
    await withEndpoint(async ({ endpoint }) => {
      const result = await exchange(endpoint.port, head(endpoint.port, [`Content-Length: ${256 * MB}`]), { body: 256 * MB });
      assert.equal(result.closed, true, `the server kept the connection open and took ${result.written / MB} MB`);
      assert.ok(result.written < 32 * MB, `the server took ${result.written / MB} MB`);
      assert.match(result.response, /^HTTP\/1\.1 401 /);
      assert.match(result.response, /\r\nConnection: close\r\n/i);
      console.log(`      closed after ${result.ms} ms and ${(result.written / MB).toFixed(1)} MB`);
    });
  });

  test('an oversized body is cut off: 413 as soon as it is declared, or mid-stream, and the connection is closed', async () => {
    await withEndpoint(async ({ endpoint }) => {
      const auth = `Authorization: Bearer ${TOKEN}`;
      for (const [headers, chunked] of [
        [[auth, `Content-Length: ${256 * MB}`], false],
        [[auth, 'Transfer-Encoding: chunked'], true],
      ] as const) {
        const result = await exchange(endpoint.port, head(endpoint.port, [...headers]), { body: 256 * MB, chunked });
        assert.equal(result.closed, true, `${headers[1]}: the connection stayed open after ${result.written / MB} MB`);
        assert.ok(result.written < 32 * MB, `${headers[1]}: the server took ${result.written / MB} MB`);
        assert.match(result.response, /^HTTP\/1\.1 413 /);
        assert.match(result.response, /\r\nConnection: close\r\n/i);
      }
    });
  });

  test('prevents a slow body from holding a connection: 408 after the body timeout, and the connection is closed', async () => {
    await withEndpoint(
      async ({ endpoint }) => {
        const result = await exchange(endpoint.port, head(endpoint.port, [`Authorization: Bearer ${TOKEN}`, 'Transfer-Encoding: chunked']), {
          body: MB,
          chunked: true,
          pauseAfter: 1,
        });
        assert.equal(result.closed, true, 'the connection stayed open');
        assert.match(result.response, /^HTTP\/1\.1 408 /);
        assert.ok(result.ms < 2000, `closed after ${result.ms} ms`);
      },
      { bodyTimeoutMs: 200 },
    );
  });

  test(`prevents a deeply nested body from stalling the host: 1 MB of nesting is refused with 400 naming the limit (${MAX_NESTING}), refused before it is parsed, so the host is never held`, async () => {
    await withEndpoint(async ({ endpoint }) => {
      const depth = 500_000; // with the envelope, just under the 1 MB body limit
      const body = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"},"deep":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      const { response, parsed } = await withParsesSeen(() => post(endpoint.url, body));
      // What blocked the host (about 1 s) was parsing and checking it: the body is refused unparsed.
      assert.deepEqual(
        parsed.filter((length) => length >= body.length),
        [],
        'the body was never parsed',
      );
      assert.equal(response.status, 400);
      assert.match(await response.text(), new RegExp(`nested deeper than ${MAX_NESTING}`));
    });
  });

  test(`prevents a wide body from stalling the host: an approve call with 60,000 input keys is refused with 400 naming the limit (${MAX_ELEMENTS}), refused before it is parsed, so the host is never held`, async () => {
    await withEndpoint(async ({ endpoint }) => {
      const init = await post(
        endpoint.url,
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
      );
      const session = init.headers.get('mcp-session-id')!;
      await post(endpoint.url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', { 'mcp-session-id': session });
      const input = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Edit', input } } });
      const { response, parsed } = await withParsesSeen(() => post(endpoint.url, body, { 'mcp-session-id': session }));
      assert.deepEqual(
        parsed.filter((length) => length >= body.length),
        [],
        'the body was never parsed',
      );
      assert.equal(response.status, 400);
      assert.match(await response.text(), new RegExp(`more than ${MAX_ELEMENTS} JSON elements`));
    });
  });

  test('nesting within the limit, and brackets inside strings, are accepted', async () => {
    await withEndpoint(async ({ endpoint }) => {
      const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
      const initialize = (extra: string) =>
        `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"},"extra":${extra}}}`;
      assert.equal((await post(endpoint.url, initialize(nested(MAX_NESTING - 3)))).status, 200);
      assert.equal((await post(endpoint.url, initialize(JSON.stringify(`\\"${'['.repeat(1000)}`)))).status, 200);
      assert.equal((await post(endpoint.url, initialize(nested(MAX_NESTING)))).status, 400);
    });
  });
});
