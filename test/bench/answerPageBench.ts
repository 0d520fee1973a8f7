// Part of npm run bench: the answer page on a phone-sized headless Chromium (360x740, touch) over
// the loopback, no code-server: a new link to the page interactive (its first control on screen,
// the page's script run), and what the page costs to transfer. The targets: <= 1 s, <= 50 KB.
import { performance } from 'node:perf_hooks';
import { QuestionBroker, type NewPermissionRequest, type NewQuestionRequest } from '../../src/broker/broker';
import { renderMarkdownTree } from '../../src/broker/markdown/markdownRender';
import { AnswerPageServer } from '../../src/answerPage/answerPageServer';
import { launchBrowser } from '../harness/codeServer.mjs';
import { median, runBench } from './benchKit';

const RUNS = 15;
const TARGET_MS = 1000;
const TARGET_BYTES = 50 * 1024;
const PHONE = { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } as const;

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

runBench(async () => {
  let next = 0;
  const broker = new QuestionBroker({ newId: () => `r${++next}` });
  const server = new AnswerPageServer(broker, { linkTtlMs: 60_000, renderMarkdown: renderMarkdownTree });
  await server.start();
  const browser = await launchBrowser();
  const results: Record<string, { total: number[]; domInteractive: number[]; bytes: number }> = {};
  let queued = '';
  try {
    for (const [name, ask] of [
      ['question', () => broker.ask(QUESTION, { onQueued: (id) => (queued = id) })],
      ['approval', () => broker.requestPermission(APPROVAL, { onQueued: (id) => (queued = id) })],
    ] as const) {
      const result = (results[name] = { total: [] as number[], domInteractive: [] as number[], bytes: 0 });
      for (let run = 0; run < RUNS + 1; run++) {
        void ask();
        // A fresh context each run: nothing cached (the page is no-store anyway).
        const context = await browser.newContext(PHONE);
        const page = await context.newPage();
        let bytes = 0;
        page.on('response', async (response) => {
          const headers = await response.headersArray();
          bytes += headers.reduce((sum, h) => sum + h.name.length + h.value.length + 4, 0) + (await response.body()).length;
        });
        const started = performance.now();
        const url = server.urlFor(queued)!;
        await page.goto(url, { waitUntil: 'commit' });
        await page.locator('form input:not([type=hidden]), form button').first().waitFor({ state: 'visible' });
        const total = performance.now() - started;
        const domInteractive = await page.evaluate(() => (window.performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domInteractive);
        await context.close();
        broker.cancel(queued, { by: 'asker' });
        // The first run warms the browser up.
        if (run === 0) continue;
        result.total.push(total);
        result.domInteractive.push(domInteractive);
        result.bytes = Math.max(result.bytes, bytes);
      }
    }
  } finally {
    await browser.close();
    server.dispose();
    await server.stop();
    broker.dispose();
  }
  console.log(`\nAnswer page on a phone viewport (360x740, headless Chromium, loopback, no code-server), medians over ${RUNS} runs`);
  for (const [name, r] of Object.entries(results)) {
    const total = median(r.total);
    console.log(
      `${name.padEnd(9)} new link -> page interactive   ${total.toFixed(0)} ms (target <= ${TARGET_MS} ms)  navigation -> domInteractive ${median(r.domInteractive).toFixed(0)} ms  transfer ${(r.bytes / 1024).toFixed(1)} KB (target <= ${TARGET_BYTES / 1024} KB)`,
    );
    if (total > TARGET_MS || r.bytes > TARGET_BYTES) process.exitCode = 1;
  }
});
