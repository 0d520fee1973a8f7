// `npm run pictures`: the README's pictures, taken in the real workbench (the packaged extension,
// the scripted model) in light and dark, cropped to what each shows, written to media/readme/.
// Not a test: run by scripts/readmePictures.mjs (npm run pictures), never by `npm test`.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { typePrompt } from '../agent/chat';
import { until } from '../harness/deadline';
import { useTheme } from './auditHelpers';
import { button, chooseAndSubmit, invoke, waitForRequest } from './panelHelpers';
import { openAgentQuestionsView, openWorkbench, questionPane, queueRows, ROOT, type Workbench } from './workbench';

const OUT = join(ROOT, 'media', 'readme');
/** The README's limit for one picture. */
const MAX_BYTES = 150 * 1024;
const THEMES = [
  ['Default Light Modern', 'light'],
  ['Default Dark Modern', 'dark'],
] as const;

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`not on screen: ${String(locator)}`);
  return found;
}

/** The smallest box holding all of these, with a margin, inside the page. */
function union(boxes: Box[], margin = 0): Box {
  const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - margin);
  const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const right = Math.max(...boxes.map((b) => b.x + b.width)) + margin;
  const bottom = Math.max(...boxes.map((b) => b.y + b.height)) + margin;
  return { x: Math.round(x), y: Math.round(y), width: Math.round(right - x), height: Math.round(bottom - y) };
}

/** Not a deadline: how far apart two screenshots are taken to tell that the picture stopped changing. */
const SETTLE_EVERY_MS = 300;

/** A screenshot of `clip` once it stops changing (a hover fading out, a list settling its scrolling): two in a row the same. */
async function settledScreenshot(page: Page, clip: Box): Promise<Buffer> {
  let last: Buffer | undefined;
  return until(
    'the picture to stop changing',
    async () => {
      const shot = await page.screenshot({ clip, animations: 'disabled', caret: 'hide' });
      const same = last?.equals(shot);
      last = shot;
      return same ? shot : undefined;
    },
    { everyMs: SETTLE_EVERY_MS },
  );
}

/**
 * Writes a PNG of `clip` at device scale 1; if that is over the limit, a WebP that Chromium itself
 * encodes (canvas.toDataURL), so no image library is needed.
 */
async function capture(page: Page, name: string, clip: Box): Promise<string> {
  await page.mouse.move(1, 999); // no hover highlight in the picture
  const png = await settledScreenshot(page, clip);
  let file = join(OUT, `${name}.png`);
  let bytes: Buffer = png;
  if (png.length > MAX_BYTES) {
    const dataUrl = await page.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d')!.drawImage(image, 0, 0);
      return canvas.toDataURL('image/webp', 0.9);
    }, png.toString('base64'));
    file = join(OUT, `${name}.webp`);
    bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  }
  if (bytes.length > MAX_BYTES) throw new Error(`${name} is ${bytes.length} bytes, over the ${MAX_BYTES} limit: crop it tighter`);
  writeFileSync(file, bytes);
  console.log(`${file.slice(ROOT.length + 1)}: ${clip.width}×${clip.height}, ${(bytes.length / 1024).toFixed(0)} KB`);
  return file;
}

/**
 * Rejects the request on screen through the panel, as a user would (rejecting it from outside
 * would leave a "rejected elsewhere" notice in the next picture), after everything else waiting.
 */
async function rejectAll(workbench: Workbench, panel: Frame, shownText: string, permission = false): Promise<void> {
  for (const request of await workbench.driver<Array<{ id: string; title?: string; questions?: Array<{ question: string }> }>>('list')) {
    const text = request.title ?? request.questions?.[0]?.question;
    if (text !== shownText) await workbench.driver('reject', { requestId: request.id });
  }
  if (permission) await button(panel, 'deny').click();
  else {
    await button(panel, 'reject').click();
    await button(panel, 'confirm-reject').click();
  }
  await panel.locator('.empty').waitFor();
}

/** The Question pane down to the end of what it shows (its History line), not the empty space below. */
async function paneContent(page: Page, panel: Frame): Promise<Box> {
  const pane = await box(questionPane(page));
  const history = await box(panel.locator('details.history > summary'));
  return { ...pane, height: Math.min(pane.height, Math.round(history.y + history.height + 10 - pane.y)) };
}

const BATCH = {
  context: 'Setting up the **billing** service. I need three decisions before I scaffold it.',
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the service use?',
      options: [
        { label: 'PostgreSQL', description: 'Relational, the team already runs it', recommended: true },
        { label: 'SQLite', description: 'One file, no server' },
        { label: 'MongoDB', description: 'Documents' },
      ],
    },
    {
      id: 'features',
      header: 'Features',
      question: 'Which features should it start with?',
      kind: 'multi',
      options: [{ label: 'Authentication' }, { label: 'OpenAPI docs' }, { label: 'Rate limiting' }, { label: 'Metrics' }],
    },
    { id: 'name', header: 'Name', question: 'What should the service be called?', kind: 'text', placeholder: 'e.g. billing-api' },
  ],
};

async function batchPicture(workbench: Workbench, panel: Frame, theme: string): Promise<void> {
  await invoke(workbench, BATCH);
  await waitForRequest(panel, 'Which database should the service use?');
  await panel.locator('vscode-radio[value="PostgreSQL"]').click();
  await button(panel, 'next').click();
  await panel.locator('vscode-checkbox[value="Authentication"]').click();
  await panel.locator('vscode-checkbox[value="OpenAPI docs"]').click();
  await capture(workbench.page, `batch-${theme}`, await paneContent(workbench.page, panel));
  await rejectAll(workbench, panel, BATCH.questions[0]!.question);
}

async function queueAndPermissionPictures(workbench: Workbench, panel: Frame, theme: string): Promise<void> {
  const { page, driver } = workbench;
  const yesNo = (id: string, header: string, question: string) => ({ questions: [{ id, header, question, options: [{ label: 'Yes' }, { label: 'No' }] }] });
  await invoke(workbench, yesNo('tests', 'Tests', 'Add tests for the parser?'));
  await waitForRequest(panel, 'Add tests for the parser?');
  await invoke(workbench, yesNo('docs', 'Docs', 'Update the changelog too?'));
  await driver('permission', {
    request: {
      extensionId: 'example.deploy-helper',
      title: 'Run the database migration?',
      detail: 'Runs `npm run migrate` against **staging**. It changes 3 tables; a backup is taken first.',
    },
  });
  // Rows show the header; the question is in the tooltip.
  await page.locator('.monaco-list-row', { hasText: 'Docs' }).first().waitFor();
  const rows = queueRows(page);
  const sidebar = await box(page.locator('.part.sidebar'));
  const lastRow = await box(rows.last());
  const activityBar = await box(page.locator('.part.activitybar'));
  await capture(
    page,
    `queue-${theme}`,
    union([
      { ...sidebar, height: lastRow.y + lastRow.height + 12 - sidebar.y },
      { ...activityBar, height: lastRow.y + lastRow.height + 12 - activityBar.y },
    ]),
  );

  // The permission is next once the question on screen is answered.
  await chooseAndSubmit(panel, 'Yes');
  await waitForRequest(panel, 'Run the database migration?');
  await capture(page, `permission-${theme}`, await paneContent(page, panel));
  await rejectAll(workbench, panel, 'Run the database migration?', true);
}

async function secretPicture(workbench: Workbench, panel: Frame, theme: string): Promise<void> {
  await invoke(workbench, {
    context: 'The integration tests call the Stripe test API.',
    questions: [{ id: 'stripe_key', header: 'Stripe key', question: 'Your Stripe test key?', kind: 'secret', envVar: 'STRIPE_TEST_KEY' }],
  });
  await waitForRequest(panel, 'Your Stripe test key?');
  await panel.locator('.secret-field').click();
  // A made-up value; the field masks it.
  await workbench.page.keyboard.type('not-a-real-key-0000');
  await capture(workbench.page, `secret-${theme}`, await paneContent(workbench.page, panel));
  await rejectAll(workbench, panel, 'Your Stripe test key?');
}

async function chatPicture(workbench: Workbench, theme: string): Promise<void> {
  const { scenarios } = JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'scripted-model', 'scenarios.json'), 'utf8')) as { scenarios: Array<{ demoPrompt?: string }> };
  const demoPrompt = scenarios.find((s) => s.demoPrompt)!.demoPrompt!;
  const chat = await typePrompt(workbench, demoPrompt);
  await workbench.page.keyboard.press('Enter');
  // The first prompt also enables the built-in agent, which takes a while.
  await chat.locator('.interactive-list', { hasText: 'Asking 2 questions' }).waitFor();
  const panel = await workbench.panel();
  await waitForRequest(panel, 'Which database should the service use?');
  await panel.locator('vscode-radio[value="SQLite"]').click();
  await capture(workbench.page, `chat-${theme}`, await box(workbench.page.locator('.part.auxiliarybar')));
  await rejectAll(workbench, panel, 'Which database should the service use?');
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const workbench = await openWorkbench();
  try {
    // Taller than the tests' window, so the Question view and the chat each show in full.
    await workbench.page.setViewportSize({ width: 1280, height: 1300 });
    await openAgentQuestionsView(workbench.page);
    for (const [themeName, theme] of THEMES) {
      await useTheme(workbench, themeName);
      const panel = await workbench.panel();
      await batchPicture(workbench, panel, theme);
      await queueAndPermissionPictures(workbench, panel, theme);
      await secretPicture(workbench, panel, theme);
      await chatPicture(workbench, theme);
    }
  } finally {
    await workbench.driver('config', { section: 'workbench', key: 'colorTheme', value: null }).catch(() => undefined);
    await workbench.close();
  }
  for (const name of ['batch', 'queue', 'permission', 'secret', 'chat']) {
    for (const [, theme] of THEMES) {
      const size = (ext: string) => statSync(join(OUT, `${name}-${theme}.${ext}`), { throwIfNoEntry: false })?.size;
      if (!size('png') && !size('webp')) throw new Error(`${name}-${theme} was not written`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
