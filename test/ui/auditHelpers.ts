// What the ui tests share beyond the panel helpers: axe-core run inside the Question webview, a
// permission prompt with a real tool call (through the MCP endpoint's approve tool), themes, an
// empty queue before each test, a reload of the webview.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Frame, Page } from 'playwright-core';
import { until } from '../harness/deadline';
import { enableEndpoint, ROOT, type Workbench, type WorkbenchFixture } from './workbench';

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

/**
 * The themes VS Code may apply for a colorTheme setting, as a webview's data-vscode-theme-id names
 * them: VS Code renamed its "Default … Modern" themes; its default (null) is its light or dark 2026 theme.
 */
const appliedThemes = (theme: string | null) => (theme === null ? ['Dark 2026', 'Light 2026'] : [theme.replace(/^Default (Light|Dark) Modern$/, '$1 Modern')]);

/** Switches VS Code's colour theme (null: back to the default) and waits for the Question webview to take it (after the workbench). */
export async function useTheme(workbench: Workbench, theme: string | null): Promise<void> {
  await workbench.driver('config', { section: 'workbench', key: 'colorTheme', value: theme });
  const expected = appliedThemes(theme);
  await until(`the Question webview to take the theme ${expected.join(' or ')}`, async () => {
    const seen = await (await workbench.panel()).evaluate(() => document.body.dataset.vscodeThemeId);
    if (!expected.includes(seen ?? '')) throw new Error(`it has ${seen}`);
    return true;
  });
}

/** Rejects whatever is still pending, so one test's request never stays in front of the next. */
export async function rejectAll(workbench: Workbench): Promise<void> {
  for (const pending of await workbench.driver<Array<{ id: string }>>('list')) await workbench.driver('reject', { requestId: pending.id });
}

/**
 * Each test starts from an empty queue: settles whatever an earlier test left pending (a failed test
 * leaves its request on screen, in front of the next test's) and waits until the panel shows none.
 */
export async function startEmpty(ui: WorkbenchFixture): Promise<void> {
  await until('the panel to be empty, nothing pending', async () => {
    await rejectAll(ui.workbench);
    return (await ui.panel.locator('.empty').count()) === 1 && (await ui.workbench.driver<unknown[]>('list')).length === 0;
  });
}

/**
 * Reloads the webviews (Developer: Reload Webviews) and resolves with the Question view's new frame,
 * once the old one is gone: the old frame still holds main#app for a moment after the command.
 */
export async function reloadWebviews(ui: WorkbenchFixture): Promise<Frame> {
  await ui.panel.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
  await ui.workbench.runCommand('Developer: Reload Webviews');
  ui.panel = await until('the Question webview to load again', async () => {
    const frame = await ui.workbench.panel();
    return (await frame.evaluate(() => !('beforeReload' in window)).catch(() => false)) ? frame : undefined;
  });
  return ui.panel;
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
