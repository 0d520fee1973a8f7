// What the accessibility and small-screen tests share: axe-core run inside the Question webview,
// a permission prompt with a real tool call (through the MCP endpoint's approve tool), themes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Frame, Page } from 'playwright-core';
import { enableEndpoint, ROOT, type Workbench } from './workbench';

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** Each failing element: its selector (through shadow roots) and the first line of axe's summary. */
  nodes: string[];
}

/**
 * Runs axe-core on the webview's document (open shadow roots included); returns the violations.
 * The webview is transparent over its side bar, so the side bar's colour (`background`) is painted
 * under it for the audit, or axe would measure every contrast against white.
 */
export async function runAxe(frame: Frame, background: string): Promise<AxeFinding[]> {
  // Evaluated through the debugger, so the webview's CSP (scripts by nonce only) does not apply.
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE);
  return frame.evaluate(async (background) => {
    document.documentElement.style.backgroundColor = background;
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    document.documentElement.style.backgroundColor = '';
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${JSON.stringify(n.target)}: ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('').trim()}`),
    }));
  }, background);
}

/** The colour of the side bar (or panel) that holds the Question view, as the user sees it behind the webview. */
export async function paneBackground(page: Page): Promise<string> {
  return page.evaluate(() => {
    let element: Element | null | undefined = document.querySelector('.pane-header[aria-label^="Question"]')?.closest('.pane')?.querySelector('.pane-body');
    while (element) {
      const colour = getComputedStyle(element).backgroundColor;
      if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
      element = element.parentElement;
    }
    throw new Error('no side bar holds the Question view');
  });
}

export const THEMES = [
  ['Default Light Modern', 'light'],
  ['Default Dark Modern', 'dark'],
  ['Default High Contrast', 'high-contrast'],
] as const;

/** Switches VS Code's colour theme (null: back to the default) and waits for the webview to take it. */
export async function useTheme(workbench: Workbench, theme: string | null): Promise<void> {
  await workbench.driver('config', { section: 'workbench', key: 'colorTheme', value: theme });
  await workbench.page.waitForTimeout(1200);
}

/** Rejects whatever is still pending, so one test's request never stays in front of the next. */
export async function rejectAll(workbench: Workbench): Promise<void> {
  for (const pending of await workbench.driver<Array<{ id: string }>>('list')) await workbench.driver('reject', { requestId: pending.id });
}

export interface ApproveCall {
  result: Promise<unknown>;
  close(): Promise<void>;
}

/**
 * Asks for a permission the way an outside agent does (Claude Code's --permission-prompt-tool):
 * the `approve` tool of the local MCP endpoint, with the token a VS Code terminal would have.
 */
export async function approveThroughMcp(workbench: Workbench, toolName: string, input: Record<string, unknown>): Promise<ApproveCall> {
  const url = await enableEndpoint(workbench);
  const env = await workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_TOKEN'] });
  const client = new Client({ name: 'phone-test-agent', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${env['AGENT_QUESTIONS_MCP_TOKEN']}` } } }));
  const result = client.callTool({ name: 'approve', arguments: { tool_name: toolName, input } }, undefined, { timeout: 600_000 });
  result.catch(() => undefined);
  return { result, close: () => client.close() };
}
