// Issue 41: after the page restarted (turned off and on, a window reload, a linkMinutes change) it
// listened on a new port, so an old link reached code-server's raw "500 ECONNREFUSED", or whatever
// program bound the freed port next. The page now comes back on its last port (kept in the window's
// storage), where an old link gets the page's own "No longer waiting"; only a port taken meanwhile
// gives it a new one.
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { QuestionBroker } from '../../../src/broker/broker';
import { renderMarkdownTree } from '../../../src/broker/markdown/markdownRender';
import { AnswerPageServer, type PortMemory } from '../../../src/answerPage/answerPageServer';
import { askQuestion, http } from './answerPageHelpers';

/** The window's storage, as VS Code's workspaceState keeps it across a reload. */
const windowStorage = (initial?: unknown): PortMemory & { value: unknown } => ({
  value: initial,
  get() {
    return this.value;
  },
  set(port: number) {
    this.value = port;
  },
});

async function withBroker(run: (broker: QuestionBroker, pages: AnswerPageServer[]) => Promise<void>): Promise<void> {
  let next = 0;
  const broker = new QuestionBroker({ newId: () => `r${++next}` });
  const pages: AnswerPageServer[] = [];
  try {
    await run(broker, pages);
  } finally {
    for (const page of pages) {
      page.dispose();
      await page.stop();
    }
    broker.dispose();
  }
}

const newPage = (broker: QuestionBroker, pages: AnswerPageServer[], lastPort: PortMemory) => {
  const page = new AnswerPageServer(broker, { linkTtlMs: 60_000, renderMarkdown: renderMarkdownTree, lastPort });
  pages.push(page);
  return page;
};

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });

suite('answer page: restart', () => {
  test('prevents an old link after a restart from reaching a refused connection or another program: the page comes back on its port and says "No longer waiting"', async () => {
    await withBroker(async (broker, pages) => {
      const storage = windowStorage();
      const { id } = askQuestion(broker);
      const before = newPage(broker, pages, storage);
      const port = await before.start();
      const oldLink = before.linkFor(id)!;
      assert.equal((await http(port, 'GET', oldLink)).status, 200);
      await before.stop();

      const after = newPage(broker, pages, storage);
      assert.equal(await after.start(), port, 'the restarted page listens on its last port');
      // A new connection, as a phone opening the old link makes (the helper's pooled one died with the old page).
      const reply = await fetch(`http://127.0.0.1:${port}${oldLink}`);
      assert.equal(reply.status, 404);
      assert.match(await reply.text(), /No longer waiting/);
      assert.ok(broker.get(id), 'the request still waits');
      assert.equal((await fetch(`http://127.0.0.1:${port}${after.linkFor(id)!}`)).status, 200, 'a new link works');
    });
  });

  test('a last port another program took meanwhile: the page takes a new one and remembers it', async () => {
    await withBroker(async (broker, pages) => {
      const taken = await listenOn(0);
      try {
        const takenPort = (taken.address() as { port: number }).port;
        const storage = windowStorage(takenPort);
        const port = await newPage(broker, pages, storage).start();
        assert.notEqual(port, takenPort);
        assert.equal(storage.value, port);
      } finally {
        taken.close();
      }
    });
  });

  test('a kept value that is not a port is ignored', async () => {
    await withBroker(async (broker, pages) => {
      for (const kept of ['8080', 70_000, -1, 1.5, null]) {
        const storage = windowStorage(kept);
        const port = await newPage(broker, pages, storage).start();
        assert.ok(port > 0 && port !== kept, String(kept));
        assert.equal(storage.value, port);
      }
    });
  });
});
