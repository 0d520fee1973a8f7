// First answer wins: the panel (broker.reply), or the agent giving up, and the page (an HTTP POST) settle the same request,
// 1,000 times, the panel's reply at a random moment while the page's POST is on its way.
import * as assert from 'node:assert/strict';
import type { QuestionResponse } from '../../../src/broker/contract/schemas';
import { seededRandom } from '../helpers/random';
import { askQuestion, openPage, post, withPage } from './answerPageHelpers';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

suite('answer page: first answer wins', () => {
  test("panel and page answering the same request 1,000 times settle it exactly once each time, with the winner's answer", async function () {
    this.timeout(120_000);
    await withPage(async (f) => {
      const random = seededRandom(34);
      const settled = new Map<string, number>();
      f.broker.onDidChange((change) => {
        if (change.type === 'settled') settled.set(change.request.id, (settled.get(change.request.id) ?? 0) + 1);
      });
      const wins = { page: 0, panel: 0 };
      for (let round = 0; round < 1000; round++) {
        const { id, response } = askQuestion(f.broker);
        let resolved = 0;
        void response.then(() => resolved++);
        const { c, n } = await openPage(f, id);
        const page = post(f, { c, n, q0: '1' });
        let panelWon = false;
        const panel = (async () => {
          for (let i = random.int(6); i > 0; i--) await tick();
          panelWon = f.broker.reply(id, { db: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' });
        })();
        const [reply] = await Promise.all([page, panel]);
        const answer: QuestionResponse = await response;
        assert.equal(settled.get(id), 1, `round ${round}: settled once`);
        assert.equal(resolved, 1);
        if (panelWon) {
          wins.panel++;
          assert.equal(reply.status, 404, `round ${round}: the page lost and says so`);
          assert.match(reply.body, /No longer waiting/);
          assert.deepEqual(answer.answers, { db: { selected: ['SQLite'], skipped: false } });
        } else {
          wins.page++;
          assert.equal(reply.status, 200, `round ${round}: the page won`);
          assert.match(reply.body, /Answered/);
          assert.deepEqual(answer.answers, { db: { selected: ['Postgres'], skipped: false } });
        }
      }
      assert.equal(f.broker.size, 0);
      assert.equal(f.server.liveLinks, 0);
      // Both sides won sometimes, so both orders were exercised.
      assert.ok(wins.page > 50 && wins.panel > 50, JSON.stringify(wins));
    });
  });

  test('page and agent (it stops waiting) racing 200 times: settled once, the page says so when the agent went first', async function () {
    this.timeout(60_000);
    await withPage(async (f) => {
      const random = seededRandom(35);
      const settled = new Map<string, number>();
      f.broker.onDidChange((change) => {
        if (change.type === 'settled') settled.set(change.request.id, (settled.get(change.request.id) ?? 0) + 1);
      });
      for (let round = 0; round < 200; round++) {
        const { id, response } = askQuestion(f.broker);
        const { c, n } = await openPage(f, id);
        const page = post(f, { c, n, q0: '1' });
        let agentFirst = false;
        const agent = (async () => {
          for (let i = random.int(6); i > 0; i--) await tick();
          agentFirst = f.broker.cancel(id, { by: 'asker' }, 'The asker cancelled before the user answered.');
        })();
        const [reply] = await Promise.all([page, agent]);
        const answer = await response;
        assert.equal(settled.get(id), 1, `round ${round}: settled once`);
        assert.equal(answer.status, agentFirst ? 'cancelled' : 'answered');
        assert.equal(reply.status, agentFirst ? 404 : 200);
      }
    });
  });
});
