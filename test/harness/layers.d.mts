// Types for test/harness/layers.mjs, so the unit tests can use it.
export const LAYERS: readonly string[];
export interface LayerChoice {
  files: string[];
  except: boolean;
}
export function parseArguments(args: readonly string[]): { layers: string[]; choices: Record<string, LayerChoice> };
export function parseLayers(args: readonly string[]): string[];
export function choiceArgs(choice: LayerChoice | undefined): string[];
export function emptyReason(result: { passed: number; failed: number; pending: number; crashed?: boolean }, grep: string | undefined): string | undefined;
