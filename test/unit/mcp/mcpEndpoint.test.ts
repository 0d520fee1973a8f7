import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { uiText } from '../../../src/broker/visibleText';
import { MAX_SESSIONS, tokenMatches } from '../../../src/mcp/mcpEndpoint';
import { ASK, callAsk, connect, INITIALIZE, post, sessionNames, TOKEN, type ToolResult, until, withEndpoint } from '../helpers/mcpHelpers';

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 6);

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
      assert.deepEqual(
        tools.tools.map((t) => t.name),
        ['ask_user', 'get_answers', 'approve'],
      );
      const call = client.callTool({ name: 'ask_user', arguments: ASK });
      await until(() => broker.size === 1);
      assert.deepEqual(broker.list()[0]!.source, { type: 'mcp', label: 'Claude Code', via: `MCP client · name self-reported · token ${fingerprint(TOKEN)}`, way: 'MCP client' });
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      const result = (await call) as { content: Array<{ text: string }>; isError?: boolean };
      assert.match(result.content[0]!.text, /^The user answered 1 question, "[^"]*" \(request id "[^"]+"\): database = "SQLite"\.\n\{"requestId":"r1","status":"answered"/);
      assert.equal(result.isError, undefined);
      await client.close();
    });
  });

  test('invalid ask_user input gets the same model-readable message as the language-model tool', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const result = (await client.callTool({ name: 'ask_user', arguments: { questions: [{ ...ASK.questions[0], options: [{ label: 'Only' }] }] } })) as {
        content: Array<{ text: string }>;
        isError?: boolean;
      };
      assert.match(
        result.content[0]!.text,
        /^ask_user input is invalid; nothing was asked\. Fix 1 problem and call ask_user again:\n- questions\[0\]\.options: needs 2 to 6 options \(got 1\)/,
      );
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
      assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer realm="Agent Questions", error_description="missing or wrong token; /);
      // The body gives the same advice as the challenge: the token comes from the terminal's environment.
      assert.match(((await wrong.json()) as { error: { message: string } }).error.message, /^Missing or wrong bearer token; start the agent in a VS Code terminal opened after/);
      // fetch will not forge Host; a raw request can.
      const { request } = await import('node:http');
      const foreignHost = await new Promise<number>((resolve, reject) => {
        const req = request(
          endpoint.url,
          { method: 'POST', headers: { host: `attacker.example:${endpoint.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
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

  test('a flood of 1,000 sessions is bounded, and the endpoint still answers afterwards', async function () {
    // 1,000 HTTP round trips: a few seconds alone, more on a busy shared machine.
    this.timeout(40_000);
    await withEndpoint(async ({ endpoint }) => {
      // Past the gate's 256 connections, one that has not sent its request yet is closed to make room (a real
      // client sends at once): under load some of the flood's own connections are closed before they send, a reset.
      const statuses = await Promise.all(
        Array.from({ length: 1000 }, () =>
          post(endpoint.url, INITIALIZE).then(
            (r) => r.status,
            () => 'reset' as const,
          ),
        ),
      );
      assert.ok(
        statuses.every((s) => s === 200 || s === 503 || s === 'reset'),
        `only 200, 503 or a reset, got ${[...new Set(statuses)].join(', ')}`,
      );
      assert.ok(statuses.includes(200), 'some of the flood got in');
      assert.ok(endpoint.clients().length <= MAX_SESSIONS, `${endpoint.clients().length} sessions open`);
      const client = await connect(endpoint.url);
      assert.equal((await client.listTools()).tools.length, 3);
      await client.close();
    });
  });

  test("one client's waiting calls are capped; the rest are refused with a readable message", async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const client = await connect(endpoint.url);
        const calls = Array.from({ length: 5 }, () => client.callTool({ name: 'ask_user', arguments: ASK }) as Promise<{ content: Array<{ text: string }>; isError?: boolean }>);
        await until(() => broker.size === 3);
        const refused = await Promise.race([Promise.all(calls.slice(3)), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('not refused')), 2000))]);
        for (const r of refused) assert.match(r.content[0]!.text, /^Too many requests from this client are already waiting \(3\)/);
        for (const request of broker.list()) broker.reject(request.id, { by: 'user', where: 'panel' });
        await Promise.all(calls.slice(0, 3));
        await client.close();
      },
      { limits: { waitingPerSession: 3 } },
    );
  });

  test('a client name is never taken at its word: shown cleaned and marked self-reported, with a fingerprint of the token it came through, never the token', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const name = `Claude Code\n[Allow](command:workbench.action.terminal.sendSequence) $(check) ${'x'.repeat(100)}`;
      const client = await connect(endpoint.url, TOKEN, name);
      const call = callAsk(client);
      await until(() => broker.size === 1);
      const source = broker.list()[0]!.source;
      assert.equal(source.label, uiText(name, 60));
      assert.doesNotMatch(source.label, /\n|\]\(|\$\(/);
      assert.equal(source.via, `MCP client · name self-reported · token ${fingerprint(TOKEN)}`);
      assert.equal(JSON.stringify(source).includes(TOKEN), false);
      broker.reject(broker.list()[0]!.id, { by: 'user', where: 'panel' });
      await call;
      await client.close();
    });
  });

  test('prevents forged log lines: a newline in a client name or a tool_name stays inside its one log line', async () => {
    await withEndpoint(async ({ broker, endpoint, logs }) => {
      const client = await connect(endpoint.url, TOKEN, 'evil\nMCP session opened (1 open)');
      const ask = callAsk(client);
      await until(() => broker.size === 1);
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      await ask;
      const approve = client.callTool({ name: 'approve', arguments: { tool_name: 'Bash\nMCP approve Bash from Claude Code: allow_always', input: { command: 'ls' } } });
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' });
      await approve;
      const oneLineEach = () => {
        for (const line of logs) assert.doesNotMatch(line, /[\r\n\u2028\u2029]/, `one line: ${JSON.stringify(line)}`);
      };
      oneLineEach();
      endpoint.disconnect(endpoint.sessions()[0]!.key);
      await client.close();
      assert.ok(logs.length >= 4, logs.join(' | '));
      oneLineEach();
    });
  });

  test('open sessions are listed (self-reported name, token fingerprint, opened, last used, calls waiting); disconnecting one cancels its waiting call and empties the queue', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const agent = await connect(endpoint.url, TOKEN, 'Claude Code');
      const other = await connect(endpoint.url, TOKEN, 'other');
      const settled = new Promise<string>((resolve) => broker.onDidChange((c) => c.type === 'settled' && resolve(c.response.status)));
      const call = callAsk(agent).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await until(() => broker.size === 1);
      const sessions = endpoint.sessions();
      assert.equal(sessions.length, 2);
      const mine = sessions.find((s) => s.name === 'Claude Code')!;
      assert.equal(mine.tokenId, fingerprint(TOKEN));
      assert.equal(mine.waiting, 1);
      assert.ok(mine.openedAt <= mine.lastUsedAt && mine.lastUsedAt <= Date.now());
      assert.equal(sessions.find((s) => s.name === 'other')!.waiting, 0);
      assert.equal(JSON.stringify(sessions).includes(TOKEN), false);

      assert.equal(endpoint.disconnect(mine.key), true);
      assert.equal(await settled, 'cancelled');
      assert.equal(broker.size, 0);
      assert.notEqual(await call, 'answered', 'the call ends with an error, it does not hang');
      assert.deepEqual(
        endpoint.sessions().map((s) => s.name),
        ['other'],
      );
      assert.equal(endpoint.disconnect(mine.key), false);
      await assert.rejects(agent.listTools());
      assert.equal((await other.listTools()).tools.length, 3);
      await other.close();
      await agent.close().catch(() => undefined);
    });
  });

  test('prevents one token holder from locking agents out: its 32 sessions hold at most 16 waiting calls, so a new agent still connects', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const clients = await Promise.all(Array.from({ length: MAX_SESSIONS }, () => connect(endpoint.url)));
      // The calls over the cap come back at once, refused; the others wait for the user.
      const results: ToolResult[] = [];
      const calls = clients.map(async (c) => results.push(await callAsk(c)));
      await until(() => results.length === 16);
      assert.equal(broker.size, 16);
      for (const r of results) assert.match(r.content[0]!.text, /^Too many requests through this token are already waiting \(16 across its sessions\)/);
      const agent = await connect(endpoint.url, TOKEN, 'the real agent');
      assert.equal((await agent.listTools()).tools.length, 3);
      for (const request of broker.list()) broker.reject(request.id, { by: 'user', where: 'panel' });
      await Promise.all(calls);
      await Promise.all([agent, ...clients].map((c) => c.close().catch(() => undefined)));
    });
  });

  test("prevents one process from locking the other agents out of a shared token: a flood fills the token's 16 slots, yet an agent that just completed a call still reaches the panel; a fresh session does not", async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      // The agent at work: one call completed.
      const agent = await connect(endpoint.url, TOKEN, 'the real agent');
      const first = callAsk(agent);
      await until(() => broker.size === 1);
      broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      await first;
      // A process in a terminal floods through the same token from two sessions.
      const flooders = await Promise.all([connect(endpoint.url, TOKEN, 'flood 1'), connect(endpoint.url, TOKEN, 'flood 2')]);
      const flood = flooders.flatMap((c) => Array.from({ length: 10 }, () => callAsk(c)));
      await until(() => broker.size === 16);
      // A fresh session is refused; the agent at work still gets its call to the panel.
      const fresh = await connect(endpoint.url, TOKEN, 'fresh');
      assert.match((await callAsk(fresh)).content[0]!.text, /^Too many requests through this token are already waiting \(16 across its sessions\)/);
      const second = callAsk(agent);
      await until(() => broker.size === 17);
      assert.equal(broker.list().filter((r) => r.source.label === 'the real agent').length, 1);
      for (const request of broker.list()) broker.reject(request.id, { by: 'user', where: 'panel' });
      await Promise.all([second, ...flood]);
      await Promise.all([agent, fresh, ...flooders].map((c) => c.close().catch(() => undefined)));
    });
  });

  test('never evicts an agent at work: a session that completed a call in the last minutes is not closed to make room', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const worker = await connect(endpoint.url, TOKEN, 'worker');
        const call = callAsk(worker);
        await until(() => broker.size === 1);
        broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
        await call;
        const idle = await connect(endpoint.url, TOKEN, 'idle');
        // Both sessions are free of calls; the newcomer may close only the one that never worked.
        await connect(endpoint.url, TOKEN, 'newcomer');
        assert.deepEqual(sessionNames(endpoint), ['newcomer', 'worker']);
        // A fourth client closes the newcomer (it never worked), again not the worker.
        assert.equal((await post(endpoint.url, INITIALIZE)).status, 200);
        assert.deepEqual(sessionNames(endpoint), ['unit-client', 'worker']);
        assert.equal((await worker.listTools()).tools.length, 3);
        await idle.close().catch(() => undefined);
      },
      { limits: { sessions: 2 } },
    );
  });

  test('waiting calls are capped in total, across tokens (calls through a rotated token still count)', async () => {
    let token = TOKEN;
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const first = await connect(endpoint.url, token);
        const firstCalls = [callAsk(first), callAsk(first)];
        const overToken = await callAsk(first);
        assert.match(overToken.content[0]!.text, /^Too many requests through this token are already waiting \(2 across its sessions\)/);
        token = 'rotated-token-9876543210';
        const second = await connect(endpoint.url, token);
        const secondCall = callAsk(second);
        await until(() => broker.size === 3);
        const overTotal = await callAsk(second);
        assert.match(overTotal.content[0]!.text, /^Too many requests are already waiting \(3 in all\)/);
        assert.equal(overTotal.isError, true);
        assert.deepEqual(
          endpoint
            .sessions()
            .map((s) => s.tokenId)
            .sort(),
          [fingerprint(TOKEN), fingerprint(token)].sort(),
        );
        for (const request of broker.list()) broker.reject(request.id, { by: 'user', where: 'panel' });
        await Promise.all([...firstCalls, secondCall]);
        await second.close();
      },
      { token: () => token, limits: { waitingPerToken: 2, waitingTotal: 3 } },
    );
  });

  test('never evicts a session with a call waiting: an idle session makes room, and with every session busy a new agent gets 503', async () => {
    await withEndpoint(
      async ({ broker, endpoint }) => {
        const busy = await connect(endpoint.url, TOKEN, 'busy');
        const idle = await connect(endpoint.url, TOKEN, 'idle');
        const busyCall = callAsk(busy);
        await until(() => broker.size === 1);
        const newcomer = await connect(endpoint.url, TOKEN, 'newcomer');
        assert.deepEqual(sessionNames(endpoint), ['busy', 'newcomer']);
        await assert.rejects(idle.listTools(), 'the idle session was closed');
        const newcomerCall = callAsk(newcomer);
        await until(() => broker.size === 2);
        const refused = await post(endpoint.url, INITIALIZE);
        assert.equal(refused.status, 503);
        assert.match(await refused.text(), /Too many open sessions \(2\)/);
        assert.deepEqual(sessionNames(endpoint), ['busy', 'newcomer']);
        for (const request of broker.list()) broker.reply(request.id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
        assert.match((await busyCall).content[0]!.text, /database = "SQLite"/);
        await newcomerCall;
        await Promise.all([busy, newcomer].map((c) => c.close()));
        await idle.close().catch(() => undefined);
      },
      { limits: { sessions: 2 } },
    );
  });
});
