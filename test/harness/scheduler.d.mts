// Types for test/harness/scheduler.mjs, so the unit tests can use it.
export function mayStart(state: { waits: boolean; busy: number; waiting: number; slots: number; cores: number; load: number }): boolean;

export interface Job<T> {
  key: string;
  /** A layer that mostly waits (takes no slot). */
  waits: boolean;
  start(): Promise<T>;
}

export function runJobs<T>(
  jobs: Job<T>[],
  options?: { cores?: number; slots?: number; load?: () => number; spacingMs?: number; pollMs?: number; log?: (line: string) => void },
): Promise<(T | undefined)[]>;
