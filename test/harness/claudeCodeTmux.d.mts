// Types for the plain-JavaScript harness, so TypeScript tests can use it.
export interface InteractiveClaude {
  /** The scratch folder (HOME and project), removed on close unless AGENT_QUESTIONS_KEEP=1. */
  dir: string;
  /** The folder Claude Code runs in. */
  project: string;
  /** What the terminal shows now. */
  screen(): string;
  type(text: string): void;
  press(key: string): void;
  /** Presses `key` (again if nothing shows for a while) until the screen matches `pattern`; resolves with the screen, rejects at the test's deadline. */
  pressUntil(key: string, pattern: RegExp): Promise<string>;
  /** Resolves with the screen once it matches; rejects with the screen at the test's deadline (or after `ms`). */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves once Claude Code shows its prompt, ready for typing (until the test's deadline, or `ms`). */
  ready(ms?: number): Promise<string>;
  /** Types `text` and presses Enter until the scripted model has received it; fails with the screen at the test's deadline. */
  prompt(text: string, model: { received: Array<{ body: { messages?: unknown[] } }> }): Promise<void>;
  /** Ends the session and its hooks; removes the scratch folder once Claude Code has exited (or at the test's deadline). */
  close(): Promise<void>;
}

export function startInteractiveClaude(options: {
  modelUrl: string;
  env?: Record<string, string>;
  projectFiles?: Record<string, string>;
  /** Servers of the project's .mcp.json approved beforehand (no "use this server?" dialog). */
  enabledMcpjsonServers?: string[];
  columns?: number;
  rows?: number;
  /** The folder to run in (a VS Code workspace, say) instead of a scratch one; it is not removed on close. */
  project?: string;
}): InteractiveClaude;

/** The lines of a handed-out configuration text under its `// <file>` heading, up to the next blank line. */
export function configSection(text: string, heading: string): string;
