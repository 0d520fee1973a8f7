// Types for the OpenCode CLI harness, so TypeScript tests can use it.
import type { ChildProcess } from 'node:child_process';

export interface OpenCodeProject {
  cwd: string;
  env: Record<string, string>;
  cleanUp(): void;
}

export interface OpenCodeFinished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function openCodeProject(options: {
  files: Array<{ path: string; text: string }>;
  modelUrl: string;
  terminalEnv?: Record<string, string>;
  extraConfig?: Record<string, unknown>;
}): OpenCodeProject;

export function startOpenCode(args: string[], where: { cwd: string; env: Record<string, string> }): { child: ChildProcess; done: Promise<OpenCodeFinished>; output(): string };

export interface OpenCodeServer {
  child: ChildProcess;
  done: Promise<OpenCodeFinished>;
  output(): string;
  /** A request to its HTTP API for the project; rejects on an HTTP error. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** Sends text in a new session; resolves the assistant's text once OpenCode has finished it. */
  prompt(text: string): Promise<string>;
  close(): Promise<void>;
}

export function serveOpenCode(where: { cwd: string; env: Record<string, string> }): Promise<OpenCodeServer>;
