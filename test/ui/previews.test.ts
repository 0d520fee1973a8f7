import * as assert from 'node:assert/strict';
import { until } from '../harness/deadline';
import { reloadWebviews, useTheme } from './auditHelpers';
import { button, invoke, toolResult, waitForRequest } from './panelHelpers';
import { useWorkbench } from './workbench';

const DATABASES = {
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database for the billing service?',
      options: [
        { label: 'PostgreSQL', description: 'A server next to the service.', preview: '**Server** database.\n\n```sql\nCREATE TABLE invoices (id serial PRIMARY KEY);\n```' },
        { label: 'SQLite', description: 'One file beside the code.', preview: 'File database: `billing.sqlite`\n\n- no server\n- one writer at a time' },
        { label: 'MongoDB' },
      ],
    },
  ],
};

const EXTRAS = {
  questions: [
    {
      id: 'extras',
      header: 'Extras',
      question: 'Which extras should the service use?',
      kind: 'multi',
      options: [
        { label: 'Redis', preview: 'Cache: `REDIS_URL` and a 5 minute TTL.' },
        { label: 'Kafka', preview: 'Events: one topic `billing.invoices`.' },
        { label: 'S3', preview: 'Blobs: invoices as PDF in one bucket.' },
      ],
    },
  ],
};

const RUN = 'window.__xss=1';
const PREVIEW_PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}"> and <svg onload="${RUN}">`,
  `[click me](javascript:${RUN}) <a href="javascript:${RUN}">x</a>`,
  `# <img src=x onerror=${RUN}>\n> <iframe src="javascript:${RUN}"></iframe>\n- <details open ontoggle=${RUN}>\n\`\`\`\n<script>${RUN}</script>\n\`\`\``,
  `![img](x" onerror="${RUN}) **<input autofocus onfocus=${RUN}>**`,
  `<style>@import 'javascript:${RUN}'</style><math><mtext><img src=x onerror=${RUN}>`,
];
const DANGEROUS =
  'script, img, svg, iframe, object, embed, video, audio, style, link, meta, base, form, math, template, a[href], input, [onerror], [onload], [onclick], [onfocus], [ontoggle]';

suite('Question panel: option previews, the note on the whole batch, the countdown', () => {
  const ui = useWorkbench();

  /** What the preview region shows: its label and its text. */
  async function shownPreview(): Promise<{ caption: string; body: string }> {
    return {
      caption: (await ui.panel.locator('.option-preview-caption').innerText()).trim(),
      body: (await ui.panel.locator('.option-preview-body').innerText()).trim(),
    };
  }

  /** Presses a key and checks the preview now shows `label` with text matching `body`, and that focus stayed on that option. */
  async function pressAndSee(key: string | undefined, label: string, body: RegExp, focusedValue: string): Promise<void> {
    if (key) await ui.workbench.page.keyboard.press(key);
    await ui.panel.locator('.option-preview-caption', { hasText: `Preview of ${label}` }).waitFor();
    const shown = await shownPreview();
    assert.equal(shown.caption, `Preview of ${label}`, `after ${key ?? 'focus'}`);
    assert.match(shown.body, body, `after ${key ?? 'focus'}: the preview of ${label}`);
    const focus = await ui.panel.evaluate(() => {
      const active = document.activeElement as HTMLElement & { value?: string };
      const region = document.querySelector('.option-preview')!;
      return {
        value: active.value,
        describedBy: active.getAttribute('aria-describedby'),
        regionId: region.id,
        regionName: document.getElementById(region.getAttribute('aria-labelledby')!)?.textContent,
      };
    });
    assert.equal(focus.value, focusedValue, 'focus stays on the option, never moves to the preview');
    assert.equal(focus.regionName, `Preview of ${label}`, 'the region is labelled after the option');
    if (!/No preview/.test(shown.body)) assert.equal(focus.describedBy, focus.regionId, 'the option is described by its preview');
  }

  async function inThemes(name: string): Promise<void> {
    for (const [theme, suffix] of [
      ['Default Light Modern', 'light'],
      ['Default Dark Modern', 'dark'],
    ] as const) {
      await useTheme(ui.workbench, theme);
      await ui.workbench.screenshot(`${name}-${suffix}`);
    }
    await useTheme(ui.workbench, null);
  }

  async function layout(): Promise<{ width: number; list: DOMRect; preview: DOMRect }> {
    return ui.panel.evaluate(() => ({
      width: window.innerWidth,
      list: document.querySelector('.choice-list')!.getBoundingClientRect().toJSON(),
      preview: document.querySelector('.option-preview')!.getBoundingClientRect().toJSON(),
    }));
  }

  /** Drags the sash on the side bar's right edge by `dx` pixels. */
  async function resizeSideBar(dx: number): Promise<void> {
    const { page } = ui.workbench;
    // The side bar that holds the Question view: the secondary one (next to the Chat) grows to the left.
    const sash = await page.evaluate(() => {
      const parts = [...document.querySelectorAll('.part.sidebar, .part.auxiliarybar')];
      const part = parts.find((p) => p.querySelector('.pane-header[aria-label^="Question"]')) ?? document.querySelector('.part.sidebar')!;
      const side = part.getBoundingClientRect();
      const inner = part.classList.contains('auxiliarybar') ? side.left : side.right;
      const rects = [...document.querySelectorAll('.monaco-sash.vertical')].map((s) => s.getBoundingClientRect());
      const edge = rects.filter((r) => r.height > side.height / 2).sort((a, b) => Math.abs(a.left + a.width / 2 - inner) - Math.abs(b.left + b.width / 2 - inner))[0];
      return edge ? { x: edge.left + edge.width / 2, y: edge.top + edge.height / 2, grows: inner === side.left ? -1 : 1 } : undefined;
    });
    assert.ok(sash, 'the side bar has a sash');
    const before = await layout();
    await page.mouse.move(sash.x, sash.y);
    await page.mouse.down();
    await page.mouse.move(sash.x + (sash.grows * dx) / 2, sash.y, { steps: 5 });
    await page.mouse.move(sash.x + sash.grows * dx, sash.y, { steps: 5 });
    await page.mouse.up();
    await page.mouse.move(640, 900);
    // The webview takes its new width a moment after the sash moves: until it has, and keeps it.
    let last = before.width;
    await until('the Question webview to take its new width', async () => {
      const { width } = await layout();
      const settled = width !== before.width && width === last;
      last = width;
      return settled;
    });
  }

  // A failed test must not leave its request in front of the next one.
  teardown(async () => {
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  test('single choice: the preview follows ArrowDown and ArrowUp and the mouse, options without one say so', async () => {
    const call = await invoke(ui.workbench, DATABASES);
    await waitForRequest(ui.panel, 'Which database for the billing service?');
    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    await ui.panel.locator('vscode-radio:focus').waitFor();
    await pressAndSee(undefined, 'PostgreSQL', /Server database\.[\s\S]*CREATE TABLE invoices/, 'PostgreSQL');
    await pressAndSee('ArrowDown', 'SQLite', /File database: billing\.sqlite[\s\S]*no server[\s\S]*one writer at a time/, 'SQLite');
    // Its tree follows the request once the question is on screen: rendered, not left as plain text.
    await ui.panel.locator('.option-preview-body .markdown li', { hasText: 'one writer at a time' }).waitFor();
    assert.equal(await ui.panel.locator('.option-preview-body .markdown-plain').count(), 0);
    await pressAndSee('ArrowDown', 'MongoDB', /^No preview$/, 'MongoDB');
    await pressAndSee('ArrowDown', 'Other…', /^No preview$/, '\u0000other');
    await pressAndSee('ArrowUp', 'MongoDB', /^No preview$/, 'MongoDB');
    await pressAndSee('ArrowUp', 'SQLite', /File database/, 'SQLite');

    // The mouse shows what it rests on; leaving the options brings back the one with focus.
    await ui.panel.locator('vscode-radio[value="PostgreSQL"]').hover();
    await ui.panel.locator('.option-preview-caption', { hasText: 'Preview of PostgreSQL' }).waitFor();
    await ui.panel.locator('.question-text').hover();
    await ui.panel.locator('.option-preview-caption', { hasText: 'Preview of SQLite' }).waitFor();
    await ui.workbench.page.keyboard.press('Enter');
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers.database, { selected: ['SQLite'], skipped: false });
  });

  test('multiple choice: the preview follows ArrowDown, ArrowUp and Tab between the checkboxes', async () => {
    const call = await invoke(ui.workbench, EXTRAS);
    await waitForRequest(ui.panel, 'Which extras should the service use?');
    await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
    await ui.panel.locator('vscode-checkbox:focus').waitFor();
    await pressAndSee(undefined, 'Redis', /^Cache: REDIS_URL and a 5 minute TTL\.$/, 'Redis');
    await pressAndSee('ArrowDown', 'Kafka', /^Events: one topic billing\.invoices\.$/, 'Kafka');
    await pressAndSee('ArrowDown', 'S3', /^Blobs: invoices as PDF in one bucket\.$/, 'S3');
    await pressAndSee('ArrowUp', 'Kafka', /^Events: one topic/, 'Kafka');
    await ui.workbench.page.keyboard.press('Space');
    await pressAndSee('Tab', 'S3', /^Blobs:/, 'S3');
    await pressAndSee('ArrowDown', 'Other…', /^No preview$/, '\u0000other');
    await pressAndSee('ArrowDown', 'Redis', /^Cache:/, 'Redis');
    await ui.workbench.page.keyboard.press('Control+Enter');
    assert.deepEqual((await toolResult(ui.workbench, call)).json.answers.extras, { selected: ['Kafka'], skipped: false });
  });

  test('the preview sits beside the options in a wide panel and below them in a narrow one', async () => {
    const call = await invoke(ui.workbench, DATABASES);
    await waitForRequest(ui.panel, 'Which database for the billing service?');
    await ui.panel.locator('vscode-radio[value="SQLite"]').click();
    await ui.panel.locator('.option-preview-caption', { hasText: 'Preview of SQLite' }).waitFor();
    await ui.workbench.page.mouse.move(640, 900);

    const narrow = await layout();
    assert.ok(narrow.width < 520, `the side bar starts narrow (${narrow.width} px)`);
    assert.ok(narrow.preview.top >= narrow.list.bottom - 1, `narrow: below the options (${JSON.stringify(narrow)})`);
    assert.ok(Math.abs(narrow.preview.left - narrow.list.left) < 2, 'narrow: aligned with the options');
    await ui.workbench.screenshot('previews-narrow-light');

    await resizeSideBar(450);
    const wide = await layout();
    assert.ok(wide.width >= 520, `the side bar got wide (${wide.width} px)`);
    assert.ok(wide.preview.left >= wide.list.right - 1, `wide: beside the options (${JSON.stringify(wide)})`);
    assert.ok(wide.preview.top < wide.list.bottom && wide.list.top < wide.preview.bottom, 'wide: side by side, not stacked');
    await inThemes('previews-wide');

    await resizeSideBar(-450);
    assert.ok((await layout()).width < 520, 'back to narrow');
    await button(ui.panel, 'submit').click();
    assert.equal((await toolResult(ui.workbench, call)).json.answers.database.selected[0], 'SQLite');
  });

  test('the note on the whole batch is kept as a draft and reaches the tool result as `note`', async () => {
    const { page } = ui.workbench;
    const call = await invoke(ui.workbench, {
      questions: [...DATABASES.questions, { id: 'service_name', header: 'Name', question: 'What should the service be called?', kind: 'text' }],
    });
    await waitForRequest(ui.panel, 'Which database for the billing service?');
    await ui.panel.locator('vscode-radio[value="PostgreSQL"]').click();
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-text-area').click();
    await page.keyboard.type('billing-api');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.review').waitFor();
    const note = ui.panel.locator('.batch-note');
    assert.match(await note.innerText(), /Note for the agent \(optional\)/, 'the field is labelled');
    await note.click();
    await page.keyboard.type('Both are for the staging cluster.');
    // Enter in the note is a new line, not Submit.
    await page.keyboard.press('Enter');
    await page.keyboard.type('Ask again before production.');
    assert.equal((await ui.workbench.driver<unknown[]>('list')).length, 1, 'Enter did not submit');

    await reloadWebviews(ui);
    await ui.panel.locator('.batch-note').waitFor();
    const typed = 'Both are for the staging cluster.\nAsk again before production.';
    assert.equal(await ui.panel.locator('.batch-note').evaluate((e) => (e as unknown as { value: string }).value), typed, 'the note survives a reload');
    await inThemes('batch-note');

    await button(ui.panel, 'submit').click();
    const { json, line } = await toolResult(ui.workbench, call);
    assert.equal(json.status, 'answered');
    assert.equal(json.note, typed);
    assert.deepEqual(json.answers, { database: { selected: ['PostgreSQL'], skipped: false }, service_name: { selected: ['billing-api'], skipped: false } });
    assert.equal(
      line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''),
      `The user answered 2 questions: database = "PostgreSQL"; service_name = "billing-api". The user's note on all of these answers: ${JSON.stringify(typed)}.`,
    );
  });

  test('a countdown shows the time left, warns in the last minute, and the request times out', async () => {
    const { driver } = ui.workbench;
    const countdown = ui.panel.locator('.request .countdown');
    // Out of the way: a pointer resting on an option would show that option's preview in the screenshots.
    await ui.workbench.page.mouse.move(640, 900);
    try {
      await driver('config', { section: 'agentQuestions', key: 'timeoutSeconds', value: 300 });
      const long = await invoke(ui.workbench, EXTRAS);
      await waitForRequest(ui.panel, 'Which extras should the service use?');
      assert.match(await countdown.innerText(), /^Times out in (5:00|4:[5-9]\d)$/);
      assert.equal(await countdown.evaluate((e) => e.classList.contains('warning')), false, 'no warning with minutes left');
      await ui.workbench.driver('reject', { requestId: (await driver<Array<{ id: string }>>('list'))[0]!.id });
      await toolResult(ui.workbench, long);

      // Everything the live region says from now on: the announcement is heard even if a later one replaced it.
      await ui.panel.evaluate(() => {
        const announcer = document.getElementById('announcer')!;
        const heard: string[] = ((window as unknown as { heard: string[] }).heard = []);
        new MutationObserver(() => announcer.textContent && heard.push(announcer.textContent)).observe(announcer, { childList: true, characterData: true, subtree: true });
      });
      // 30 s: on a busy machine the request can take seconds to show, and it must show before its last 10.
      await driver('config', { section: 'agentQuestions', key: 'timeoutSeconds', value: 30 });
      const call = await invoke(ui.workbench, DATABASES);
      await waitForRequest(ui.panel, 'Which database for the billing service?');
      const expiresAt = (await driver<Array<{ expiresAt: number }>>('list'))[0]!.expiresAt;
      // The time shown and the time it is, read together (the webview's clock is the host's: one machine).
      const shown = () => countdown.evaluate((e) => ({ seconds: Number(/^Times out in 0:(\d\d)$/.exec(e.textContent ?? '')?.[1]), now: Date.now() }));
      const first = await shown();
      const left = (expiresAt - first.now) / 1000;
      assert.ok(first.seconds <= 30 && Math.abs(first.seconds - left) <= 1.5, `shows the time left, at most 30 seconds (${first.seconds}, ${left.toFixed(1)} left)`);
      assert.equal(await countdown.evaluate((e) => e.classList.contains('warning')), true, 'the last minute is a warning');
      const second = await until('the countdown to count down', async () => {
        const { seconds } = await shown();
        return seconds < first.seconds ? seconds : undefined;
      });
      assert.ok(second < first.seconds, `it counts down (${first.seconds} then ${second})`);
      await inThemes('countdown');
      await until('the live region to say "10 seconds left to answer."', () =>
        ui.panel.evaluate(() => (window as unknown as { heard: string[] }).heard.some((t) => t.includes('10 seconds left to answer.'))),
      );

      const { json, line } = await toolResult(ui.workbench, call);
      assert.equal(json.status, 'timed_out');
      assert.match(line, /^The user did not answer in time: "[^"]+"(?:(?:, | and )"[^"]+")* \(request id "[^"]+"\)\./);
      await ui.panel.locator('.notice', { hasText: 'The request you were looking at timed out.' }).waitFor();
      assert.equal(await ui.panel.locator('.countdown').count(), 0, 'the countdown leaves with the request');
    } finally {
      await driver('config', { section: 'agentQuestions', key: 'timeoutSeconds', value: null });
    }
  });

  test(`${PREVIEW_PAYLOADS.length} XSS payloads in option previews show as text and never run`, async () => {
    for (const kind of ['single', 'multi'] as const) {
      const call = await invoke(ui.workbench, {
        questions: [
          { id: 'probe', header: 'Probe', question: `Hostile previews (${kind})?`, kind, options: PREVIEW_PAYLOADS.map((preview, i) => ({ label: `Option ${i + 1}`, preview })) },
        ],
      });
      await waitForRequest(ui.panel, `Hostile previews (${kind})?`);
      await ui.workbench.runCommand('Agent Questions: Focus Question Panel');
      await ui.panel.locator(`${kind === 'single' ? 'vscode-radio' : 'vscode-checkbox'}:focus`).waitFor();
      for (const [index] of PREVIEW_PAYLOADS.entries()) {
        if (index > 0) await ui.workbench.page.keyboard.press('ArrowDown');
        await ui.panel.locator('.option-preview-caption', { hasText: `Preview of Option ${index + 1}` }).waitFor();
        const seen = await ui.panel.evaluate((dangerous) => {
          const region = document.querySelector('.option-preview')!;
          return { dangerous: [...region.querySelectorAll(dangerous)].map((e) => e.outerHTML.slice(0, 80)), text: region.querySelector('.option-preview-body')!.textContent ?? '' };
        }, DANGEROUS);
        assert.deepEqual(seen.dangerous, [], `${kind} payload ${index} made elements`);
        // Markdown may make "__xss=1 … __" bold; the code and the tags still show as text.
        assert.ok(seen.text.includes('xss=1') && seen.text.includes('<'), `${kind} payload ${index}: the preview keeps the text (${seen.text})`);
      }
      await ui.workbench.driver('reject', { requestId: (await ui.workbench.driver<Array<{ id: string }>>('list'))[0]!.id });
      assert.equal((await toolResult(ui.workbench, call)).json.status, 'rejected');
    }
    for (const frame of ui.workbench.page.frames())
      assert.equal(await frame.evaluate(() => (window as unknown as { __xss?: number }).__xss).catch(() => undefined), undefined, 'the sentinel never fired');
  });
});
