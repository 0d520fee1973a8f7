// Types for the plain-JavaScript harness, so TypeScript tests can use it.
import type { ChildProcess } from 'node:child_process';

export const CLAUDE_CODE_VERSION: string;

/** Installs Claude Code into the cache once; returns the path of the `claude` that runs. */
export function provisionClaudeCode(): string;

export interface ClaudeRun {
  child: ChildProcess;
  /** Resolves when the CLI exits; `code` is null when a signal ended it. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** The scratch HOME and default cwd (removed after exit unless AGENT_QUESTIONS_KEEP=1). */
  dir: string;
}

export function runClaude(options: {
  prompt: string;
  modelUrl: string;
  mcpUrl: string;
  mcpToken?: string;
  serverName?: string;
  allowedTools?: string[];
  permissionPromptTool?: string;
  outputFormat?: 'text' | 'json' | 'stream-json';
  extraEnv?: Record<string, string>;
  cwd?: string;
  /** The MCP configuration file's text, instead of one built from mcpUrl and mcpToken. */
  mcpConfig?: string;
}): ClaudeRun;
