import * as assert from 'node:assert/strict';
import { eventStreamMessages } from '../../../src/broker/contract/eventStream';
import { WAITING_MESSAGE } from '../../../src/mcp/mcpTools';
import { ASK, callAsk, connect, INITIALIZE, post, until, withEndpoint } from '../helpers/mcpHelpers';

// A question waits as long as the human takes: while a tools/call waits, its event stream carries
// progress notifications (and keep-alive comments), so a CLI that gives up on a silent call keeps
// waiting. A client that accepts no event stream still gets one JSON response.
const EVERY_MS = 150;
const ANSWER = { database: { selected: ['SQLite'], skipped: false } };

type Message = { id?: number; method?: string; params?: { progressToken?: unknown; progress?: number; message?: string }; result?: { content: Array<{ text: string }> } };

/** Opens a session by hand; `accept` is what the client sends on every request. */
async function session(url: string, accept: string) {
  const init = await post(url, INITIALIZE, { accept });
  assert.equal(init.status, 200);
  assert.match(init.headers.get('content-type') ?? '', /^application\/json/, 'initialize is answered as JSON, as before');
  assert.equal(((await init.json()) as { result?: unknown }).result !== undefined, true);
  const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-06-18', accept };
  assert.equal((await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status, 202);
  return headers;
}

const toolsCall = (meta: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask_user', arguments: ASK, ...meta } });

/** Reads an event stream as it arrives: the text so far, with the time each chunk came. */
function readStream(response: Response) {
  const chunks: Array<{ at: number; text: string }> = [];
  const decoder = new TextDecoder();
  const done = (async () => {
    const reader = response.body!.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) chunks.push({ at: Date.now(), text: decoder.decode(chunk.value, { stream: true }) });
  })();
  const text = () => chunks.map((c) => c.text).join('');
  return { chunks, done, text, messages: () => eventStreamMessages(text()) as Message[] };
}

suite('MCP endpoint: a waiting call stays alive', () => {
  test('a waiting tools/call is answered as an event stream at once, with a progress notification at once and then at a steady cadence until the answer', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const headers = await session(endpoint.url, 'application/json, text/event-stream');
        const sentAt = Date.now();
        const response = await post(endpoint.url, toolsCall({ _meta: { progressToken: 'tok-1' } }), headers);
        // The headers came while the question still waits: nothing has been answered yet.
        assert.equal(broker.size, 1);
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
        const stream = readStream(response);
        await until(() => stream.messages().filter((m) => m.method === 'notifications/progress').length >= 4);
        const progress = stream.messages().filter((m) => m.method === 'notifications/progress');
        assert.ok(
          progress.every((m) => m.params?.progressToken === 'tok-1' && m.params.message === WAITING_MESSAGE),
          JSON.stringify(progress),
        );
        assert.deepEqual(
          progress.map((m) => m.params?.progress),
          progress.map((_, i) => i + 1),
          'progress counts up',
        );
        // The first at once, then one per interval: four take at least three intervals.
        const fourthAt = stream.chunks.find((c) => c.text.includes('"progress":4'))!.at;
        assert.ok(fourthAt - sentAt >= 3 * EVERY_MS - 20, `the fourth came ${fourthAt - sentAt} ms after the call`);
        assert.equal(broker.size, 1, 'still waiting');

        broker.reply(broker.list()[0]!.id, ANSWER, { by: 'user', where: 'panel' });
        await stream.done;
        const last = stream.messages().at(-1)!;
        assert.equal(last.id, 2);
        assert.match(last.result!.content[0]!.text, /^The user answered 1 question, "[^"]*" \(request id "[^"]+"\): database = "SQLite"\./);
        // Nothing after the answer: the stream ended with it.
        const count = stream.messages().filter((m) => m.method === 'notifications/progress').length;
        await new Promise((r) => setTimeout(r, 2 * EVERY_MS));
        assert.equal(stream.messages().filter((m) => m.method === 'notifications/progress').length, count);
      },
      { keepAliveMs: EVERY_MS },
    );
  });

  test('without a progressToken the stream carries keep-alive comments (no progress, which the client did not ask for)', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const headers = await session(endpoint.url, 'application/json, text/event-stream');
        const response = await post(endpoint.url, toolsCall(), headers);
        assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
        const stream = readStream(response);
        await until(() => (stream.text().match(/^: keepalive$/gm) ?? []).length >= 2);
        assert.deepEqual(stream.messages(), []);
        broker.reply(broker.list()[0]!.id, ANSWER, { by: 'user', where: 'panel' });
        await stream.done;
        assert.deepEqual(
          stream.messages().map((m) => m.id),
          [2],
        );
      },
      { keepAliveMs: EVERY_MS },
    );
  });

  test('a client that does not accept an event stream still gets one JSON response, and only when the answer comes', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const headers = await session(endpoint.url, 'application/json');
        let answered = false;
        const call = post(endpoint.url, toolsCall({ _meta: { progressToken: 7 } }), headers).then((r) => {
          answered = true;
          return r;
        });
        await until(() => broker.size === 1);
        await new Promise((r) => setTimeout(r, 3 * EVERY_MS));
        assert.equal(answered, false, 'no headers before the answer');
        broker.reply(broker.list()[0]!.id, ANSWER, { by: 'user', where: 'panel' });
        const response = await call;
        assert.equal(response.status, 200);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await response.json()) as Message;
        assert.equal(body.id, 2);
        assert.match(body.result!.content[0]!.text, /database = "SQLite"/);
      },
      { keepAliveMs: EVERY_MS },
    );
  });

  test('the SDK client (as Claude Code and OpenCode use it) sees the progress and gets the answer; its timeout, reset by progress, never fires', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const client = await connect(endpoint.url);
        const seen: string[] = [];
        const call = client.callTool({ name: 'ask_user', arguments: ASK }, undefined, {
          timeout: 4 * EVERY_MS,
          resetTimeoutOnProgress: true,
          onprogress: (p) => seen.push(p.message ?? ''),
        });
        await until(() => broker.size === 1);
        // Wait past the client's own timeout three times over.
        await new Promise((r) => setTimeout(r, 12 * EVERY_MS));
        broker.reply(broker.list()[0]!.id, ANSWER, { by: 'user', where: 'panel' });
        const result = (await call) as { content: Array<{ text: string }> };
        assert.match(result.content[0]!.text, /database = "SQLite"/);
        assert.ok(seen.length >= 8 && seen.every((m) => m === WAITING_MESSAGE), `${seen.length} progress notifications`);
        await client.close();
      },
      { keepAliveMs: EVERY_MS },
    );
  });

  test('a client that goes away from a streamed call cancels its question', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const headers = await session(endpoint.url, 'application/json, text/event-stream');
        const controller = new AbortController();
        const settled = new Promise<string>((resolve) => broker.onDidChange((c) => c.type === 'settled' && resolve(c.response.status)));
        const response = await fetch(endpoint.url, {
          method: 'POST',
          signal: controller.signal,
          headers: { 'content-type': 'application/json', authorization: 'Bearer test-token-0123456789', ...headers },
          body: JSON.stringify(toolsCall({ _meta: { progressToken: 'x' } })),
        });
        assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
        controller.abort();
        assert.equal(await settled, 'cancelled');
        assert.equal(broker.size, 0);
      },
      { keepAliveMs: EVERY_MS },
    );
  });

  test('plain SDK calls still work end to end (a quick answer over the stream)', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const call = callAsk(client);
      await until(() => broker.size === 1);
      broker.reply(broker.list()[0]!.id, ANSWER, { by: 'user', where: 'panel' });
      assert.match((await call).content[0]!.text, /database = "SQLite"/);
      await client.close();
    });
  });
});
