import * as assert from 'node:assert/strict';
import { quietFor, remainingMs } from '../harness/deadline';
import { useTheme } from './auditHelpers';
import { button, invoke, toolResult, waitForRequest, type ToolCall } from './panelHelpers';
import { useWorkbench } from './workbench';

/** Before asserting that no page opened: time for a page the click would have opened to appear. */
const NO_POPUP_MS = 1000;

const TABLE_AND_CODE = [
  'Two ways to **store sessions**:',
  '',
  '| Store | Latency | Cost |',
  '|:--|:-:|--:|',
  '| Redis | ~1 ms | $$ |',
  '| Postgres | ~5 ms | $ |',
  '',
  '```ts',
  'export async function load(id: string): Promise<Session | undefined> {',
  '  const row = await db.query("select * from sessions where id = $1", [id]);',
  '  return row ? parse(row) : undefined; // 42',
  '}',
  '```',
].join('\n');

const FOUR_BACKTICKS = ['The README should hold this example:', '', '````markdown', '# Setup', '```sh', 'npm ci', '```', 'Then run it.', '````', '', 'After the fence.'].join('\n');

const LINK_URL = 'https://agent-questions.example/docs?from=panel';

suite('Question panel: the agent’s markdown', () => {
  const ui = useWorkbench();

  async function ask(input: object, header: string): Promise<ToolCall> {
    const call = await invoke(ui.workbench, input);
    await waitForRequest(ui.panel, header);
    return call;
  }

  async function rejectShown(call: ToolCall): Promise<void> {
    await button(ui.panel, 'reject').click();
    await button(ui.panel, 'confirm-reject').click();
    assert.equal((await toolResult(ui.workbench, call)).json.status, 'rejected');
    await ui.panel.locator('.empty').waitFor();
  }

  /** Screenshots the workbench in the light and the dark theme; returns what `probe` reads in each. */
  async function inLightAndDark<T>(name: string, probe: () => Promise<T>): Promise<T[]> {
    const seen: T[] = [];
    for (const [theme, suffix] of [
      ['Default Light Modern', 'light'],
      ['Default Dark Modern', 'dark'],
    ] as const) {
      await useTheme(ui.workbench, theme);
      seen.push(await probe());
      await ui.workbench.screenshot(`${name}-${suffix}`);
    }
    await useTheme(ui.workbench, null);
    return seen;
  }

  test('a table and highlighted TypeScript in the context, in the theme’s colours', async () => {
    const call = await ask(
      { context: TABLE_AND_CODE, questions: [{ id: 'store', header: 'Store', question: 'Which session store?', options: [{ label: 'Redis' }, { label: 'Postgres' }] }] },
      'Store',
    );
    const context = ui.panel.locator('.questions-request > .markdown');
    await context.locator('table').waitFor();
    const table = await context.locator('table').evaluate((t: HTMLTableElement) => ({
      head: [...t.tHead!.rows[0]!.cells].map((c) => c.textContent),
      rows: [...t.tBodies[0]!.rows].map((r) => [...r.cells].map((c) => c.textContent)),
      align: [...t.tBodies[0]!.rows[0]!.cells].map((c) => getComputedStyle(c).textAlign),
    }));
    assert.deepEqual(table, {
      head: ['Store', 'Latency', 'Cost'],
      rows: [
        ['Redis', '~1 ms', '$$'],
        ['Postgres', '~5 ms', '$'],
      ],
      align: ['left', 'center', 'right'],
    });
    assert.equal(await context.locator('strong').textContent(), 'store sessions');

    const code = context.locator('pre[data-lang="ts"] code');
    assert.equal(await code.count(), 1);
    assert.equal(await code.textContent(), TABLE_AND_CODE.split('```ts\n')[1]!.split('\n```')[0]);
    const classes = await code.locator('span').evaluateAll((spans) => spans.flatMap((s) => [...s.classList]));
    assert.ok(classes.includes('hljs-keyword') && classes.includes('hljs-string') && classes.includes('hljs-comment'), `token classes: ${[...new Set(classes)].join(' ')}`);
    assert.deepEqual(
      classes.filter((c) => !c.startsWith('hljs-')),
      [],
      'only hljs-* classes',
    );

    const colours = await inLightAndDark('markdown-table-and-code', () =>
      code.evaluate((element) => {
        const colour = (selector: string) => getComputedStyle(element.querySelector(selector)!).color;
        return { plain: getComputedStyle(element).color, keyword: colour('.hljs-keyword'), string: colour('.hljs-string'), comment: colour('.hljs-comment') };
      }),
    );
    for (const [index, c] of colours.entries()) {
      assert.notEqual(c.keyword, c.plain, `theme ${index}: keywords are coloured`);
      assert.notEqual(c.string, c.plain, `theme ${index}: strings are coloured`);
      assert.notEqual(c.keyword, c.string, `theme ${index}: keywords and strings differ`);
    }
    assert.notEqual(colours[0]!.keyword, colours[1]!.keyword, 'the keyword colour follows the theme');
    await rejectShown(call);
  });

  test('a fence of four backticks holding a three-backtick fence stays one code block', async () => {
    const call = await ask(
      { context: FOUR_BACKTICKS, questions: [{ id: 'ok', header: 'Fence', question: 'Does the README look right?', options: [{ label: 'Yes' }, { label: 'No' }] }] },
      'Fence',
    );
    const context = ui.panel.locator('.questions-request > .markdown');
    await context.locator('pre').first().waitFor();
    assert.equal(await context.locator('pre').count(), 1);
    assert.equal(await context.locator('pre code').textContent(), '# Setup\n```sh\nnpm ci\n```\nThen run it.');
    assert.deepEqual(await context.locator(':scope > p').allTextContents(), ['The README should hold this example:', 'After the fence.']);
    await inLightAndDark('markdown-four-backticks', async () => undefined);
    await rejectShown(call);
  });

  test('a question’s detail is markdown under the question text', async () => {
    const detail = 'Pick the **retry policy**:\n\n- `exponential`: 1 s, 2 s, 4 s\n- `fixed`: every 5 s\n\n> Retries stop after *five* attempts.';
    const call = await ask(
      { questions: [{ id: 'retry', header: 'Retries', question: 'How should failed jobs retry?', detail, options: [{ label: 'Exponential' }, { label: 'Fixed' }] }] },
      'Retries',
    );
    const rendered = ui.panel.locator('.question .question-detail .markdown');
    await rendered.waitFor();
    const seen = await ui.panel.locator('.question').evaluate((question) => ({
      order: [...question.children].map((c) => c.className),
      headingThenDetail: question.querySelector('.question-heading')!.nextElementSibling!.className,
      strong: question.querySelector('.question-detail strong')?.textContent,
      items: [...question.querySelectorAll('.question-detail li')].map((li) => li.textContent),
      codes: [...question.querySelectorAll('.question-detail li code')].map((c) => c.textContent),
      quote: question.querySelector('.question-detail blockquote em')?.textContent,
    }));
    assert.equal(seen.headingThenDetail, 'question-detail', `order: ${seen.order.join(', ')}`);
    assert.equal(seen.strong, 'retry policy');
    assert.deepEqual(seen.items, ['exponential: 1 s, 2 s, 4 s', 'fixed: every 5 s']);
    assert.deepEqual(seen.codes, ['exponential', 'fixed']);
    assert.equal(seen.quote, 'five');
    await inLightAndDark('markdown-detail', async () => undefined);
    await rejectShown(call);
  });

  test('a link opens only through VS Code’s confirmation; other schemes are text', async () => {
    const context = `Read [the docs](${LINK_URL}) first. Not links: [run](command:workbench.action.reloadWindow), [js](javascript:alert(1)), <vscode:extension/x.y>.`;
    const call = await ask({ context, questions: [{ id: 'read', header: 'Docs', question: 'Did you read the docs?', options: [{ label: 'Yes' }, { label: 'No' }] }] }, 'Docs');
    const link = ui.panel.locator('.markdown a.md-link');
    await link.waitFor();
    assert.equal(await ui.panel.locator('.markdown a.md-link').count(), 1, 'one link: the https one');
    assert.equal(await link.textContent(), 'the docs');
    assert.equal(await link.getAttribute('href'), null, 'no href: the webview itself never navigates');
    assert.equal(await ui.panel.locator('.markdown .md-link-group .link-target').textContent(), ` (${LINK_URL})`, 'the target is shown');
    const text = await ui.panel.locator('.questions-request > .markdown').textContent();
    for (const literal of ['[run](command:workbench.action.reloadWindow)', '[js](javascript:alert(1))', '<vscode:extension/x.y>'])
      assert.ok(text!.includes(literal), `stays text: ${literal}`);

    // code-server 1.139 asks before opening a site that is not a trusted domain: the question, the address, and Cancel / Open.
    const browser = ui.workbench.page.context();
    const opened: string[] = [];
    browser.on('page', (page) => opened.push(page.url()));
    const dialog = ui.workbench.page.locator('.monaco-dialog-box');
    const confirmation = async () => {
      await dialog.waitFor();
      assert.equal(await dialog.locator('.dialog-message-text').textContent(), 'Do you want code-server to open the external website?');
      assert.equal(await dialog.locator('.dialog-message-detail').textContent(), LINK_URL);
    };
    await link.click();
    await confirmation();
    await ui.workbench.screenshot('markdown-link-confirmation');
    await dialog.locator('.monaco-button', { hasText: /^Cancel$/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await quietFor(NO_POPUP_MS);
    assert.deepEqual(opened, [], 'Cancel opens nothing');

    // The keyboard follows the link too, and Enter on it never answers the question.
    await link.focus();
    await link.press('Enter');
    await confirmation();
    await ui.workbench.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await quietFor(NO_POPUP_MS);
    assert.deepEqual(opened, [], 'Escape opens nothing');
    assert.equal((await ui.workbench.driver<unknown[]>('list')).length, 1, 'the question still waits');

    // Open is what opens it, so "nothing opened" above could have failed.
    await link.click();
    await confirmation();
    // The browser context's own timeout does not follow the test's deadline (the page's does).
    const popup = browser.waitForEvent('page', { timeout: remainingMs() });
    await dialog.locator('.monaco-button', { hasText: /^Open$/ }).click();
    await (await popup).close();
    assert.equal(opened.length, 1);
    await rejectShown(call);
  });
});
