// Issue 41: a page reached under another name (DNS rebinding: evil.example resolving to 127.0.0.1)
// is not the answer page. Host and Origin must name the loopback address and the page's port, or a
// forwarder VS Code gave; the form's POST must be a navigation where the browser says so.
import * as assert from 'node:assert/strict';
import { askQuestion, FORM, http, openPage, post, withPage, type Fixture } from './answerPageHelpers';

const formAnswer = async (f: Fixture, id: string, headers: Record<string, string>) => {
  const { c, n } = await openPage(f, id);
  return post(f, { c, n, q0: '1' }, { ...FORM, ...headers });
};

suite('answer page: rebinding', () => {
  test('prevents a rebound name from opening the page: a foreign Host gets the uniform 404', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const link = f.server.linkFor(id)!;
      const reply = await http(f.port, 'GET', link, { headers: { Host: `evil.example:${f.port}` } });
      assert.equal(reply.status, 404);
      assert.doesNotMatch(reply.body, /Which database/);
      for (const host of [`127.0.0.1:${f.port}`, `localhost:${f.port}`, `[::1]:${f.port}`])
        assert.equal((await http(f.port, 'GET', f.server.linkFor(id)!, { headers: { Host: host } })).status, 200, host);
      assert.equal((await http(f.port, 'GET', f.server.linkFor(id)!, { headers: { Host: `127.0.0.1:${f.port + 1}` } })).status, 404);
    });
  });

  test('prevents a rebound page from answering: a POST whose Host and Origin both name evil.example changes nothing', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const reply = await formAnswer(f, id, { Host: `evil.example:${f.port}`, Origin: `http://evil.example:${f.port}` });
      assert.equal(reply.status, 404);
      assert.ok(f.broker.get(id), 'the request still waits');
    });
  });

  test("prevents a same-origin script's fetch from answering: a POST that the browser marks as not a navigation changes nothing", async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const origin = `http://127.0.0.1:${f.port}`;
      assert.equal((await formAnswer(f, id, { Origin: origin, 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' })).status, 404);
      assert.equal((await formAnswer(f, id, { Origin: origin, 'Sec-Fetch-Mode': 'same-origin' })).status, 404);
      assert.ok(f.broker.get(id), 'the request still waits');
      // The form itself: a navigation to a document.
      assert.equal((await formAnswer(f, id, { Origin: origin, 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Sec-Fetch-Site': 'same-origin' })).status, 200);
    });
  });

  test("a forwarder's origin VS Code gave is accepted as Host and Origin", async () => {
    await withPage(
      async (f) => {
        const { id } = askQuestion(f.broker);
        const reply = await formAnswer(f, id, { Host: 'forwarded.example:8443', Origin: 'https://forwarded.example:8443' });
        assert.equal(reply.status, 200);
        assert.equal(f.broker.get(id), undefined);
      },
      { allowedOrigins: ['https://forwarded.example:8443'] },
    );
  });
});
