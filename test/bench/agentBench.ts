// Part of npm run bench: the real agent loop (VS Code's agent mode, the scripted model). Medians over
// RUNS runs of: Enter in the chat -> the question is interactive in the panel, and Submit -> the
// model's next request carries the answer; each against Enter -> the model's first request (VS Code's
// own agent turn, measured in the same runs) as the baseline. Every time is taken in the browser or
// the extension host, on the same machine clock.
import { typePrompt, type ReceivedRequest } from '../agent/chat';
import type { Workbench } from '../ui/workbench';
import { median, runBench } from './benchKit';
import { inWorkbench } from './benchWorkbench';

const RUNS = 10;
const PROMPT = 'Which database? scenario:database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the scripted model has received a request after `since` that contains `text`. */
async function nextModelRequest(workbench: Workbench, since: number, text = ''): Promise<number> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const hit = (await workbench.driver<ReceivedRequest[]>('received')).find((r) => r.at >= since && r.parts.includes(text));
    if (hit) return hit.at;
    await sleep(50);
  }
  throw new Error(`the model received no request containing ${JSON.stringify(text)} within 30 s`);
}

async function main() {
  await inWorkbench(async (workbench, panel) => {
    const { page, driver } = workbench;

    const enterToModel: number[] = [];
    const enterToInteractive: number[] = [];
    const submitToModel: number[] = [];
    for (let run = -1; run < RUNS; run++) {
      // The warm-up run (negative) also enables the built-in agent; it is not counted.
      await typePrompt(workbench, PROMPT);
      const watch = await driver<{ callId: number }>('watchShown');
      await page.evaluate(() => document.addEventListener('keydown', () => ((window as unknown as { enterAt: number }).enterAt = Date.now()), { capture: true, once: true }));
      await page.keyboard.press('Enter');
      const shown = await driver<{ value: number }>('await', { callId: watch.callId });
      const enterAt = await page.evaluate(() => (window as unknown as { enterAt: number }).enterAt);
      const firstRequestAt = await nextModelRequest(workbench, enterAt);

      const submit = panel.locator('.request vscode-button[data-action="submit"]');
      await submit.waitFor();
      await panel.evaluate(() => document.addEventListener('click', () => ((window as unknown as { clickedAt: number }).clickedAt = Date.now()), { capture: true, once: true }));
      await submit.click();
      const clickedAt = await panel.evaluate(() => (window as unknown as { clickedAt: number }).clickedAt);
      const answeredAt = await nextModelRequest(workbench, clickedAt, 'The user answered 1 question');
      await panel.locator('.empty').waitFor();
      if (run < 0) continue;
      enterToModel.push(firstRequestAt - enterAt);
      enterToInteractive.push(shown.value - enterAt);
      submitToModel.push(answeredAt - clickedAt);
    }

    const base = Math.max(median(enterToModel), 1);
    console.log(`\nAgent loop in the real workbench (VS Code agent mode, scripted model), medians over ${RUNS} runs`);
    console.log(`Enter -> model's first request (VS Code's agent)     ${median(enterToModel)} ms (baseline)`);
    console.log(`Enter -> question interactive in the panel           ${median(enterToInteractive)} ms  ratio ${(median(enterToInteractive) / base).toFixed(1)}x`);
    console.log(`Submit -> model's next request carries the answer    ${median(submitToModel)} ms  ratio ${(median(submitToModel) / base).toFixed(1)}x`);
    console.log(`  (all runs, ms: Enter->interactive ${enterToInteractive.join(' ')}; Submit->model ${submitToModel.join(' ')})`);
  });
}

runBench(main);
