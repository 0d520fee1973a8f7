// Drives the real VS Code workbench (code-server) in headless Chromium with the extension
// loaded from source, for UI tests.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { launchBrowser, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';

export const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS = join(ROOT, 'test-results');
const WORKSPACE = join(ROOT, 'test', 'fixtures', 'workspace');

export interface Workbench {
  page: Page;
  /** The inner frame of the Question webview, once it is rendered. */
  panel(): Promise<Frame>;
  runCommand(title: string): Promise<void>;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openWorkbench(): Promise<Workbench> {
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-questions-ui-'));
  const server = await startCodeServer({ stateDir, workspace: WORKSPACE, smokeTestDriver: true });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(workbenchUrl(server, { workspace: WORKSPACE, extensionDevelopmentPath: ROOT }));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const openedBrowser = browser;
    return {
      page,
      panel: () => findPanelFrame(page),
      runCommand: (title) => runCommand(page, title),
      screenshot: async (name) => {
        mkdirSync(RESULTS, { recursive: true });
        await page.screenshot({ path: join(RESULTS, `${name}.png`) });
      },
      close: async () => {
        await openedBrowser.close().catch(() => undefined);
        await server.stop();
        rmSync(stateDir, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw error;
  }
}

/** Clicks the Agent Questions item in the activity bar. */
export async function openAgentQuestionsView(page: Page): Promise<void> {
  await page.locator('.activitybar [aria-label^="Agent Questions"]').first().click({ timeout: 60_000 });
}

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 0; attempt < 3 && !(await input.isVisible()); attempt++) {
    // F1 is lost while focus sits in a webview that is still loading; focus the editor area first.
    if (attempt > 0) await page.locator('.part.editor').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 3000 }).catch(() => undefined);
  }
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await input.press('Enter');
}

/** A webview is an iframe inside an iframe; ours is the one holding main#app. */
async function findPanelFrame(page: Page, timeoutMs = 30_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (await frame.$('main#app').catch(() => null)) return frame;
    }
    await page.waitForTimeout(200);
  }
  throw new Error('the Question webview did not appear');
}
