// Part of npm run bench: the real agent loop (VS Code's agent mode, the scripted model), head to head.
// The same model asks once through our ask_user and once through VS Code's built-in
// vscode_askQuestions (the question carousel in the chat), alternating, ROUNDS rounds each after a
// warm-up. Medians of: Enter in the chat -> the question is on screen for input, both seen in the
// browser (ours: the panel has rendered the request; built-in: the carousel's first option is in the
// chat), and Submit -> the model's next request carries the answer; ratios ours / built-in. The
// panel's `shown` message back to the host comes after that and costs the user nothing; it is printed too. Then the split of our path, from the model's tool call
// to the panel's `shown`, and back. Also activation: activate() entry to return, and what VS Code
// reports. Every time is a Date.now() in the browser or the extension host, on one machine clock.
import type { Frame } from 'playwright-core';
import { finalReply, typePrompt, type ReceivedRequest } from '../agent/chat';
import type { Workbench } from '../ui/workbench';
import { median, runBench } from './benchKit';
import { inWorkbench } from './benchWorkbench';

const ROUNDS = Number(process.env.AGENT_QUESTIONS_HEAD_TO_HEAD_ROUNDS ?? 12);
const TARGET = 1.15;
const OURS_PROMPT = 'Which database? scenario:database';
const BUILTIN_PROMPT = 'Which database? scenario:builtin-database';
/** The built-in carousel's first option and its Submit button, above the chat's input. */
const CAROUSEL_OPTION = '.chat-question-carousel-widget-container .chat-question-list-item';
const CAROUSEL_SUBMIT = '.chat-question-carousel-widget-container .chat-question-submit-button';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Mark = { name: string; at: number };
type Bench = { enterAt?: number; clickedAt?: number; addedArrivedAt?: number; addedRenderedAt?: number; addedPaintedAt?: number; carouselAt?: number };
/** The bench's timestamps in a page or frame (functions passed to evaluate() run there, so they spell this out). */
type W = { aqBench: Bench };

/** Waits until the scripted model has received a request after `since` that contains `text`. */
async function nextModelRequest(workbench: Workbench, since: number, text = ''): Promise<number> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const hit = (await workbench.driver<ReceivedRequest[]>('received')).find((r) => r.at >= since && r.parts.includes(text));
    if (hit) return hit.at;
    await sleep(25);
  }
  throw new Error(`the model received no request containing ${JSON.stringify(text)} within 15 s`);
}

/** When the scripted model made its first call of `tool` after `since`. */
async function toolCallAt(workbench: Workbench, since: number, tool: string): Promise<number> {
  const call = (await workbench.driver<Array<{ at: number; tool: string }>>('toolCalls')).find((c) => c.at >= since && c.tool === tool);
  if (!call) throw new Error(`the scripted model made no ${tool} call; is the tool offered to the agent?`);
  return call.at;
}

/** Records the key press (capture, before VS Code sees it) and the click that submits, in the browser. */
async function recordEnter(workbench: Workbench): Promise<void> {
  await workbench.page.evaluate(() => {
    (window as unknown as W).aqBench = {};
    document.addEventListener('keydown', () => ((window as unknown as W).aqBench.enterAt = Date.now()), { capture: true, once: true });
  });
}

const recordClick = (frame: { evaluate: Frame['evaluate'] }) =>
  frame.evaluate(() => {
    (window as unknown as W).aqBench ??= {};
    document.addEventListener('click', () => ((window as unknown as W).aqBench.clickedAt = Date.now()), { capture: true, once: true });
  });

type OursRound = {
  /** Until the host hears the panel's `shown`. */
  enterToInteractive: number;
  /** Measured in the webview, like the carousel's time in the chat (no hop back to the host). */
  enterToRendered: number;
  submitToModel: number;
  /** Named points of our path, ms since the model's tool call. */
  split: Record<string, number>;
  back: Record<string, number>;
};

/** One ask_user round: Enter -> the panel's `shown`; Submit -> the model's next request. */
async function oursRound(workbench: Workbench, panel: Frame): Promise<OursRound> {
  const { page, driver } = workbench;
  await typePrompt(workbench, OURS_PROMPT);
  await driver('marks', { keepOn: true });
  const added = await driver<{ callId: number }>('watchAdded');
  const shown = await driver<{ callId: number }>('watchShown');
  // In the panel: a capture listener runs before the panel's own (arrival), a later bubble listener
  // after it (rendered), and the next frame after that (painted).
  await panel.evaluate(() => {
    const state: Bench = ((window as unknown as W).aqBench = {});
    const isAdded = (event: MessageEvent) => (event.data as { type?: string })?.type === 'added';
    window.addEventListener('message', (event) => isAdded(event) && (state.addedArrivedAt ??= Date.now()), { capture: true });
    window.addEventListener('message', (event) => {
      if (!isAdded(event) || state.addedRenderedAt) return;
      state.addedRenderedAt = Date.now();
      requestAnimationFrame(() => (state.addedPaintedAt = Date.now()));
    });
  });
  await recordEnter(workbench);
  await page.keyboard.press('Enter');
  const shownAt = (await driver<{ value: number }>('await', { callId: shown.callId })).value;
  const { addedAt } = (await driver<{ value: { addedAt: number } }>('await', { callId: added.callId })).value;
  const enterAt = await page.evaluate(() => (window as unknown as W).aqBench.enterAt!);
  const inPanel = await panel.evaluate(() => (window as unknown as W).aqBench);
  const calledAt = await toolCallAt(workbench, enterAt, 'ask_user');

  const submit = panel.locator('.request vscode-button[data-action="submit"]');
  await submit.waitFor();
  await recordClick(panel);
  await submit.click();
  const clickedAt = await panel.evaluate(() => (window as unknown as W).aqBench.clickedAt!);
  const answeredAt = await nextModelRequest(workbench, clickedAt, 'The user answered 1 question');
  await panel.locator('.empty').waitFor();
  const marks = (await driver<{ value: Mark[] }>('marks', { keepOn: false })).value;
  const at = (name: string) => marks.find((m) => m.name === name)?.at ?? NaN;
  const since = (t: number) => t - calledAt;
  return {
    enterToInteractive: shownAt - enterAt,
    enterToRendered: inPanel.addedRenderedAt! - enterAt,
    submitToModel: answeredAt - clickedAt,
    split: {
      'Enter -> model calls the tool': calledAt - enterAt,
      'tool call -> prepareInvocation': since(at('prepareInvocation')),
      'tool call -> prepareInvocation returns': since(at('prepared')),
      'tool call -> invoke': since(at('invoke')),
      'tool call -> broker queued': since(addedAt),
      "tool call -> panel receives 'added'": since(inPanel.addedArrivedAt!),
      'tool call -> panel rendered': since(inPanel.addedRenderedAt!),
      'tool call -> panel painted': since(inPanel.addedPaintedAt!),
      "tool call -> host hears 'shown'": since(shownAt),
    },
    back: {
      "Submit -> host hears 'reply'": at('reply received') - clickedAt,
      'Submit -> invoke returns': at('invoke returns') - clickedAt,
      "Submit -> model's next request": answeredAt - clickedAt,
    },
  };
}

/** One vscode_askQuestions round: Enter -> the carousel's first option; Submit (its click) -> the model's next request. */
async function builtinRound(workbench: Workbench): Promise<{ enterToInteractive: number; submitToModel: number; enterToCall: number; callToInteractive: number }> {
  const { page } = workbench;
  const chat = await typePrompt(workbench, BUILTIN_PROMPT);
  await recordEnter(workbench);
  await page.evaluate((selector) => {
    const observer = new MutationObserver(() => {
      if (!document.querySelector(selector)) return;
      (window as unknown as W).aqBench.carouselAt = Date.now();
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  }, CAROUSEL_OPTION);
  await page.keyboard.press('Enter');
  try {
    await page.waitForFunction(() => (window as unknown as W).aqBench.carouselAt !== undefined, undefined, { timeout: 30_000 });
  } catch (error) {
    const last = (await workbench.driver<ReceivedRequest[]>('received')).filter((r) => r.tools.length > 0).at(-1);
    await page.screenshot({ path: 'test-results/agentBench-no-carousel.png' });
    throw new Error(`no question carousel in the chat within 30 s; the agent's last request offered ${last?.tools.includes('vscode_askQuestions') ? '' : 'no '}vscode_askQuestions (tools: ${last?.tools.join(', ')}); chat: ${(await chat.innerText()).slice(-600)}`, { cause: error });
  }
  const { enterAt, carouselAt } = await page.evaluate(() => (window as unknown as W).aqBench);
  const calledAt = await toolCallAt(workbench, enterAt!, 'vscode_askQuestions');

  // As in our round: the recommended option is preselected, and the user clicks Submit.
  const submit = chat.locator(CAROUSEL_SUBMIT).first();
  await submit.waitFor();
  await recordClick(page);
  await submit.click();
  const clickedAt = await page.evaluate(() => (window as unknown as W).aqBench.clickedAt!);
  const answeredAt = await nextModelRequest(workbench, clickedAt, 'freeText');
  await finalReply(chat);
  return { enterToInteractive: carouselAt! - enterAt!, submitToModel: answeredAt - clickedAt, enterToCall: calledAt - enterAt!, callToInteractive: carouselAt! - calledAt };
}

const ratio = (a: number, b: number) => `${(a / Math.max(b, 1)).toFixed(2)}x`;
const pad = (text: string, width = 52) => text.padEnd(width);

async function main() {
  await inWorkbench(async (workbench, panel) => {
    const { driver } = workbench;
    const activation = (await driver<{ value: { ms: number } }>('activation')).value;
    const reported = await driver<{ row: string | null; table: string | null }>('reportedActivation', { id: 'openoxide.agent-questions' });

    // The warm-up rounds also enable the built-in agent; they are not counted.
    await oursRound(workbench, panel);
    await builtinRound(workbench);
    const ours: OursRound[] = [];
    const builtin: Array<Awaited<ReturnType<typeof builtinRound>>> = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push(await oursRound(workbench, panel));
      builtin.push(await builtinRound(workbench));
    }

    const m = (values: number[]) => median(values.filter((v) => !Number.isNaN(v)));
    const oursEnter = m(ours.map((r) => r.enterToRendered));
    const builtinEnter = m(builtin.map((r) => r.enterToInteractive));
    const oursSubmit = m(ours.map((r) => r.submitToModel));
    const builtinSubmit = m(builtin.map((r) => r.submitToModel));
    const oursShown = m(ours.map((r) => r.enterToInteractive));
    console.log(`\nAgent loop head to head in the real workbench (VS Code agent mode, scripted model), medians over ${ROUNDS} alternating rounds`);
    console.log(`${pad('')}${'ask_user'.padStart(9)} ${'built-in'.padStart(9)}  ratio`);
    console.log(`${pad('Enter -> question on screen (both in the browser)')}${`${oursEnter} ms`.padStart(9)} ${`${builtinEnter} ms`.padStart(9)}  ${ratio(oursEnter, builtinEnter)} (target <= ${TARGET}x)`);
    console.log(`${pad("Submit -> model's next request carries the answer")}${`${oursSubmit} ms`.padStart(9)} ${`${builtinSubmit} ms`.padStart(9)}  ${ratio(oursSubmit, builtinSubmit)} (target <= ${TARGET}x)`);
    console.log(`${pad("  Enter -> the host hears the panel's 'shown'")}${`${oursShown} ms`.padStart(9)} ${`${builtinEnter} ms`.padStart(9)}  ${ratio(oursShown, builtinEnter)}`);
    console.log(`${pad('  Enter -> model calls the tool')}${`${m(ours.map((r) => r.split['Enter -> model calls the tool']!))} ms`.padStart(9)} ${`${m(builtin.map((r) => r.enterToCall))} ms`.padStart(9)}`);
    console.log(`${pad("  model's tool call -> question on screen")}${`${m(ours.map((r) => r.split['tool call -> panel rendered']!))} ms`.padStart(9)} ${`${m(builtin.map((r) => r.callToInteractive))} ms`.padStart(9)}`);
    console.log(`  (all rounds, ms: ask_user Enter ${ours.map((r) => r.enterToRendered).join(' ')}; built-in Enter ${builtin.map((r) => r.enterToInteractive).join(' ')}`);
    console.log(`                   ask_user Submit ${ours.map((r) => r.submitToModel).join(' ')}; built-in Submit ${builtin.map((r) => r.submitToModel).join(' ')})`);
    console.log(`Our path, medians (ms since the model's tool call unless said otherwise):`);
    for (const name of Object.keys(ours[0]!.split)) console.log(`  ${pad(name, 50)}${String(m(ours.map((r) => r.split[name]!))).padStart(6)} ms`);
    for (const name of Object.keys(ours[0]!.back)) console.log(`  ${pad(name, 50)}${String(m(ours.map((r) => r.back[name]!))).padStart(6)} ms`);

    const row = reported.row?.split('|').map((cell) => cell.trim()) ?? [];
    console.log(`\nActivation: activate() entry -> return ${activation.ms.toFixed(1)} ms (target <= 20 ms)`);
    // Startup Performance's columns: extension, eager, load code, call activate, finish activate, event, by.
    if (row.length >= 6) console.log(`  VS Code reports: load code ${row[3]} ms, call activate ${row[4]} ms, finish activate ${row[5]} ms (event ${row[6]})`);
    else console.log(`  VS Code's report has no row for the extension:\n${reported.table}`);
  });
}

runBench(main);
