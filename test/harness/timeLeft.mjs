// What is left of the running test's deadline, for the .mjs harness (the state deadline.ts keeps on
// globalThis); five minutes outside a test.
export function timeLeftMs() {
  return globalThis[Symbol.for('agent-questions.deadline')]?.remainingMs() ?? 5 * 60_000;
}
