// The real workbench for the panel and agent-loop benchmarks, with an empty Question panel.
import type { Frame } from 'playwright-core';
import { openAgentQuestionsView, openWorkbench, type Workbench } from '../ui/workbench';

/** Opens the workbench and the Agent Questions view, waits for an empty panel, runs, closes. */
export async function inWorkbench(run: (workbench: Workbench, panel: Frame) => Promise<void>): Promise<void> {
  const workbench = await openWorkbench();
  try {
    await openAgentQuestionsView(workbench.page);
    const panel = await workbench.panel();
    await panel.locator('.empty').waitFor();
    // Each workbench's start gives one sample of activation, the noisiest line (it runs beside every other extension's start).
    const activation = (await workbench.driver<{ value: { ms: number } }>('activation')).value;
    await run(workbench, panel);
    console.log(`(this workbench's activation, activate() entry -> return: ${activation.ms.toFixed(1)} ms)`);
  } finally {
    await workbench.close();
  }
}
