import * as assert from 'node:assert/strict';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callAskUser, type AskUserCall } from '../../../../src/broker/questions/askUserCall';
import { callGetAnswers } from '../../../../src/broker/questions/getAnswersCall';
import { LATER_WAITING_PER_GROUP, LATER_WAITING_PER_OWNER, LaterAnswers } from '../../../../src/broker/questions/laterAnswers';
import { makeBroker, makePolicy } from '../../helpers/fakes';
import { connect, sessionNames, TOKEN, type ToolResult, until, withEndpoint } from '../../helpers/mcpHelpers';

const ASK = { questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }] };
const LATER = { ...ASK, wait: false };

function setup(route = makePolicy()) {
  const { broker } = makeBroker();
  let now = 10_000;
  const store = new LaterAnswers({ keepMs: () => 60_000, now: () => now });
  const call = (owner: string): AskUserCall => ({ broker, policy: route, source: { type: 'tool', label: 'Chat tool' }, later: { store, owner } });
  const get = (owner: string, input: unknown, signal = new AbortController().signal) => callGetAnswers(input, { store, owner, signal });
  return { broker, store, call, get, advance: (ms: number) => (now += ms) };
}

/** The settled response reaches the store a few promise hops later. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const resultsOf = (text: string) => JSON.parse(text.slice(text.lastIndexOf('\n') + 1)).results as Array<{ requestId: string; status: string; answers?: unknown }>;

suite('ask_user with wait: false, and get_answers', () => {
  test('wait: false returns at once with the id and "waiting"; the request is queued and marked', async () => {
    const { broker, call } = setup();
    const result = await callAskUser(LATER, call('chat:a'));
    assert.equal(result.response, undefined);
    const id = result.waitingId!;
    assert.deepEqual(JSON.parse(result.text.split('\n')[1]!), { requestId: id, status: 'waiting' });
    assert.match(result.text, /Keep working on what does not depend on the answer, and call get_answers with ids \["r\d+"\]/);
    const pending = broker.get(id);
    assert.equal(pending?.kind === 'questions' && pending.keepsWorking, true);
  });

  test('get_answers: waiting until the user answers, then the answered response in the shape ask_user returns, again within the keep time, then dropped', async () => {
    const { broker, call, get, advance } = setup();
    const id = (await callAskUser(LATER, call('chat:a'))).waitingId!;
    assert.deepEqual(resultsOf((await get('chat:a', { ids: [id] })).text), [{ requestId: id, status: 'waiting' }]);
    assert.ok(broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' }));
    await settle();
    const first = await get('chat:a', { ids: [id] });
    assert.match(first.text, /^"r\d+": The user answered 1 question: db = "SQLite"\./);
    assert.deepEqual(resultsOf(first.text), [{ requestId: id, status: 'answered', answers: { db: { selected: ['SQLite'], skipped: false } } }]);
    advance(59_000);
    assert.equal(resultsOf((await get('chat:a', { ids: [id] })).text)[0]!.status, 'answered', 'read again within the keep time');
    advance(2_000);
    assert.equal(resultsOf((await get('chat:a', { ids: [id] })).text)[0]!.status, 'unknown', 'dropped after the keep time');
  });

  test('another owner cannot collect an answer: its id is unknown to them', async () => {
    const { broker, call, get } = setup();
    const id = (await callAskUser(LATER, call('chat:a'))).waitingId!;
    broker.reply(id, { db: { selected: ['PostgreSQL'], skipped: false } }, { by: 'user', where: 'panel' });
    await settle();
    const stranger = await get('chat:b', { ids: [id] });
    assert.deepEqual(
      resultsOf(stranger.text).map((r) => r.status),
      ['unknown'],
    );
    assert.doesNotMatch(stranger.text, /PostgreSQL/);
    assert.equal(resultsOf((await get('chat:a', { ids: [id] })).text)[0]!.status, 'answered', 'the owner still collects it');
  });

  test('waitSeconds blocks until every id is settled; cancelling the wait leaves the question in the queue', async () => {
    const { broker, call, get } = setup();
    const id = (await callAskUser(LATER, call('chat:a'))).waitingId!;
    const stop = new AbortController();
    const cancelled = get('chat:a', { ids: [id], waitSeconds: 3600 }, stop.signal);
    stop.abort();
    assert.equal(resultsOf((await cancelled).text)[0]!.status, 'waiting');
    assert.ok(broker.get(id), 'still pending after the wait was cancelled');
    const waiting = get('chat:a', { ids: [id], waitSeconds: 3600 });
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false, 'blocks while the user has not answered');
    broker.reject(id, { by: 'user', where: 'panel' }, 'not now');
    const settled = resultsOf((await waiting).text)[0]!;
    assert.equal(settled.status, 'rejected');
  });

  test(`an owner can have ${LATER_WAITING_PER_OWNER} unanswered wait: false questions, not more`, async () => {
    const { broker, call } = setup();
    for (let i = 0; i < LATER_WAITING_PER_OWNER; i++) assert.ok((await callAskUser(LATER, call('chat:a'))).waitingId);
    const refused = await callAskUser(LATER, call('chat:a'));
    assert.equal(refused.isError, true);
    assert.match(refused.text, /nothing was asked\. 8 of your questions asked with wait: false are still unanswered; collect their answers with get_answers/);
    assert.equal(broker.size, LATER_WAITING_PER_OWNER);
    assert.ok((await callAskUser(LATER, call('chat:b'))).waitingId, 'another owner is not held up');
  });

  test('with no one to ask, wait: false answers at once as ask_user does', async () => {
    const { call } = setup(makePolicy({ kind: 'unavailable', reason: 'No UI.', setting: 'noWindow' }));
    const result = await callAskUser(LATER, call('chat:a'));
    assert.equal(result.waitingId, undefined);
    assert.equal(result.response?.status, 'unavailable');
  });

  test('a secret asked with wait: false is collected as its handle', async () => {
    const { broker, call, get } = setup();
    const id = (await callAskUser({ questions: [{ id: 'key', header: 'Key', question: 'Your key?', kind: 'secret', envVar: 'STAGING_API_KEY' }], wait: false }, call('chat:a')))
      .waitingId!;
    broker.reply(id, { key: { selected: [], skipped: false, secret: { stored: true, envVar: 'STAGING_API_KEY' } } }, { by: 'user', where: 'panel' });
    await settle();
    const { text } = await get('chat:a', { ids: [id] });
    assert.match(text, /key = stored in \$STAGING_API_KEY/);
  });

  test('bad get_answers input names the field and the fix', async () => {
    const { get } = setup();
    const { text, results } = await get('chat:a', { ids: [], waitSeconds: -1 });
    assert.equal(results, undefined);
    assert.match(text, /^get_answers input is invalid \(ids: .*; waitSeconds: .*\); expected \{ ids: \["<request id from ask_user>"\], waitSeconds\?: 0-86400 \}\.$/);
  });

  test('wait: false must be a boolean', async () => {
    const { call } = setup();
    const result = await callAskUser({ ...ASK, wait: 'no' }, call('chat:a'));
    assert.equal(result.isError, true);
    assert.match(result.text, /wait/);
  });
});

suite('wait: false over MCP', () => {
  const textOf = (r: unknown) => (r as ToolResult).content[0]!.text;
  const idOf = (r: unknown) => {
    assert.notEqual((r as ToolResult).isError, true, textOf(r));
    return JSON.parse(textOf(r).split('\n')[1]!).requestId as string;
  };

  test('the client that asked collects the answer; another client on the same token cannot; closing its session leaves what it asked waiting', () =>
    withEndpoint(async ({ broker, endpoint }) => {
      const asker = await connect(endpoint.url);
      const other = await connect(endpoint.url, TOKEN, 'other-agent');
      const id = idOf(await asker.callTool({ name: 'ask_user', arguments: LATER }));
      assert.equal(broker.get(id)?.kind, 'questions');
      broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      await until(() => broker.size === 0);
      assert.match(textOf(await other.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /"status":"unknown"/);
      assert.match(textOf(await asker.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /The user answered 1 question: db = "SQLite"/);

      const left = idOf(await asker.callTool({ name: 'ask_user', arguments: LATER }));
      await (asker.transport as StreamableHTTPClientTransport).terminateSession();
      await asker.close();
      assert.equal(endpoint.sessions().length, 1, 'the session is closed');
      assert.ok(broker.get(left), 'its question still waits in the panel');
      await other.close();
    }));

  test('prevents losing a wait: false answer to eviction: the evicted asker reconnects and collects it', () =>
    withEndpoint(
      async ({ broker, endpoint }) => {
        const asker = await connect(endpoint.url, TOKEN, 'claude-code');
        const id = idOf(await asker.callTool({ name: 'ask_user', arguments: LATER }));
        // A newer session on the same token past the session limit closes the asker's (the only one).
        const newcomer = await connect(endpoint.url, TOKEN, 'newcomer');
        assert.deepEqual(
          endpoint.sessions().map((s) => s.name),
          ['newcomer'],
        );
        await assert.rejects(asker.listTools(), 'the asker was evicted');
        assert.ok(broker.get(id), 'the question stays in the panel');
        broker.reply(id, { db: { selected: ['PostgreSQL'], skipped: false } }, { by: 'user', where: 'panel' });
        await newcomer.close();
        const back = await connect(endpoint.url, TOKEN, 'claude-code');
        assert.match(textOf(await back.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /db = "PostgreSQL"/);
        await back.close();
        await asker.close().catch(() => undefined);
      },
      { limits: { sessions: 1, recentlyActiveMs: 0 } },
    ));

  test('prevents losing a wait: false answer to a reconnect: the same client (name and token) collects it in its new session, another name cannot', () =>
    withEndpoint(async ({ broker, endpoint }) => {
      const asker = await connect(endpoint.url, TOKEN, 'codex');
      const id = idOf(await asker.callTool({ name: 'ask_user', arguments: LATER }));
      await (asker.transport as StreamableHTTPClientTransport).terminateSession();
      await asker.close();
      const back = await connect(endpoint.url, TOKEN, 'codex');
      assert.match(textOf(await back.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /"status":"waiting"/);
      const collected = back.callTool({ name: 'get_answers', arguments: { ids: [id], waitSeconds: 600 } });
      broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      assert.match(textOf(await collected), /db = "SQLite"/);
      const stranger = await connect(endpoint.url, TOKEN, 'opencode');
      assert.match(textOf(await stranger.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /"status":"unknown"/);
      await Promise.all([back.close(), stranger.close()]);
    }));

  test('prevents one token holder from taking every wait: false place: an asker holds at most 8, a token at most half of the 64, and others still ask', () =>
    withEndpoint(async ({ broker, endpoint, later }) => {
      const first = await connect(endpoint.url, TOKEN, 'first');
      for (let i = 0; i < LATER_WAITING_PER_OWNER; i++) idOf(await first.callTool({ name: 'ask_user', arguments: LATER }));
      const over = (await first.callTool({ name: 'ask_user', arguments: LATER })) as ToolResult;
      assert.equal(over.isError, true);
      assert.match(
        over.content[0]!.text,
        /^ask_user: nothing was asked\. 8 of your questions asked with wait: false are still unanswered; .*\(8 is the limit for one asker\), or ask with wait: true/,
      );
      const second = await connect(endpoint.url, TOKEN, 'second');
      idOf(await second.callTool({ name: 'ask_user', arguments: LATER }));

      // One process on the token claims more names (past the places kept for first places, one a name): it stops at half of the places.
      const names = Array.from({ length: 12 }, (_, i) => `flood-${i}`);
      const flooders = await Promise.all(names.map((name) => connect(endpoint.url, TOKEN, name)));
      const results = [];
      for (const flooder of flooders)
        for (let i = 0; i < LATER_WAITING_PER_OWNER; i++) results.push((await flooder.callTool({ name: 'ask_user', arguments: LATER })) as ToolResult);
      assert.equal(later.waitingCount, LATER_WAITING_PER_GROUP);
      assert.equal(results.filter((r) => !r.isError).length, LATER_WAITING_PER_GROUP - LATER_WAITING_PER_OWNER - 1, 'the flood took only what the first two left of the half');
      const refused = results.filter((r) => r.isError);
      assert.match(
        refused.at(-1)!.content[0]!.text,
        /^ask_user: nothing was asked\. The agents connected through your token already have 32 questions asked with wait: false unanswered \(the limit for one token: half of the 64 places/,
      );
      // The other half is still there for everyone else (a chat in VS Code).
      const chat = await callAskUser(LATER, { broker, policy: makePolicy(), source: { type: 'tool', label: 'Chat tool' }, later: { store: later, owner: 'chat:a' } });
      assert.ok(chat.waitingId, 'a chat still asks');
      assert.equal(broker.size, LATER_WAITING_PER_GROUP + 1);
      await Promise.all([first, second, ...flooders].map((c) => c.close()));
    }));

  test('prevents evicting the session with answers to collect first: an idle session without any is closed before it', () =>
    withEndpoint(
      async ({ broker, endpoint }) => {
        const holder = await connect(endpoint.url, TOKEN, 'holder');
        const id = idOf(await holder.callTool({ name: 'ask_user', arguments: LATER }));
        broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
        await until(() => broker.size === 0);
        // Used after the holder, so the holder is the one idle the longest.
        const idle = await connect(endpoint.url, TOKEN, 'idle');
        const newcomer = await connect(endpoint.url, TOKEN, 'newcomer');
        assert.deepEqual(sessionNames(endpoint), ['holder', 'newcomer']);
        // Once its answer is collected, the holder is closed in its turn like any idle session.
        assert.match(textOf(await holder.callTool({ name: 'get_answers', arguments: { ids: [id] } })), /db = "SQLite"/);
        await newcomer.listTools();
        const third = await connect(endpoint.url, TOKEN, 'third');
        assert.deepEqual(sessionNames(endpoint), ['newcomer', 'third']);
        await Promise.all([newcomer.close(), third.close()]);
        await Promise.all([idle, holder].map((c) => c.close().catch(() => undefined)));
      },
      { limits: { sessions: 2, recentlyActiveMs: 0 } },
    ));

  test('get_answers with waitSeconds waits on the stream until the user answers', () =>
    withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url);
      const id = JSON.parse(textOf(await client.callTool({ name: 'ask_user', arguments: LATER })).split('\n')[1]!).requestId as string;
      const collected = client.callTool({ name: 'get_answers', arguments: { ids: [id], waitSeconds: 600 } });
      await new Promise((r) => setTimeout(r, 50));
      broker.reply(id, { db: { selected: ['PostgreSQL'], skipped: false } }, { by: 'user', where: 'panel' });
      assert.match(textOf(await collected), /db = "PostgreSQL"/);
      await client.close();
    }));

  test('the tool list has get_answers with its schema', () =>
    withEndpoint(async ({ endpoint }) => {
      const client = await connect(endpoint.url);
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'get_answers');
      assert.deepEqual(Object.keys(tool?.inputSchema.properties ?? {}), ['ids', 'waitSeconds']);
      assert.equal((tools.find((t) => t.name === 'ask_user')?.inputSchema.properties as Record<string, { type?: string }>).wait?.type, 'boolean');
      await client.close();
    }));
});
