// 1,000 random interleavings of ask / reply / reject / cancel / timeout / dispose:
// each request settles exactly once, with the status of the first settling action, and 0 are left.
import * as assert from 'node:assert/strict';
import type { QuestionResponse } from '../../../src/broker/contract/schemas';
import { cancellation, DB_QUESTION, makeBroker } from '../helpers/fakes';
import { seededRandom } from '../helpers/random';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

suite('race: random interleavings', () => {
  test('1,000 interleavings: every request settles exactly once and nothing is left', async function () {
    this.timeout(120_000);
    const random = seededRandom(42);
    let requests = 0;
    for (let round = 0; round < 1000; round++) {
      const { broker } = makeBroker();
      const settledCount = new Map<string, number>();
      const settledStatus = new Map<string, string>();
      broker.onDidChange((c) => {
        if (c.type !== 'settled') return;
        settledCount.set(c.request.id, (settledCount.get(c.request.id) ?? 0) + 1);
        settledStatus.set(c.request.id, c.response.status);
      });
      const calls: Array<{ token: ReturnType<typeof cancellation>; response: Promise<QuestionResponse> }> = [];
      const resolvedTimes = new Map<number, number>();
      const steps = 5 + random.int(20);
      for (let step = 0; step < steps; step++) {
        const ids = [...broker.list().map((r) => r.id), `r${1 + random.int(calls.length + 2)}`];
        const id = random.pick(ids);
        switch (random.int(8)) {
          case 0:
          case 1: {
            const token = cancellation();
            const index = calls.length;
            const response = broker.ask(DB_QUESTION, { token, timeoutMs: random.chance(0.4) ? 1 + random.int(3) : 0 });
            void response.then(() => resolvedTimes.set(index, (resolvedTimes.get(index) ?? 0) + 1));
            calls.push({ token, response });
            break;
          }
          case 2:
            broker.reply(id, { db: { selected: [random.pick(['A', 'B', 'Z'])], skipped: false } }, { by: 'user', where: 'panel' });
            break;
          case 3:
            broker.reject(id, { by: 'user', where: 'panel' }, 'no');
            break;
          case 4:
            broker.cancel(id, { by: 'asker' });
            break;
          case 5:
            if (calls.length) random.pick(calls).token.cancel();
            break;
          case 6:
            await tick();
            break;
          default:
            await new Promise((r) => setTimeout(r, random.int(3)));
        }
      }
      if (random.chance(0.5)) broker.dispose();
      else for (const request of broker.list()) broker.cancel(request.id, { by: 'asker' });
      const responses = await Promise.all(calls.map((c) => c.response));
      await tick();
      requests += calls.length;
      assert.equal(broker.size, 0, `round ${round}`);
      for (const [index, response] of responses.entries()) {
        assert.equal(settledCount.get(response.requestId), 1, `round ${round}: ${response.requestId} settled ${settledCount.get(response.requestId)} times`);
        assert.equal(settledStatus.get(response.requestId), response.status);
        assert.equal(resolvedTimes.get(index), 1);
        if (response.status === 'answered') assert.ok(['A', 'B'].includes(response.answers!.db!.selected[0]!));
        else assert.equal(response.answers, undefined);
      }
    }
    assert.ok(requests > 2000, `${requests} requests exercised`);
  });
});
