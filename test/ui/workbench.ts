// Drives the real VS Code workbench (code-server) in headless Chromium with the extension
// loaded from source, for UI tests.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { freePort, installExtension, launchBrowser, startCodeServer, workbenchUrl } from '../harness/codeServer.mjs';
import { followDeadline, step, until } from '../harness/deadline';
import { fixtureWorkspace } from '../harness/fixtureWorkspace.mjs';
import { installLanguagePack } from './languagePack';

export const ROOT = join(__dirname, '..', '..', '..');
export const RESULTS = join(ROOT, 'test-results');
const DRIVER = join(ROOT, 'test', 'fixtures', 'driver');

/** Calls the test driver extension inside the extension host (see test/fixtures/driver). */
export type Driver = <T = unknown>(op: string, args?: Record<string, unknown>) => Promise<T>;

export interface Workbench {
  page: Page;
  /** The inner frame of the Question webview, once it is rendered. */
  panel(): Promise<Frame>;
  runCommand(title: string): Promise<void>;
  screenshot(name: string): Promise<void>;
  driver: Driver;
  /** Everything the server side of this workbench writes: profile, logs, state, extensions. */
  stateDir: string;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  /** The folder to open; by default a copy of the fixture workspace that is its own repository. */
  workspace?: string;
  /** Workspace trust on and the folder untrusted (Restricted Mode); off by default. */
  workspaceTrust?: boolean;
  /** VS Code's display language, with the test language pack for it (test/fixtures/language-pack-<locale>); English by default. */
  locale?: string;
  /** The browser's screen: a 1280 × 1000 desktop window by default; a phone is 390 × 844 with touch. */
  device?: { viewport: { width: number; height: number }; isMobile?: boolean; hasTouch?: boolean };
}

/**
 * Opens the workbench with the packaged extension installed from its .vsix (what users get),
 * the test driver extension loaded from source, and, for the agent layer, the scripted model.
 */
export async function openWorkbench({ workspace: given, workspaceTrust = false, locale, device }: WorkbenchOptions = {}): Promise<Workbench> {
  const vsix = process.env.AGENT_QUESTIONS_VSIX;
  if (!vsix) throw new Error('AGENT_QUESTIONS_VSIX is not set: run the ui layer through `npm test -- ui`, which packages the extension first');
  const stateDir = mkdtempSync(join(tmpdir(), 'agent-questions-ui-'));
  const workspace = given ?? fixtureWorkspace(ROOT, stateDir);
  installExtension({ stateDir, vsix });
  // The agent layer also installs the scripted language model (test/fixtures/scripted-model).
  const modelVsix = process.env.AGENT_QUESTIONS_MODEL_VSIX;
  if (modelVsix) installExtension({ stateDir, vsix: modelVsix });
  if (locale) installLanguagePack(stateDir, locale);
  const driverPort = await freePort();
  const server = await startCodeServer({ stateDir, workspace, workspaceTrust, locale, smokeTestDriver: true, env: { AGENT_QUESTIONS_DRIVER_PORT: String(driverPort) } });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await browser.newPage(device ?? { viewport: { width: 1280, height: 1000 } });
    // No click or wait may hang a test forever, nor give up before the test's deadline; a failure names its locator.
    followDeadline(page);
    step('the workbench page to load');
    await page.goto(workbenchUrl(server, { workspace, extensionDevelopmentPath: DRIVER }));
    await page.locator('.monaco-workbench').waitFor();
    const openedBrowser = browser;
    const driver = createDriver(driverPort);
    await until('the test driver extension to answer', () => driver('list').then(() => true));
    // As it starts, the extension moves the Question view next to the Chat once; no test should see it move.
    names = viewNames(locale);
    step('the Question view to move next to the Chat');
    await page.locator(`.part.auxiliarybar ${questionHeader()}`).first().waitFor({ state: 'attached' });
    return {
      page,
      driver,
      stateDir,
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

function createDriver(port: number): Driver {
  return async <T>(op: string, args: Record<string, unknown> = {}) => {
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: JSON.stringify({ op, ...args }) });
    const body = (await response.json()) as T & { error?: string };
    if (!response.ok) throw new Error(`driver ${op} failed: ${body.error}`);
    return body;
  };
}

/**
 * What a suite works with: its workbench and the Question view's frame. Both are set when the suite
 * starts (use them inside hooks and tests); a test that reloads the view sets `panel` again.
 */
export interface WorkbenchFixture {
  workbench: Workbench;
  panel: Frame;
}

/**
 * The set-up every UI suite shares: opens the workbench and the Agent Questions view once,
 * screenshots a failed test, closes everything at the end.
 *   const ui = useWorkbench();   then ui.workbench, ui.panel in the tests
 */
export function useWorkbench(options: WorkbenchOptions = {}): WorkbenchFixture {
  // Filled in by suiteSetup; a hook that runs after a failed set-up finds them undefined.
  const fixture = {} as WorkbenchFixture;
  suiteSetup(async () => {
    fixture.workbench = await openWorkbench(options);
    await openAgentQuestionsView(fixture.workbench.page);
    fixture.panel = await fixture.workbench.panel();
  });
  screenshotFailures(() => fixture.workbench);
  suiteTeardown(async () => {
    await fixture.workbench?.close();
  });
  return fixture;
}

/** Saves a screenshot of each failed test (test-results/failed-<title>.png), for a suite that opens its workbench itself. */
export function screenshotFailures(workbench: () => Workbench | undefined): void {
  teardown(async function () {
    if (this.currentTest?.state === 'failed') await workbench()?.screenshot(`failed-${this.currentTest.title.slice(0, 40).replace(/\W+/g, '-')}`);
  });
}

/**
 * Turns the MCP endpoint on (agentQuestions.mcp.enabled, as a user would) and resolves with its URL
 * once it listens: what every test of an outside agent does first.
 */
export async function enableEndpoint(workbench: Workbench): Promise<string> {
  await workbench.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: true });
  return until(
    'the MCP endpoint to report its URL after it was turned on',
    async () => (await workbench.driver<{ value: { url?: string } }>('command', { id: 'agentQuestions.internal.mcpState' })).value.url,
    { everyMs: 100 },
  );
}

/** The names the workbench shows for our views and commands, in its display language (package.nls.<locale>.json). */
function viewNames(locale?: string) {
  const file = join(ROOT, `package.nls.${locale}.json`);
  const nls: Record<string, string> = locale && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const category = nls['command.category'] ?? 'Agent Questions';
  return {
    question: nls['views.agentQuestions.panel.name'] ?? 'Question',
    queue: nls['views.agentQuestions.queue.name'] ?? 'Queue',
    container: nls['viewsContainers.agentQuestions.title'] ?? 'Agent Questions',
    focusPanel: `${category}: ${nls['command.focusPanel.title'] ?? 'Focus Question Panel'}`,
  };
}
/** Of the workbench opened last (UI suites open one at a time). */
let names = viewNames();
const questionHeader = () => `.pane-header[aria-label^="${names.question}"]`;
/** The Question view's pane (next to the Chat by default, in the secondary side bar). */
export const questionPane = (page: Page) => page.locator('.pane', { has: page.locator(questionHeader()) }).first();
/** Rows of the Queue tree, wherever the view is (alone in its container, its header is merged into the title). */
export const queueRows = (page: Page) => page.locator(`.monaco-list[aria-label="${names.queue}"] .monaco-list-row`);
const agentQuestionsItem = (page: Page) => page.locator(`.activitybar li.action-item:has(a[aria-label^="${names.container}"])`).first();

/**
 * Shows the Question view where it is by default (next to the Chat) and the Queue (the Agent Questions
 * item in the activity bar), neither hiding the other.
 */
export async function openAgentQuestionsView(page: Page): Promise<void> {
  // The item (not its link): the badge sits on top of the link while requests wait. A checked item would close.
  if (!(await agentQuestionsItem(page).evaluate((item) => item.classList.contains('checked')))) await agentQuestionsItem(page).click();
  if (!(await questionPane(page).isVisible())) await runCommand(page, names.focusPanel);
  await questionPane(page).waitFor();
  // Move off the icon, or its hover can cover the panel's buttons.
  await page.mouse.move(640, 600);
}

/** Hides the Question view by closing the side bar that holds it (its webview is then not visible). */
export async function hideQuestionPanel(page: Page): Promise<void> {
  const inSecondary = (await page.locator(`.part.auxiliarybar ${questionHeader()}`).count()) > 0;
  await runCommand(page, inSecondary ? 'View: Hide Secondary Side Bar' : 'View: Close Primary Side Bar');
  await questionPane(page).waitFor({ state: 'hidden' });
  // The palette fades out; a command run at once would find its input still there and inert.
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Not a deadline: how long a press of F1 is given before it is pressed again (the wait itself lasts until the test's deadline). */
const F1_AGAIN_AFTER_MS = 10_000;

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // A quick input that was just closed (a Reject reason, the last command) fades out, inert but still visible.
  step('the last quick input to close');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  // F1 is lost while focus sits in a webview that is still loading: then focus the editor area and press it again.
  let pressed = 0;
  await until(`the command palette to open for "${title}"`, async () => {
    if (await input.isVisible()) return true;
    if (pressed++ > 0) await page.locator('.part.editor').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('F1');
    return input.waitFor({ timeout: F1_AGAIN_AFTER_MS }).then(
      () => true,
      () => false,
    );
  });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor();
  await input.press('Enter');
}

/** A webview is an iframe inside an iframe; ours is the one holding main#app. */
async function findPanelFrame(page: Page): Promise<Frame> {
  return until('the Question webview to appear', async () => {
    for (const frame of page.frames()) {
      if (await frame.$('main#app').catch(() => null)) return frame;
    }
    return undefined;
  });
}
