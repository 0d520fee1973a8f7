import * as assert from 'node:assert/strict';
import { countdownText, formatRemaining, isCountdownWarning, startCountdown, thresholdAnnouncement, type CountdownClock } from '../../../src/webview/countdown';

/** A clock the test moves by hand; `after` callbacks run when their time comes. */
function manualClock(start: number) {
  let now = start;
  let timers: Array<{ at: number; callback: () => void; cancelled: boolean }> = [];
  const clock: CountdownClock = {
    now: () => now,
    after(ms, callback) {
      const timer = { at: now + ms, callback, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
  };
  return {
    clock,
    /** Moves on by `ms`, running each due timer at its own time. */
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => !t.cancelled && t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.callback();
      }
      now = end;
    },
    pending: () => timers.filter((t) => !t.cancelled).length,
  };
}

suite('request countdown', () => {
  test('formats whole seconds rounded up, minutes and hours', () => {
    assert.equal(formatRemaining(272_000), '4:32');
    assert.equal(formatRemaining(271_001), '4:32');
    assert.equal(formatRemaining(60_000), '1:00');
    assert.equal(formatRemaining(9_500), '0:10');
    assert.equal(formatRemaining(1), '0:01');
    assert.equal(formatRemaining(0), '0:00');
    assert.equal(formatRemaining(-5_000), '0:00');
    assert.equal(formatRemaining(3_723_000), '1:02:03');
    assert.equal(countdownText(272_000), 'Times out in 4:32');
    assert.equal(countdownText(0), 'Timing out…');
  });

  test('the last minute is a warning', () => {
    assert.equal(isCountdownWarning(60_001), false);
    assert.equal(isCountdownWarning(60_000), true);
    assert.equal(isCountdownWarning(3_000), true);
  });

  test('announces only when a threshold is passed', () => {
    assert.equal(thresholdAnnouncement(61_000, 60_000), 'One minute left to answer.');
    assert.equal(thresholdAnnouncement(11_000, 10_000), '10 seconds left to answer.');
    assert.equal(thresholdAnnouncement(60_000, 59_000), undefined, 'already past');
    assert.equal(thresholdAnnouncement(120_000, 119_000), undefined);
    assert.equal(thresholdAnnouncement(70_000, 5_000), '10 seconds left to answer.', 'two at once: the nearer one');
  });

  test('ticks every second on the host clock, speaks at 1 minute and 10 seconds, and stops at zero', () => {
    const expiresAt = 1_000_000 + 75_500;
    const { clock, advance, pending } = manualClock(1_000_000);
    const texts: string[] = [];
    const warnings: boolean[] = [];
    const spoken: string[] = [];
    startCountdown(
      expiresAt,
      clock,
      (t) => (texts.push(t.text), warnings.push(t.warning)),
      (s) => spoken.push(s),
    );
    assert.deepEqual(texts, ['Times out in 1:16']);
    advance(500);
    assert.equal(texts.at(-1), 'Times out in 1:15', 'the first wake-up lands on the whole second');
    advance(15_000);
    assert.equal(texts.at(-1), 'Times out in 1:00');
    assert.deepEqual(spoken, ['One minute left to answer.']);
    assert.equal(warnings.at(-1), true);
    assert.equal(warnings.at(-2), false);
    advance(50_000);
    assert.equal(texts.at(-1), 'Times out in 0:10');
    assert.deepEqual(spoken, ['One minute left to answer.', '10 seconds left to answer.']);
    advance(20_000);
    assert.equal(texts.at(-1), 'Timing out…');
    assert.equal(pending(), 0, 'no timer left once the time is up');
    const shown = texts.filter((t) => t.startsWith('Times out in'));
    assert.equal(new Set(shown).size, shown.length, 'every second shown once, none repeated');
    assert.equal(shown.length, 76);
  });

  test('thresholds already behind at the start are not announced; stopping cancels the timer', () => {
    const { clock, advance, pending } = manualClock(0);
    const spoken: string[] = [];
    const texts: string[] = [];
    const stop = startCountdown(
      30_000,
      clock,
      (t) => texts.push(t.text),
      (s) => spoken.push(s),
    );
    assert.deepEqual(spoken, []);
    assert.equal(pending(), 1);
    stop();
    assert.equal(pending(), 0);
    advance(30_000);
    assert.deepEqual(texts, ['Times out in 0:30'], 'nothing ticks after stop');
  });
});
