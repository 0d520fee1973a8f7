// Timestamps for `npm run bench` only. Off until the bench's test driver turns it on (through the
// internal probe command); until then a mark costs one check. Activation is always timed: two Date.now().
export interface TraceMark {
  name: string;
  at: number;
}

let marks: TraceMark[] | undefined;

/** When activate() was entered and returned (host clock), and how long it ran (ms, sub-millisecond). */
export const activation = { enteredAt: 0, returnedAt: 0, ms: 0 };

export function mark(name: string): void {
  if (marks && marks.length < 1000) marks.push({ name, at: Date.now() });
}

/** Turns marking on (or off), and hands over the marks gathered so far. */
export function takeMarks(keepOn: boolean): TraceMark[] {
  const taken = marks ?? [];
  marks = keepOn ? [] : undefined;
  return taken;
}
