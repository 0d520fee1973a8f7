import * as assert from 'node:assert/strict';
import { PreparedCalls } from '../../../../src/broker/questions/preparedCalls';

/** Prepared calls on a hand-driven clock: `fire()` runs the timers that are due by `now`. */
function make(max?: number) {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const withdrawn: string[] = [];
  const calls = new PreparedCalls({
    holdMs: 1000,
    newId: () => `p${++next}`,
    withdraw: (id) => withdrawn.push(id),
    ...(max ? { max } : {}),
    setTimer: (callback, ms) => {
      const id = ++next;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimer: (timer) => timers.delete(timer as number),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.callback();
    }
  };
  return { calls, withdrawn, timers, advance };
}

const INPUT = { questions: [{ id: 'db', header: 'DB', question: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }] };
/** What invoke receives: its own copy of the same input. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

suite('PreparedCalls (a question shown at prepareInvocation, taken over by invoke)', () => {
  test('invoke with the same input claims the prepared call: nothing is withdrawn, no timer is left', () => {
    const { calls, withdrawn, timers, advance } = make();
    const previewId = calls.prepare(INPUT, 'chat:a');
    assert.equal(calls.claim(copy(INPUT), 'chat:a'), previewId);
    advance(5000);
    assert.deepEqual(withdrawn, []);
    assert.equal(timers.size, 0);
    assert.equal(calls.size, 0);
  });

  test('a prepared call never invoked is withdrawn once its hold time passes, and cannot be claimed after', () => {
    const { calls, withdrawn, advance } = make();
    const previewId = calls.prepare(INPUT, 'chat:a');
    advance(999);
    assert.deepEqual(withdrawn, []);
    advance(1);
    assert.deepEqual(withdrawn, [previewId]);
    assert.equal(calls.claim(copy(INPUT), 'chat:a'), undefined);
  });

  test('invoke claims the call from its own chat first, then any with the same input; a different input claims nothing', () => {
    const { calls } = make();
    const fromA = calls.prepare(INPUT, 'chat:a');
    const fromB = calls.prepare(INPUT, 'chat:b');
    assert.equal(calls.claim({ ...INPUT, context: 'other' }, 'chat:b'), undefined);
    assert.equal(calls.claim(copy(INPUT), 'chat:b'), fromB);
    // The session's form is VS Code's detail: an unknown one still finds the call by its input.
    assert.equal(calls.claim(copy(INPUT), ''), fromA);
    assert.equal(calls.claim(copy(INPUT), 'chat:a'), undefined);
  });

  test('each prepared call is claimed once: two identical calls need two invocations', () => {
    const { calls, withdrawn, advance } = make();
    const first = calls.prepare(INPUT, 'chat:a');
    const second = calls.prepare(INPUT, 'chat:a');
    assert.equal(calls.claim(INPUT, 'chat:a'), first);
    advance(1000);
    assert.deepEqual(withdrawn, [second]);
  });

  test('past the cap the oldest is withdrawn at once; dispose stops every timer without withdrawing', () => {
    const { calls, withdrawn, timers } = make(2);
    const first = calls.prepare(INPUT, 'chat:a');
    calls.prepare({ ...INPUT, context: '2' }, 'chat:a');
    calls.prepare({ ...INPUT, context: '3' }, 'chat:a');
    assert.deepEqual(withdrawn, [first]);
    assert.equal(calls.size, 2);
    calls.dispose();
    assert.equal(timers.size, 0);
    assert.equal(calls.size, 0);
    assert.deepEqual(withdrawn, [first]);
  });
});
