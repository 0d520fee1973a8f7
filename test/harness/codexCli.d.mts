// Types for the Codex CLI harness, so TypeScript tests can use it.
import type { ChildProcess } from 'node:child_process';

export function providerToml(modelUrl: string): string;

export interface CodexRun {
  child: ChildProcess;
  /** Resolves when the CLI exits; `code` is null when a signal ended it. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** `done`; a run still going at the test's deadline is killed, and this rejects with its output. */
  finished(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** SIGKILL to the whole CLI (the Node launcher and the native binary). */
  kill(): void;
  /** The scratch HOME, outside the temp dir; CODEX_HOME is its .codex (removed after exit unless AGENT_QUESTIONS_KEEP=1). */
  dir: string;
  /** The working directory the CLI runs in. */
  cwd: string;
}

export interface CodexOptions {
  /** The config.toml text under test; the scripted provider's table is appended. */
  config: string;
  /** The scripted model's base URL (ending in /v1). */
  modelUrl: string;
  extraEnv?: Record<string, string>;
  flags?: string[];
  /** The working directory (default: a scratch folder in the temp dir, outside any git repository, removed with the HOME). */
  cwd?: string;
}

export function runCodexExec(options: CodexOptions & { prompt: string }): CodexRun;

export interface CodexTui {
  cwd: string;
  screen(): string;
  /** Types the text literally. */
  type(text: string): void;
  /** Types a prompt, waits a moment and presses Enter. */
  submit(text: string): Promise<void>;
  /** tmux key names, such as Enter or Down. */
  press(...keys: string[]): void;
  /** Presses `key` (again if nothing shows for a while) until the screen matches `pattern`; rejects at the test's deadline. */
  pressUntil(key: string, pattern: RegExp): Promise<string>;
  /** The screen once it matches, waiting until the test's deadline. */
  waitFor(pattern: RegExp): Promise<string>;
  close(): void;
}

export function startCodexTui(options: CodexOptions): CodexTui;
