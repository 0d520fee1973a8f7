// One deadline per test: every wait in a test (a page, a request in the panel, a process, a file)
// waits for its condition until the running test's (or hook's) own mocha deadline, and then fails
// naming the step it was waiting for. A busy machine makes a test slower, not red.
import type Mocha from 'mocha';

/** Left for the report when a wait gives up at the deadline (and for mocha's own timeout message). */
const MARGIN_MS = 3000;
/** Outside a test or hook (set-up code run directly), a wait still ends. */
const OUTSIDE_A_TEST_MS = 5 * 60_000;

// Each test file is its own bundle with its own copy of this module: the state lives on globalThis,
// where the runner's copy writes it and every test's copy (and the .mjs harness) reads it.
interface DeadlineState {
  running?: { runnable: Mocha.Runnable; startedAt: number };
  step?: string;
  remainingMs: () => number;
}
const state: DeadlineState = ((globalThis as Record<symbol, unknown>)[Symbol.for('agent-questions.deadline')] ??= { remainingMs: () => remainingMs() }) as DeadlineState;

/** Called by the mocha runner (mochaSuite.ts) as each test or hook starts. */
export function startRunnable(runnable: Mocha.Runnable): void {
  state.running = { runnable, startedAt: Date.now() };
  state.step = undefined;
}

/** When the running test or hook times out; read each time, since a test sets its own with this.timeout() as it starts. */
function deadlineAt(): number {
  const running = state.running;
  if (!running) return Date.now() + OUTSIDE_A_TEST_MS;
  const timeout = running.runnable.timeout();
  // mocha's "no timeout" is 0 (or a huge number when disabled).
  return timeout > 0 && timeout < 2 ** 31 ? running.startedAt + timeout : Infinity;
}

/** Milliseconds the current wait may take: what is left of the test's deadline, less a margin for the report. */
export function remainingMs(): number {
  const left = deadlineAt() - Date.now() - MARGIN_MS;
  return Math.max(1000, Math.min(left, 2 ** 31 - 1));
}

/** Records what the test is waiting for now, so a timeout can say so. */
export function step(what: string): void {
  state.step = what;
}

/** The step the test was at, for mocha's timeout message. */
export function lastStep(): string | undefined {
  return state.step;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `check` returns something truthy (and resolves with it), polling every `everyMs`;
 * at the test's deadline it throws "<what> did not happen", with the last error `check` threw.
 */
export async function until<T>(what: string, check: () => T | Promise<T>, { everyMs = 200 }: { everyMs?: number } = {}): Promise<NonNullable<T>> {
  step(what);
  const giveUpAt = Date.now() + remainingMs();
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= giveUpAt) {
      const detail = lastError === undefined ? '' : `; last: ${String(lastError instanceof Error ? lastError.message : lastError).split('\n')[0]}`;
      throw new Error(`waited until the test's deadline: ${what} did not happen${detail}`);
    }
    await pause(everyMs);
  }
}

interface TimedPage {
  setDefaultTimeout(ms: number): void;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Keeps a browser page's default timeout at what is left of the running test's deadline (less the
 * margin), so a click or wait that never happens fails as Playwright's own error, naming its locator,
 * just before the test's deadline — never earlier because the machine is busy.
 */
export function followDeadline(page: TimedPage): void {
  const update = () => page.setDefaultTimeout(remainingMs());
  update();
  const timer = setInterval(update, 500);
  timer.unref();
  page.once('close', () => clearInterval(timer));
}

/**
 * A deliberate pause before asserting that something did NOT happen (a click that must not answer, a
 * key that must be ignored): a busy machine can only make such a check weaker, never fail it. Never
 * a wait for something to happen: that is until(), or a locator's wait.
 */
export function quietFor(ms: number): Promise<void> {
  return pause(ms);
}
