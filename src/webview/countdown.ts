// The countdown to a request's expiry: its text, when to announce it, and the ticking itself.
// DOM-free (the clock is passed in), so it is unit-tested in Node.
import { t } from './l10n';

/** Remaining times at which the live region speaks, largest first. */
export const COUNTDOWN_THRESHOLDS_MS = [60_000, 10_000] as const;

/** "4:32", or "1:02:03" past an hour; whole seconds, rounded up so "0:00" means the time is up. */
export function formatRemaining(remainingMs: number): string {
  const total = Math.max(0, Math.ceil(remainingMs / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export function countdownText(remainingMs: number): string {
  return remainingMs > 0 ? t('Times out in {0}', formatRemaining(remainingMs)) : t('Timing out…');
}

/** The last minute is shown as a warning. */
export const isCountdownWarning = (remainingMs: number): boolean => remainingMs <= COUNTDOWN_THRESHOLDS_MS[0];

/** What to announce when the remaining time passes a threshold between two ticks (the smallest one passed), else nothing. */
export function thresholdAnnouncement(previousMs: number, currentMs: number): string | undefined {
  const passed = COUNTDOWN_THRESHOLDS_MS.filter((t) => previousMs > t && currentMs <= t).at(-1);
  if (passed === undefined) return undefined;
  return passed === 60_000 ? t('One minute left to answer.') : t('{0} seconds left to answer.', passed / 1000);
}

export interface CountdownTick {
  text: string;
  warning: boolean;
  remainingMs: number;
}

export interface CountdownClock {
  /** The host's clock (ms since the epoch): the expiry is on that clock. */
  now(): number;
  /** Runs `callback` once after `ms`; returns a function that cancels it. */
  after(ms: number, callback: () => void): () => void;
}

/**
 * Calls `onTick` now and at every whole second of the remaining time until it runs out, and
 * `announce` when a threshold is passed (not for thresholds already behind when it starts).
 * Returns the function that stops it.
 */
export function startCountdown(expiresAt: number, clock: CountdownClock, onTick: (tick: CountdownTick) => void, announce: (text: string) => void): () => void {
  let previous = expiresAt - clock.now();
  let cancel: (() => void) | undefined;
  const tick = () => {
    const remainingMs = expiresAt - clock.now();
    const announcement = thresholdAnnouncement(previous, remainingMs);
    previous = remainingMs;
    onTick({ text: countdownText(remainingMs), warning: isCountdownWarning(remainingMs), remainingMs });
    if (announcement) announce(announcement);
    // The host settles the request when the time is up; the panel then shows its notice.
    if (remainingMs <= 0) return (cancel = undefined);
    // Wake at the next whole second of the remaining time, so the shown seconds never skip or stall.
    cancel = clock.after(remainingMs % 1000 || 1000, tick);
  };
  tick();
  return () => {
    cancel?.();
    cancel = undefined;
  };
}
