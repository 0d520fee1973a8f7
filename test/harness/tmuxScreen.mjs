// Waiting on a terminal program's screen (a tmux pane): for text to show, or for a pressed key to take
// effect. Both last until the running test's deadline.
import { timeLeftMs } from './timeLeft.mjs';

/** Not a deadline: how long a pressed key gets to take effect before it is pressed again. */
const KEY_AGAIN_AFTER_MS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The screen once it matches `pattern`; fails with the screen after `ms` (the test's deadline by default). */
export async function waitForScreen(screen, pattern, who, ms = timeLeftMs()) {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = screen();
    if (pattern.test(text)) return text;
    if (Date.now() >= deadline) throw new Error(`waited until the test's deadline (${ms} ms): the ${who} screen did not show ${pattern}; it shows:\n${text}`);
    await sleep(200);
  }
}

/**
 * Presses `key` until the screen shows `pattern`, its effect. A key pressed while a program is still
 * drawing its first screen can be lost, so it is pressed again if nothing shows for a while; use it
 * only where one press too many does no harm (Enter on an empty prompt) or is seen in `pattern`.
 */
export async function pressUntil(press, screen, key, pattern, who) {
  const deadline = Date.now() + timeLeftMs();
  let text = '';
  for (;;) {
    press(key);
    const again = Math.min(Date.now() + KEY_AGAIN_AFTER_MS, deadline);
    do {
      text = screen();
      if (pattern.test(text)) return text;
      await sleep(200);
    } while (Date.now() < again);
    if (Date.now() >= deadline) throw new Error(`waited until the test's deadline: pressing ${key}, the ${who} screen did not show ${pattern}; it shows:\n${text}`);
  }
}
