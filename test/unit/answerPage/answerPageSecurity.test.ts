// What a link to the answer page must never allow. Each test is named after what it prevents; every
// refusal is the same 404, byte for byte, and leaves the request waiting.
import * as assert from 'node:assert/strict';
import { MAX_BODY_BYTES } from '../../../src/answerPage/answerPageServer';
import { askPermission, askQuestion, FORM, formFields, http, openPage, post, withPage, type Fixture, type Reply } from './answerPageHelpers';

/** The 404 anything without a valid capability gets: the same as for a path that does not exist. */
async function assertUniform404(f: Fixture, reply: Reply): Promise<void> {
  const unknown = await http(f.port, 'GET', '/nothing-here');
  assert.equal(reply.status, 404);
  assert.equal(reply.body, unknown.body);
  assert.equal(reply.headers['content-security-policy'], unknown.headers['content-security-policy']);
  assert.doesNotMatch(reply.body, /Which database|Copilot|npm test/);
}

suite('answer page: security', () => {
  test('no capability: the page reveals nothing, not even that a request waits', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      // A link exists, so a server that took "no capability" for any would show its request.
      assert.ok(f.server.linkFor(id));
      await assertUniform404(f, await http(f.port, 'GET', '/answer'));
      await assertUniform404(f, await http(f.port, 'GET', '/answer?c='));
      await assertUniform404(f, await post(f, { q0: '0' }));
      assert.ok(f.broker.get(id));
    });
  });

  test('a wrong capability (same shape, other bytes) opens nothing and answers nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const link = f.server.linkFor(id)!;
      const token = link.slice('/answer?c='.length);
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      const wrong = `${token.slice(0, -1)}${last}`;
      await assertUniform404(f, await http(f.port, 'GET', `/answer?c=${wrong}`));
      const { n } = await openPage(f, id);
      await assertUniform404(f, await post(f, { c: wrong, n, q0: '1' }));
      assert.ok(f.broker.get(id));
    });
  });

  test('a reused capability: the link that answered cannot answer or open again', async () => {
    await withPage(async (f) => {
      const { id, response } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      assert.equal((await post(f, { c, n, q0: '1' })).status, 200);
      assert.deepEqual((await response).answers, { db: { selected: ['Postgres'], skipped: false } });
      await assertUniform404(f, await post(f, { c, n, q0: '0' }));
      await assertUniform404(f, await http(f.port, 'GET', `/answer?c=${c}`));
    });
  });

  test('a capability whose request now shows other text opens nothing and answers nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      const request = f.broker.get(id)!;
      assert.equal(request.kind, 'questions');
      // What the link was made for is no longer what would be shown.
      if (request.kind === 'questions') request.questions[0]!.options[1]!.label = 'Drop all tables';
      await assertUniform404(f, await http(f.port, 'GET', `/answer?c=${c}`));
      await assertUniform404(f, await post(f, { c, n, q0: '1' }));
      assert.ok(f.broker.get(id));
    });
  });

  test('a capability after its request settled elsewhere opens nothing and changes nothing', async () => {
    await withPage(async (f) => {
      const { id, response } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      assert.equal((await http(f.port, 'GET', `/state?c=${c}&n=${n}`)).status, 204);
      f.broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
      await assertUniform404(f, await http(f.port, 'GET', `/state?c=${c}&n=${n}`));
      await assertUniform404(f, await http(f.port, 'GET', `/answer?c=${c}`));
      await assertUniform404(f, await post(f, { c, n, q0: '1' }));
      assert.deepEqual((await response).answers, { db: { selected: ['SQLite'], skipped: false } });
      assert.equal(f.server.liveLinks, 0);
    });
  });

  test('an expired capability opens nothing and answers nothing', async () => {
    await withPage(
      async (f) => {
        const { id } = askQuestion(f.broker);
        const { c, n } = await openPage(f, id);
        f.clock.now += 5000;
        await assertUniform404(f, await http(f.port, 'GET', `/answer?c=${c}`));
        await assertUniform404(f, await post(f, { c, n, q0: '1' }));
        assert.ok(f.broker.get(id));
      },
      { linkTtlMs: 5000 },
    );
  });

  test('a cross-origin POST (another site submitting the form) changes nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      await assertUniform404(f, await post(f, { c, n, q0: '1' }, { ...FORM, Origin: 'https://attacker.example' }));
      await assertUniform404(f, await post(f, { c, n, q0: '1' }, { ...FORM, Origin: 'null' }));
      await assertUniform404(f, await post(f, { c, n, q0: '1' }, { ...FORM, 'Sec-Fetch-Site': 'cross-site' }));
      assert.ok(f.broker.get(id));
      // The page's own origin (what the browser sends as Host) is accepted.
      assert.equal((await post(f, { c, n, q0: '1' }, { ...FORM, Origin: `http://127.0.0.1:${f.port}` })).status, 200);
    });
  });

  test('a POST of another content type (a cross-site "simple" text/plain request) changes nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      const body = new URLSearchParams({ c, n, q0: '1' }).toString();
      await assertUniform404(f, await http(f.port, 'POST', '/answer', { headers: { 'Content-Type': 'text/plain' }, body }));
      await assertUniform404(f, await http(f.port, 'POST', '/answer', { body }));
      assert.ok(f.broker.get(id));
    });
  });

  test('a link alone cannot answer: the POST must carry the nonce of a page opened with it', async () => {
    await withPage(async (f) => {
      const first = askQuestion(f.broker);
      const second = askQuestion(f.broker);
      const c = f.server.linkFor(first.id)!.slice('/answer?c='.length);
      await assertUniform404(f, await post(f, { c, q0: '1' }));
      const other = await openPage(f, second.id);
      await assertUniform404(f, await post(f, { c, n: other.n, q0: '1' }));
      assert.ok(f.broker.get(first.id));
    });
  });

  test('an oversized body is refused and changes nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      await assertUniform404(f, await post(f, { c, n, q0: 'other', 'q0-other': 'x'.repeat(MAX_BODY_BYTES) }));
      assert.ok(f.broker.get(id));
    });
  });

  test('the page inside a frame: every response forbids framing and sends the strict headers, no cookies', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { page, c, n } = await openPage(f, id);
      for (const reply of [page, await http(f.port, 'GET', '/answer'), await http(f.port, 'GET', `/state?c=${c}&n=${n}`), await post(f, { c, n, q0: '0' })]) {
        const csp = String(reply.headers['content-security-policy']);
        assert.match(csp, /(^|; )frame-ancestors 'none'(;|$)/);
        assert.match(csp, /^default-src 'none'/);
        assert.match(csp, /(^|; )base-uri 'none'(;|$)/);
        assert.doesNotMatch(csp, /unsafe|\*|https?:/);
        assert.equal(reply.headers['x-frame-options'], 'DENY');
        // The capability leaves in no Referer (same-origin: to the page's own server only; no-referrer would make the form post "Origin: null").
        assert.equal(reply.headers['referrer-policy'], 'same-origin');
        assert.equal(reply.headers['cache-control'], 'no-store');
        assert.equal(reply.headers['x-content-type-options'], 'nosniff');
        assert.equal(reply.headers['set-cookie'], undefined);
      }
      const csp = String(page.headers['content-security-policy']);
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      assert.ok(nonce);
      assert.match(csp, /form-action 'self'/);
      assert.match(page.body, new RegExp(`<script nonce="${nonce.replace(/[+/]/g, '\\$&')}">`));
      // Nothing loaded from elsewhere, and every URL the page uses is relative (it may sit under a proxy's path).
      assert.doesNotMatch(page.body, /<[^>]*\s(src|href)=/);
      assert.match(page.body, /<form method="post" action="answer"/);
    });
  });

  test('the server listens on the loopback address only', async () => {
    await withPage(async (f) => {
      const address = (f.server as unknown as { server: { address(): { address: string } } }).server.address();
      assert.equal(address.address, '127.0.0.1');
      assert.match(f.server.urlFor(askQuestion(f.broker).id)!, /^http:\/\/127\.0\.0\.1:\d+\/answer\?c=[A-Za-z0-9_-]{64}$/);
    });
  });

  test('a secret question offers no field: the page says to answer it in VS Code, and a POST cannot answer it', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker, {
        source: { type: 'tool', label: 'Copilot' },
        questions: [
          { id: 'key', header: 'API key', question: 'Your OpenAI key?', kind: 'secret', options: [], allowOther: false, envVar: 'OPENAI_API_KEY' },
          { id: 'why', header: 'Why', question: 'Anything else?', kind: 'text', options: [], allowOther: false },
        ],
      });
      const page = await http(f.port, 'GET', f.server.linkFor(id)!);
      assert.equal(page.status, 200);
      assert.match(page.body, /Answer it in VS Code/);
      assert.doesNotMatch(page.body, /<(input|textarea|form|button)\b/);
      assert.doesNotMatch(page.body, /<script/);
      assert.ok(f.broker.get(id));
    });
  });

  test('Always allow is not offered, and a posted allow_always remembers nothing and decides nothing', async () => {
    await withPage(async (f) => {
      const { id, response } = askPermission(f.broker);
      const { page, c, n } = await openPage(f, id);
      assert.doesNotMatch(page.body, /allow_always|Always/i);
      assert.deepEqual(
        [...page.body.matchAll(/name="decision" value="([^"]+)"/g)].map((m) => m[1]),
        ['allow_once', 'deny'],
      );
      const refused = await post(f, { c, n, decision: 'allow_always', rule: 'npm test' });
      assert.equal(refused.status, 400);
      assert.ok(f.broker.get(id));
      assert.equal((await post(f, { c, n, decision: 'allow_once' })).status, 200);
      assert.deepEqual(await response, { requestId: id, status: 'answered', decision: 'allow_once' });
    });
  });

  test('every refusal is the same response: status, headers that matter and bytes', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c } = await openPage(f, id);
      const replies = [
        await http(f.port, 'GET', '/'),
        await http(f.port, 'GET', `/answer?c=${c.slice(0, -2)}xx`),
        await http(f.port, 'PUT', `/answer?c=${c}`),
        await http(f.port, 'GET', `/state?c=${c}&n=wrong`),
        await post(f, { c, n: 'wrong' }),
      ];
      for (const reply of replies) {
        assert.equal(reply.status, 404);
        assert.equal(reply.body, replies[0]!.body);
        assert.equal(reply.headers['content-security-policy'], replies[0]!.headers['content-security-policy']);
      }
      assert.match(replies[0]!.body, /No longer waiting/);
      assert.ok(formFields((await openPage(f, id)).page.body));
    });
  });
});
