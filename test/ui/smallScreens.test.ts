import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { until } from '../harness/deadline';
import { approveThroughMcp, rejectAll, useTheme } from './auditHelpers';
import { button, invoke, toolResult, waitForRequest } from './panelHelpers';
import { useWorkbench } from './workbench';

/** What an agent may well send: a 300-character URL or identifier with nowhere to break. */
const UNBROKEN = `https://example.com/${'a1b2c3d4e5'.repeat(28)}`;
// Descriptions and placeholders take up to 200 characters.
const IDENTIFIER = `billing_${'x'.repeat(52)}`;

const LONG = {
  context: `Migrating the billing service; the plan is at ${UNBROKEN}.\n\n\`\`\`sh\nkubectl --namespace billing-production-eu-west-1 rollout restart deployment/billing-api-with-a-long-name && echo ${UNBROKEN}\n\`\`\``,
  questions: [
    {
      id: 'database',
      header: 'Database for the billing',
      question: `Which database should the migrated billing service use? Its schema is described at ${UNBROKEN}`,
      detail: `The identifier \`${UNBROKEN}\` is what the agent found.`,
      options: [
        {
          label: 'Use the existing PostgreSQL cluster in eu-west-1',
          description: `Read replicas; see ${UNBROKEN.slice(0, 160)}`,
          recommended: true,
          preview: `\`\`\`sql\nCREATE TABLE invoices_with_a_very_long_name_for_testing (id serial PRIMARY KEY, customer_identifier text NOT NULL);\n\`\`\`\n\n${UNBROKEN}`,
        },
        { label: IDENTIFIER, description: 'An identifier as a label.', preview: 'A file next to the code.' },
        { label: 'SQLite' },
      ],
      allowOther: true,
    },
    { id: 'extras', header: 'Extras', question: 'Which extras?', kind: 'multi', options: [{ label: IDENTIFIER }, { label: 'Use a queue between billing and invoicing services' }] },
    { id: 'service_name', header: 'Name', question: 'What should the service be called?', kind: 'text', placeholder: `e.g. ${UNBROKEN.slice(0, 160)}` },
    { id: 'api_key', header: 'API key', question: 'Your Stripe test key?', kind: 'secret', envVar: 'STRIPE_TEST_KEY_FOR_THE_BILLING_SERVICE_IN_EU_WEST_1' },
  ],
};

const LONG_COMMAND = `curl -sSfL ${UNBROKEN} | tee logs/${IDENTIFIER}.log && npm test -- --grep "billing service with a long name"`;

/**
 * Everything in the panel that makes it scroll sideways or is cut off: the page wider than the
 * frame, an element (shadow DOM included) reaching past the right edge, an element that hides what
 * does not fit. Blocks that scroll on their own (code in a preview, a wide table) may hold wider content.
 */
async function overflowProblems(panel: Frame): Promise<string[]> {
  return panel.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    if (document.body.scrollWidth > document.body.clientWidth) problems.push(`the body scrolls sideways (${document.body.scrollWidth} > ${document.body.clientWidth})`);
    const describe = (e: Element) =>
      `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}${e.getAttribute('part') ? `[part=${e.getAttribute('part')}]` : ''}`;
    const visit = (root: ParentNode, scrollsInside: boolean, host: string) => {
      for (const e of root.children) {
        const style = getComputedStyle(e);
        // Hidden, or visually hidden (clipped to nothing) for screen readers only.
        if (style.display === 'none' || style.clip !== 'auto' || e.closest('.visually-hidden')) continue;
        const box = e.getBoundingClientRect();
        const name = `${host}${describe(e)}`;
        const scrolls = /auto|scroll/.test(style.overflowX);
        if (!scrollsInside && box.width > 0 && (box.right > width + 0.5 || box.left < -0.5))
          problems.push(`${name} reaches past the edge (${Math.round(box.left)}–${Math.round(box.right)} of ${width})`);
        // A text field scrolls its own text, as every text field does.
        const field = /^(INPUT|TEXTAREA)$/.test(e.tagName);
        if (!scrolls && !field && /hidden|clip/.test(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
          problems.push(`${name} cuts off its content (${e.scrollWidth} > ${e.clientWidth})`);
        if (scrolls && e.closest('.request-area') && !e.closest('.option-preview, .markdown')) problems.push(`${name} scrolls sideways`);
        if (e.shadowRoot) visit(e.shadowRoot, scrollsInside || scrolls, `${name} › `);
        visit(e, scrollsInside || scrolls, host);
      }
    };
    visit(document.getElementById('app')!, false, '');
    return [...new Set(problems)];
  });
}

suite('Question panel: a 240-pixel side bar', () => {
  const ui = useWorkbench();

  teardown(async () => {
    await rejectAll(ui.workbench);
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
  });

  const frameWidth = () => ui.panel.evaluate(() => document.documentElement.clientWidth);

  /** Drags the sash of the side bar that holds the Question view until the webview is `width` pixels wide. */
  async function setPanelWidth(width: number): Promise<void> {
    const { page } = ui.workbench;
    for (let attempt = 0; attempt < 4 && Math.abs((await frameWidth()) - width) > 2; attempt++) {
      const sash = await page.evaluate(() => {
        const parts = [...document.querySelectorAll('.part.sidebar, .part.auxiliarybar')];
        const part = parts.find((p) => p.querySelector('.pane-header[aria-label^="Question"]'))!;
        const side = part.getBoundingClientRect();
        const inner = part.classList.contains('auxiliarybar') ? side.left : side.right;
        const rects = [...document.querySelectorAll('.monaco-sash.vertical')].map((s) => s.getBoundingClientRect());
        const edge = rects.filter((r) => r.height > side.height / 2).sort((a, b) => Math.abs(a.left + a.width / 2 - inner) - Math.abs(b.left + b.width / 2 - inner))[0]!;
        return { x: edge.left + edge.width / 2, y: edge.top + edge.height / 2, grows: inner === side.left ? -1 : 1 };
      });
      const before = await frameWidth();
      const dx = width - before;
      await page.mouse.move(sash.x, sash.y);
      await page.mouse.down();
      await page.mouse.move(sash.x + (sash.grows * dx) / 2, sash.y, { steps: 5 });
      await page.mouse.move(sash.x + sash.grows * dx, sash.y, { steps: 5 });
      await page.mouse.up();
      await page.mouse.move(640, 990);
      // The webview takes its new width a moment after the sash moves: until it has, and keeps it.
      let last = before;
      await until('the Question webview to take its new width', async () => {
        const now = await frameWidth();
        const settled = now !== before && now === last;
        last = now;
        return settled;
      });
    }
    assert.ok(Math.abs((await frameWidth()) - width) <= 2, `the Question view is ${width} px wide (${await frameWidth()})`);
  }

  async function assertFits(state: string): Promise<void> {
    assert.deepEqual(await overflowProblems(ui.panel), [], `${state}: nothing scrolls sideways or is cut off at ${await frameWidth()} px`);
  }

  test('long labels, 300-character URLs and code blocks: every step fits 240 pixels', async () => {
    await setPanelWidth(240);
    const call = await invoke(ui.workbench, LONG);
    await waitForRequest(ui.panel, 'Database for the billing');
    await ui.panel.locator('vscode-radio').first().click();
    await ui.panel.locator('.option-preview').waitFor();
    await assertFits('single choice with previews');
    await ui.workbench.screenshot('narrow-240-single');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-checkbox').first().click();
    await assertFits('multi choice');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-text-area').click();
    await ui.workbench.page.keyboard.type(UNBROKEN);
    await assertFits('text');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.secret-field').waitFor();
    await assertFits('secret');
    await ui.workbench.screenshot('narrow-240-secret');
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.review').waitFor();
    await assertFits('review');
    await button(ui.panel, 'submit').click();
    await ui.panel.locator('.confirm', { hasText: 'unanswered' }).waitFor();
    await assertFits('review: confirm skipping');
    await ui.workbench.screenshot('narrow-240-review');
    await button(ui.panel, 'confirm-skip').click();
    assert.equal((await toolResult(ui.workbench, call)).json.status, 'answered');
    await ui.panel.locator('.history summary').click();
    await assertFits('history');
    await ui.panel.locator('.history summary').click();
  });

  test('a permission prompt with a long command fits 240 pixels, its buttons wrap, Deny there works', async () => {
    await setPanelWidth(240);
    const approve = await approveThroughMcp(ui.workbench, 'Bash', { command: LONG_COMMAND, description: `Fetch ${UNBROKEN}`, run_in_background: true });
    try {
      await waitForRequest(ui.panel, 'curl');
      await ui.panel.locator('.tool-call .command').waitFor();
      await assertFits('permission');
      assert.equal(await ui.panel.locator('.tool-call .command').innerText(), LONG_COMMAND, 'the whole command is shown');
      // Allow once, Always allow (the exact line) in this workspace, Deny: more than one row, each within the panel.
      const rows = await ui.panel.evaluate(() => new Set([...document.querySelectorAll('.request .actions > *')].map((b) => Math.round(b.getBoundingClientRect().top))).size);
      assert.ok(rows > 1, `the buttons wrap at 240 px (${rows} row)`);
      await button(ui.panel, 'deny').scrollIntoViewIfNeeded();
      await ui.workbench.screenshot('narrow-240-permission');
      await button(ui.panel, 'deny').click();
      const result = (await approve.result) as { content: Array<{ text: string }> };
      assert.match(result.content[0]!.text, /"behavior":\s*"deny"/);
    } finally {
      await approve.close();
    }
  });
});

suite('Question panel: a phone (390 × 844, touch)', () => {
  const ui = useWorkbench({ device: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } });

  teardown(async () => {
    await rejectAll(ui.workbench);
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'workbench', key: 'colorTheme', value: null }).catch(() => undefined);
  });

  test('answers a batch by tapping, in light and dark; nothing scrolls sideways', async () => {
    for (const [theme, name] of [
      ['Default Light Modern', 'light'],
      ['Default Dark Modern', 'dark'],
    ] as const) {
      await useTheme(ui.workbench, theme);
      // What someone on a phone does first: the side bar holding the Question view takes the whole width.
      if (name === 'light') await ui.workbench.driver('command', { id: 'workbench.action.maximizeAuxiliaryBar' });
      const call = await invoke(ui.workbench, { context: LONG.context, questions: [LONG.questions[0]!, LONG.questions[1]!] });
      await waitForRequest(ui.panel, 'Database for the billing');
      const width = await ui.panel.evaluate(() => document.documentElement.clientWidth);
      assert.ok(width >= 300, `the Question view has the phone's width (${width} px)`);
      await ui.panel.locator('vscode-radio').nth(2).tap();
      await ui.panel.locator('vscode-radio[value="SQLite"].checked, vscode-radio[value="SQLite"][aria-checked="true"]').waitFor();
      assert.deepEqual(await overflowProblems(ui.panel), [], `${name}: nothing scrolls sideways at ${width} px`);
      await ui.workbench.screenshot(`phone-${name}-single`);
      await button(ui.panel, 'next').tap();
      await ui.panel.locator('vscode-checkbox').nth(1).tap();
      await button(ui.panel, 'next').tap();
      await ui.panel.locator('.review').waitFor();
      assert.deepEqual(await overflowProblems(ui.panel), [], `${name}: the review fits`);
      await ui.workbench.screenshot(`phone-${name}-review`);
      await button(ui.panel, 'submit').tap();
      const { json } = await toolResult(ui.workbench, call);
      assert.equal(json.status, 'answered');
      assert.deepEqual(json.answers, {
        database: { selected: ['SQLite'], skipped: false },
        extras: { selected: ['Use a queue between billing and invoicing services'], skipped: false },
      });
      await ui.panel.locator('.empty').waitFor();
    }
  });
});
