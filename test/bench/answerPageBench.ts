// Part of npm run bench: the answer page on a phone-sized headless Chromium (360x740, touch) over
// the loopback, no code-server, reached the way a user reaches it: a request waits unseen, the real
// Nudger sends its nudge as a webhook's JSON POST to a local receiver, and the phone opens the
// message's answerUrl. Measured: nudge sent -> page interactive (its first control on screen, the
// page's script run), and what the page costs to transfer. The targets: <= 1 s, <= 50 KB.
import { performance } from 'node:perf_hooks';
import { QuestionBroker, type NewPermissionRequest, type NewQuestionRequest } from '../../src/broker/broker';
import { renderMarkdownTree } from '../../src/broker/markdown/markdownRender';
import { Nudger, type NudgeMessage } from '../../src/broker/nudges';
import { AnswerPageServer } from '../../src/answerPage/answerPageServer';
import { launchBrowser } from '../harness/codeServer.mjs';
import { startWebhookReceiver } from '../harness/webhookReceiver';
import { PHONE } from '../ui/phone';
import { median, runBench } from './benchKit';

const RUNS = 15;
const TARGET_MS = 1000;
const TARGET_BYTES = 50 * 1024;
// The nudge is due 1 ms after a request arrives unseen (0 turns nudges off); the clock starts when it is sent.
const NUDGE = { afterMs: 1, reminderAfterMs: 0, maxPerHour: 1000, includeQuestionText: false, includeCommandText: false };

const QUESTION: NewQuestionRequest = {
  source: { type: 'tool', label: 'Copilot' },
  context: 'The migration needs a database. The **current** setup writes to `data/app.db`:\n\n```sql\nCREATE TABLE invoices (id integer PRIMARY KEY, total integer);\n```',
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the billing service use?',
      kind: 'single',
      options: [
        { label: 'SQLite', description: 'One file next to the code.', recommended: true },
        { label: 'PostgreSQL', description: 'The existing cluster.' },
        { label: 'MySQL' },
      ],
      allowOther: true,
    },
    { id: 'name', header: 'Name', question: 'What should the service be called?', kind: 'text', options: [], allowOther: false },
  ],
};

const APPROVAL: NewPermissionRequest = {
  source: { type: 'mcp', label: 'Claude Code' },
  title: 'Claude Code wants to run a command',
  detail: 'npm test',
  toolCall: { tool: 'Bash', command: 'npm test -- --grep "billing" && git status --short', fields: [], warnings: [], summary: 'Runs npm and git; writes nothing.' },
};

/** A webhook on 127.0.0.1 (test/harness/webhookReceiver.ts): each POSTed nudge's answerUrl goes to whoever waits for the next one. */
async function startNudgeReceiver() {
  let waiter: { resolve: (answerUrl: string) => void; reject: (error: Error) => void } | undefined;
  const receiver = await startWebhookReceiver(({ body }) => {
    const { answerUrl } = body as Partial<NudgeMessage>;
    if (answerUrl) waiter?.resolve(answerUrl);
    else waiter?.reject(new Error('The nudge carried no answerUrl'));
    waiter = undefined;
  });
  return {
    url: `${receiver.origin}/nudge`,
    /** The link in the next nudge this receiver gets. */
    nextLink: () => new Promise<string>((resolve, reject) => (waiter = { resolve, reject })),
    fail: (error: Error) => waiter?.reject(error),
    close: receiver.close,
  };
}

runBench(async () => {
  let next = 0;
  const broker = new QuestionBroker({ newId: () => `r${++next}` });
  const server = new AnswerPageServer(broker, { linkTtlMs: 60_000, renderMarkdown: renderMarkdownTree });
  await server.start();
  const receiver = await startNudgeReceiver();
  let sentAt = 0;
  const nudger = new Nudger({
    settings: () => NUDGE,
    pending: () => broker.list(),
    isSeen: () => false,
    workspace: () => 'bench',
    answerUrl: async (id) => server.urlFor(id),
    send: async (message) => {
      sentAt = performance.now();
      const response = await fetch(receiver.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
      if (!response.ok) throw Object.assign(new Error('webhook refused'), { status: response.status });
      return true;
    },
    // The Nudger logs only what went wrong (a failed send, the hourly limit): the run cannot go on.
    log: (message) => receiver.fail(new Error(message)),
  });
  const watching = broker.onDidChange((change) => (change.type === 'added' ? nudger.added(change.request) : nudger.settled(change.request.id)));
  const browser = await launchBrowser();
  const results: Record<string, { total: number[]; delivered: number[]; domInteractive: number[]; bytes: number }> = {};
  let queued = '';
  try {
    for (const [name, ask] of [
      ['question', () => broker.ask(QUESTION, { onQueued: (id) => (queued = id) })],
      ['approval', () => broker.requestPermission(APPROVAL, { onQueued: (id) => (queued = id) })],
    ] as const) {
      const result = (results[name] = { total: [] as number[], delivered: [] as number[], domInteractive: [] as number[], bytes: 0 });
      for (let run = 0; run < RUNS + 1; run++) {
        // The phone is on before the nudge: a fresh context each run, nothing cached (the page is no-store anyway).
        const context = await browser.newContext(PHONE);
        const page = await context.newPage();
        let bytes = 0;
        page.on('response', async (response) => {
          const headers = await response.headersArray();
          bytes += headers.reduce((sum, h) => sum + h.name.length + h.value.length + 4, 0) + (await response.body()).length;
        });
        const link = receiver.nextLink();
        void ask();
        const url = await link;
        const delivered = performance.now() - sentAt;
        await page.goto(url, { waitUntil: 'commit' });
        await page.locator('form input:not([type=hidden]), form button').first().waitFor({ state: 'visible' });
        const total = performance.now() - sentAt;
        const domInteractive = await page.evaluate(() => (window.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domInteractive);
        await context.close();
        broker.cancel(queued, { by: 'asker' });
        // The first run warms the browser up.
        if (run === 0) continue;
        result.total.push(total);
        result.delivered.push(delivered);
        result.domInteractive.push(domInteractive);
        result.bytes = Math.max(result.bytes, bytes);
      }
    }
  } finally {
    await browser.close();
    watching.dispose();
    nudger.dispose();
    await receiver.close();
    server.dispose();
    await server.stop();
    broker.dispose();
  }
  console.log(`\nAnswer page on a phone viewport (360x740, headless Chromium, loopback, no code-server), nudged through a local webhook, medians over ${RUNS} runs`);
  for (const [name, r] of Object.entries(results)) {
    const total = median(r.total);
    console.log(
      `${name.padEnd(9)} nudge sent -> page interactive   ${total.toFixed(0)} ms (target <= ${TARGET_MS} ms)  nudge sent -> link at the phone ${median(r.delivered).toFixed(0)} ms  navigation -> domInteractive ${median(r.domInteractive).toFixed(0)} ms  transfer ${(r.bytes / 1024).toFixed(1)} KB (target <= ${TARGET_BYTES / 1024} KB)`,
    );
    if (total > TARGET_MS || r.bytes > TARGET_BYTES) process.exitCode = 1;
  }
});
