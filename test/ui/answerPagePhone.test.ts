// The answer page on a phone-sized Chromium (360x740, touch), without code-server: a question and
// an approval answered by tapping, and a page whose request was answered in the panel saying so.
// Screenshots in light and dark go to test-results/answer-page/.
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { QuestionBroker, type NewPermissionRequest, type NewQuestionRequest } from '../../src/broker/broker';
import { renderMarkdownTree } from '../../src/broker/markdown/markdownRender';
import { AnswerPageServer } from '../../src/answerPage/answerPageServer';
import { launchBrowser } from '../harness/codeServer.mjs';
import { assertPhoneLayout, openPhone, type Phone } from './phone';
import { RESULTS } from './workbench';

const SHOTS = join(RESULTS, 'answer-page');

const QUESTION: NewQuestionRequest = {
  source: { type: 'tool', label: 'Copilot' },
  context: 'The migration needs a database. The **current** setup writes to `data/app.db`.',
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the billing service use?',
      kind: 'single',
      options: [
        { label: 'SQLite', description: 'One file next to the code; nothing to run.', recommended: true },
        { label: 'PostgreSQL', description: 'The existing cluster; needs a connection string.' },
      ],
      allowOther: true,
    },
  ],
};

const APPROVAL: NewPermissionRequest = {
  source: { type: 'mcp', label: 'Claude Code' },
  title: 'Claude Code wants to run a command',
  detail: 'npm test',
  toolCall: {
    tool: 'Bash',
    command: 'npm test -- --grep "billing" && git status --short',
    fields: [{ name: 'description', value: 'Run the billing tests' }],
    warnings: [],
    summary: 'Runs npm and git; writes nothing.',
  },
  rememberOptions: [{ key: 'npm test', label: 'npm test …', description: 'Commands starting with npm test.' }],
};

suite('answer page on a phone', () => {
  let browser: Browser;
  let broker: QuestionBroker;
  let server: AnswerPageServer;
  let next = 0;

  suiteSetup(async function () {
    mkdirSync(SHOTS, { recursive: true });
    broker = new QuestionBroker({ newId: () => `r${++next}` });
    server = new AnswerPageServer(broker, { linkTtlMs: 10 * 60_000, renderMarkdown: renderMarkdownTree });
    await server.start();
    browser = await launchBrowser();
  });

  suiteTeardown(async () => {
    await browser?.close();
    server?.dispose();
    await server?.stop();
    broker?.dispose();
  });

  const phone = (scheme: 'light' | 'dark'): Promise<Phone> => openPhone(browser, scheme);

  for (const scheme of ['light', 'dark'] as const) {
    test(`a question answered by tapping (${scheme})`, async function () {
      let id = '';
      const response = broker.ask(QUESTION, { onQueued: (queued) => (id = queued) });
      const { context, page, errors } = await phone(scheme);
      try {
        await page.goto(server.urlFor(id)!);
        await page.getByRole('radio', { name: /PostgreSQL/ }).waitFor();
        await assertPhoneLayout(page);
        await page.screenshot({ path: join(SHOTS, `question-${scheme}.png`), fullPage: true });
        await page.getByRole('radio', { name: /PostgreSQL/ }).tap();
        await page.getByRole('button', { name: 'Send answers' }).tap();
        await page.getByRole('heading', { name: 'Answered' }).waitFor();
        assert.deepEqual((await response).answers, { database: { selected: ['PostgreSQL'], skipped: false } });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    test(`an approval allowed once by tapping, with no Always allow (${scheme})`, async function () {
      let id = '';
      const response = broker.requestPermission(APPROVAL, { onQueued: (queued) => (id = queued) });
      const { context, page, errors } = await phone(scheme);
      try {
        await page.goto(server.urlFor(id)!);
        await page.getByText('npm test -- --grep "billing" && git status --short', { exact: true }).waitFor();
        await page.getByText('Runs npm and git; writes nothing.').waitFor();
        assert.equal(await page.getByRole('button', { name: /Always/ }).count(), 0);
        await assertPhoneLayout(page);
        await page.screenshot({ path: join(SHOTS, `approval-${scheme}.png`), fullPage: true });
        await page.getByRole('button', { name: 'Allow once' }).tap();
        await page.getByRole('heading', { name: 'Answered' }).waitFor();
        assert.deepEqual(await response, { requestId: id, status: 'answered', decision: 'allow_once' });
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });

    test(`answered in the panel: the open page says "No longer waiting" (${scheme})`, async function () {
      let id = '';
      const response = broker.ask(QUESTION, { onQueued: (queued) => (id = queued) });
      const { context, page, errors } = await phone(scheme);
      try {
        await page.goto(server.urlFor(id)!);
        await page.getByRole('button', { name: 'Send answers' }).waitFor();
        assert.equal(broker.reply(id, { database: { selected: ['SQLite'], skipped: false } }, { by: 'user', where: 'panel' }), true);
        await page.getByRole('heading', { name: 'No longer waiting' }).waitFor();
        assert.equal(await page.getByRole('button', { name: 'Send answers' }).count(), 0);
        await page.screenshot({ path: join(SHOTS, `no-longer-waiting-${scheme}.png`), fullPage: true });
        assert.equal((await response).answers?.['database']?.selected[0], 'SQLite');
        // The page learns it from its state check's 404 (the uniform one), which Chromium logs.
        assert.deepEqual(
          errors.filter((e) => !/status of 404/.test(e)),
          [],
        );
      } finally {
        await context.close();
      }
    });
  }

  test('prevents a check of an answered request while the answer is on its way: nothing is fetched and nothing logged', async function () {
    let id = '';
    const response = broker.ask(QUESTION, { onQueued: (queued) => (id = queued) });
    const { context, page, errors } = await phone('light');
    try {
      // The answer reaches the server, which settles the request, but its reply is held, as a slow
      // network or a busy phone holds it; the page's script keeps running meanwhile.
      let answerSent = false;
      const checksAfterAnswer: string[] = [];
      page.on('request', (request) => {
        if (answerSent && new URL(request.url()).pathname.endsWith('/state')) checksAfterAnswer.push(request.url());
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname.endsWith('/answer'),
        async (route) => {
          if (route.request().method() !== 'POST') return route.continue();
          answerSent = true;
          const reply = await route.fetch();
          await released;
          await route.fulfill({ response: reply });
        },
      );
      await page.goto(server.urlFor(id)!);
      await page.getByRole('radio', { name: /PostgreSQL/ }).tap();
      // The page checks every 2 s: a timer of the page's own, set at the answer for 2.5 s, comes due
      // after the next check would have (page scripts cannot be evaluated while the form navigates).
      await page.evaluate(() => document.querySelector('form')!.addEventListener('submit', () => setTimeout(() => console.log('a check was due'), 2500)));
      const due = page.waitForEvent('console', (message) => message.text() === 'a check was due');
      await page.getByRole('button', { name: 'Send answers' }).tap();
      assert.deepEqual((await response).answers, { database: { selected: ['PostgreSQL'], skipped: false } });
      await due;
      assert.deepEqual(checksAfterAnswer, []);
      release();
      await page.getByRole('heading', { name: 'Answered' }).waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('a page of another site that frames the link sees nothing of it, and the request and the link are as they were', async function () {
    let id = '';
    const response = broker.ask(QUESTION, { onQueued: (queued) => (id = queued) });
    const link = server.urlFor(id)!;
    // Another site (another port is another origin) that frames the link, as a clickjacking page would.
    const attacker = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<iframe id="page" src="${link}"></iframe>`));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const { context, page } = await phone('light');
    try {
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      const frame = await (await page.locator('#page').elementHandle())!.contentFrame();
      // Chromium refuses to render it (frame-ancestors 'none'): the frame holds its error page, nothing of ours.
      await page.waitForFunction(() => (document.getElementById('page') as HTMLIFrameElement | null)?.contentWindow !== null);
      assert.equal(await frame!.locator('input, button, form').count(), 0);
      assert.doesNotMatch(await frame!.content(), /Which database|PostgreSQL/);
      assert.equal(broker.list().length, 1, 'the request still waits');
      // The link still opens and answers: framing it used nothing up.
      const direct = await context.newPage();
      await direct.goto(link);
      await direct.getByRole('radio', { name: /SQLite/ }).tap();
      await direct.getByRole('button', { name: 'Send answers' }).tap();
      await direct.getByRole('heading', { name: 'Answered' }).waitFor();
      assert.equal((await response).answers?.['database']?.selected[0], 'SQLite');
    } finally {
      await context.close();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });
});
