// Types for the OpenCode / Codex CLI harness, so TypeScript tests can use it.
export const OPENCODE_VERSION: string;
export const CODEX_VERSION: string;
export function provisionOpenCode(): string;
export function provisionCodex(): string;
export function runCli(exe: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<string>;
