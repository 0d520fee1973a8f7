// Part of npm run bench: the long-wait return path of the real agent loop (VS Code's agent mode, the
// scripted model). ask_user is answered through the API (the panel is not involved) after no wait
// and after a long one; medians of answer -> the model's next request carries the answer, and the
// ratio long wait / no wait. The comparison is a plain test tool (test/fixtures/driver) held as long
// that returns new text each time, as ask_user does (every result names its request id and the
// user's answer). Both times are taken in the extension host, on the same clock.
//
// What a long wait costs (traced with CPU profiles and the RPC log): Copilot Chat counts the tokens of every prompt
// string it has not seen before in a TikToken worker thread, and ends that worker 15 s after its last
// use; the first new string after that waits for a new worker to load its token file (1-2 s here).
// A tool result that repeats an earlier one is answered from Copilot's token-count cache instead.
// ask_user keeps that worker alive while it waits (src/extension/tokenizerKeepWarm.ts); the held test
// tool does not, so it still shows the cost. The bench fails when ask_user's ratio is over TARGET.
import { typePrompt, finalReply, type ReceivedRequest } from '../agent/chat';
import type { Workbench } from '../ui/workbench';
import { median, runBench } from './benchKit';
import { inWorkbench } from './benchWorkbench';
import { startProfiles, type Profiles } from './cpuProfile';

const ROUNDS = Number(process.env.AGENT_QUESTIONS_BENCH_ROUNDS ?? 5);
/** The held tool only shows what a long wait costs without keep-warm; fewer rounds suffice. */
const HELD_ROUNDS = Number(process.env.AGENT_QUESTIONS_BENCH_HELD_ROUNDS ?? 1);
/** Seconds; the first is the baseline. */
const WAITS = (process.env.AGENT_QUESTIONS_BENCH_WAITS ?? '0,45').split(',').map(Number);
const TARGET = 1.15;
/** With AGENT_QUESTIONS_BENCH_PROFILE=1, each ask_user turn is CPU-profiled in the extension host and in the workbench page, and each one's top functions from the answer to the model's request printed. */
const PROFILE = process.env.AGENT_QUESTIONS_BENCH_PROFILE === '1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Tool = 'ask_user' | 'held tool';
type Mark = { name: string; at: number };
type Turn = { ms: number; split?: string; profiles?: Profiles };

/** Waits until the scripted model has received a request after `since` that contains `text`. */
async function nextModelRequest(workbench: Workbench, since: number, text: string): Promise<number> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const hit = (await workbench.driver<ReceivedRequest[]>('received')).find((r) => r.at >= since && r.parts.includes(text));
    if (hit) return hit.at;
    await sleep(50);
  }
  throw new Error(`the model received no request containing ${JSON.stringify(text)} within 30 s`);
}

/** ask_user's turn step by step, as the no-wait path is split: answer -> the broker settles it -> invoke resumes -> returns -> the model's request; and the keep-warm counts. */
function askUserSplit(marks: Mark[], answeredAt: number, modelAt: number): string {
  const at = (name: string) => marks.find((m) => m.name === name)?.at ?? NaN;
  const counts = marks.filter((m) => m.name === 'keep warm').map((m) => m.at);
  const counted = marks.filter((m) => m.name === 'keep warm counted').map((m) => m.at);
  const countMs = counts.map((sent, i) => (counted[i] ?? NaN) - sent);
  const steps: Array<[string, number]> = [
    ['answer', answeredAt],
    ['settled', at('settled')],
    ['invoke resumes', at('answer in invoke')],
    ['invoke returns', at('invoke returns')],
    ['model', modelAt],
  ];
  const split = steps
    .slice(1)
    .map(([name, t], i) => `-> ${name} ${t - steps[i]![1]}`)
    .join(' ');
  const warm = counts.length
    ? `; keep-warm counts ${counts.length} (each ${countMs.join('/')} ms, last ${Math.round((answeredAt - counts.at(-1)!) / 1000)} s before the answer)`
    : '';
  return `answer ${split} ms${warm}`;
}

/** One agent turn: the tool is called, answered `waitMs` after it started; returns answer -> model's next request. */
async function oneTurn(workbench: Workbench, tool: Tool, waitMs: number): Promise<Turn> {
  const { page, driver } = workbench;
  const chat = await typePrompt(workbench, tool === 'ask_user' ? 'Which database? scenario:database' : 'Hold on. scenario:hold');
  let answeredAt: number;
  let profiling: Awaited<ReturnType<typeof startProfiles>> | undefined;
  if (tool === 'ask_user') {
    await driver('marks', { keepOn: true });
    if (PROFILE) profiling = await startProfiles(workbench);
    const watch = await driver<{ callId: number }>('watchAdded');
    await page.keyboard.press('Enter');
    const { value } = await driver<{ value: { requestId: string; addedAt: number } }>('await', { callId: watch.callId });
    await sleep(value.addedAt + waitMs - Date.now());
    answeredAt = (await driver<{ at: number }>('reply', { requestId: value.requestId, answers: { database: { selected: ['SQLite'], skipped: false } } })).at;
  } else {
    await page.keyboard.press('Enter');
    let heldAt: number | null = null;
    for (let attempt = 0; attempt < 1200 && heldAt === null; attempt++) {
      heldAt = (await driver<{ heldAt: number | null }>('held')).heldAt;
      if (heldAt === null) await sleep(50);
    }
    if (heldAt === null) throw new Error('the held test tool was not called within 60 s');
    await sleep(heldAt + waitMs - Date.now());
    answeredAt = (await driver<{ at: number }>('releaseHold', { text: `HELD TOOL RELEASED ${Date.now().toString(36)}` })).at;
  }
  const modelAt = await nextModelRequest(workbench, answeredAt, tool === 'ask_user' ? 'The user answered 1 question' : 'HELD TOOL RELEASED');
  const profiles = await profiling?.stop(answeredAt, modelAt);
  await finalReply(chat);
  if (tool !== 'ask_user') return { ms: modelAt - answeredAt };
  const marks = (await driver<{ value: Mark[] }>('marks', { keepOn: false })).value;
  return { ms: modelAt - answeredAt, split: askUserSplit(marks, answeredAt, modelAt), ...(profiles ? { profiles } : {}) };
}

async function main() {
  await inWorkbench(async (workbench) => {
    const tools: Tool[] = ['ask_user', 'held tool'];
    const times = new Map<string, number[]>();
    const splits: string[] = [];
    // The warm-up turns also enable the built-in agent; they are not counted.
    for (const tool of tools) await oneTurn(workbench, tool, 0);
    for (let round = 0; round < ROUNDS; round++) {
      for (const tool of tools) {
        if (tool === 'held tool' && round >= HELD_ROUNDS) continue;
        for (const wait of WAITS) {
          const key = `${tool} ${wait}`;
          const turn = await oneTurn(workbench, tool, wait * 1000);
          times.set(key, [...(times.get(key) ?? []), turn.ms]);
          if (turn.split) splits.push(`round ${round + 1}, ${wait} s: ${turn.ms} ms = ${turn.split}`);
          for (const [where, profile] of Object.entries(turn.profiles ?? {})) splits.push(`  ${where} busy ${profile.busyMs} ms:\n      ${profile.top.join('\n      ')}`);
        }
      }
    }

    console.log(`\nLong-wait return path in the real agent loop (answered through the API), medians over ${ROUNDS} rounds (held tool: ${HELD_ROUNDS})`);
    const ratios = new Map<string, number>();
    for (const tool of tools) {
      const base = Math.max(median(times.get(`${tool} ${WAITS[0]}`)!), 1);
      for (const wait of WAITS) {
        const all = times.get(`${tool} ${wait}`)!;
        if (wait !== WAITS[0]) ratios.set(`${tool} ${wait}`, median(all) / base);
        const ratio = wait === WAITS[0] ? '(baseline)' : `ratio ${(median(all) / base).toFixed(2)}x${tool === 'ask_user' ? ` (target <= ${TARGET}x)` : ''}`;
        console.log(
          `${tool.padEnd(9)} answered after ${String(wait).padStart(2)} s -> model's next request  ${String(median(all)).padStart(5)} ms  ${ratio}  (all: ${all.join(' ')})`,
        );
      }
    }
    console.log('  (held tool: a plain test tool returning new text each time, nothing kept warm: after more than 15 s it waits for Copilot Chat to restart its tokenizer worker)');
    console.log('ask_user, each round:');
    for (const line of splits) console.log(`  ${line}`);
    const over = WAITS.slice(1).filter((wait) => ratios.get(`ask_user ${wait}`)! > TARGET);
    if (over.length) {
      console.log(`Long-wait check FAILED: ask_user after ${over.join(', ')} s is over ${TARGET}x the no-wait figure`);
      process.exitCode = 1;
    } else console.log(`Long-wait check passed: ask_user after ${WAITS.slice(1).join(', ')} s is within ${TARGET}x the no-wait figure`);
  });
}

runBench(main);
