import * as assert from 'node:assert/strict';
import { mayStart, runJobs, type Job } from '../../harness/scheduler.mjs';

suite('npm test: how many layers run side by side', () => {
  const machine = { slots: 2, cores: 2 };

  test('one busy layer per core: a third waits for a free slot, however quiet the machine', () => {
    assert.equal(mayStart({ ...machine, waits: false, busy: 1, waiting: 0, load: 0.5 }), true);
    assert.equal(mayStart({ ...machine, waits: false, busy: 2, waiting: 0, load: 0.5 }), false);
  });

  test('no layer starts while the 1-minute load is above twice the cores, not even one that mostly waits', () => {
    assert.equal(mayStart({ ...machine, waits: false, busy: 1, waiting: 0, load: 4.1 }), false);
    assert.equal(mayStart({ ...machine, waits: true, busy: 1, waiting: 1, load: 4.1 }), false);
    assert.equal(mayStart({ ...machine, waits: false, busy: 1, waiting: 0, load: 4 }), true);
  });

  test('a layer that mostly waits takes no slot', () => {
    assert.equal(mayStart({ ...machine, waits: true, busy: 2, waiting: 1, load: 1 }), true);
  });

  test("with none of ours running, the next layer starts whatever the load: the machine's other work slows the suite, never stops it", () => {
    assert.equal(mayStart({ ...machine, waits: false, busy: 0, waiting: 0, load: 40 }), true);
  });

  test('runJobs never runs more busy layers than slots, waits while the load is high, and returns results in the order of the jobs', async () => {
    let load = 0;
    let running = 0;
    let most = 0;
    const lines: string[] = [];
    const job = (key: string, ms: number, loadWhileRunning = load): Job<string> => ({
      key,
      waits: false,
      start: async () => {
        most = Math.max(most, ++running);
        load = loadWhileRunning;
        await new Promise((r) => setTimeout(r, ms));
        load = 0;
        running--;
        return key;
      },
    });
    // The first layer drives the load above twice the cores while it runs: that holds the second back.
    const jobs = [job('a', 60, 5), job('b', 60), job('c', 20)];
    const results = await runJobs(jobs, { cores: 2, slots: 2, load: () => load, spacingMs: 0, pollMs: 5, log: (line) => lines.push(line) });
    assert.deepEqual(results, ['a', 'b', 'c']);
    assert.ok(most <= 2, `${most} ran at once`);
    assert.ok(
      lines.some((line) => /b waits: the 1-minute load is 5\.0, above 4/.test(line)),
      lines.join('\n'),
    );
  });

  test('a layer that throws ends as no result, and the others still run', async () => {
    const results = await runJobs(
      [
        { key: 'broken', waits: false, start: () => Promise.reject(new Error('no browser')) },
        { key: 'fine', waits: false, start: async () => 'ok' },
      ],
      { cores: 1, slots: 1, load: () => 0, spacingMs: 0, pollMs: 5, log: () => undefined },
    );
    assert.deepEqual(results, [undefined, 'ok']);
  });
});
