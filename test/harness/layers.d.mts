// Types for test/harness/layers.mjs, so the unit tests can use it.
export const LAYERS: readonly string[];
export function parseLayers(args: readonly string[]): string[];
export function emptyReason(result: { passed: number; failed: number; pending: number; crashed?: boolean }, grep: string | undefined): string | undefined;
