// Types for the plain-JavaScript harness, so TypeScript tests can use it.
import type { Browser } from 'playwright-core';

export interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  stop(): Promise<void>;
}

export function startCodeServer(options: {
  stateDir: string;
  workspace: string;
  port?: number;
  extensionsDir?: string;
  smokeTestDriver?: boolean;
  /** Workspace trust on, the folder left untrusted (Restricted Mode). Default: trust off. */
  workspaceTrust?: boolean;
  /** VS Code's display language; honoured only with a language pack for it installed. */
  locale?: string;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  onOutput?: (text: string) => void;
}): Promise<CodeServer>;
export function launchBrowser(): Promise<Browser>;
export function workbenchUrl(server: CodeServer, options: { workspace: string; extensionDevelopmentPath?: string | string[]; extensionTestsPath?: string }): string;
export function freePort(): Promise<number>;
export function installExtension(options: { stateDir: string; vsix: string; extensionsDir?: string }): void;
