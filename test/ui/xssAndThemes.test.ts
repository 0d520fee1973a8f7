import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { FOUR_KINDS, invoke, toolResult, waitForRequest } from './panelHelpers';
import { useWorkbench, type Workbench } from './workbench';
import { markInvisible } from '../../src/broker/visibleText';

const RUN = 'window.__xss=1';
/** At least 30 payloads: script tags, event handlers, javascript: links, SVG, markdown-embedded HTML, long and right-to-left text. */
const PAYLOADS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<svg onload="${RUN}">`,
  `<svg><script>${RUN}</script></svg>`,
  `<iframe src="javascript:${RUN}"></iframe>`,
  `[click me](javascript:${RUN})`,
  `<a href="javascript:${RUN}">x</a>`,
  `"><script>${RUN}</script>`,
  `'><img src=x onerror=${RUN}>`,
  `<body onload=${RUN}>`,
  `<details open ontoggle=${RUN}>`,
  `<input autofocus onfocus=${RUN}>`,
  `<math><mtext><img src=x onerror=${RUN}>`,
  `<style>@import 'javascript:${RUN}'</style>`,
  `<object data="javascript:${RUN}">`,
  `<embed src="javascript:${RUN}">`,
  `<video><source onerror="${RUN}">`,
  `<audio src=x onerror=${RUN}>`,
  `![img](x" onerror="${RUN})`,
  `[x](data:text/html,<script>${RUN}</script>)`,
  `<div style="background:url(javascript:${RUN})">`,
  `javascript:${RUN}`,
  `{{constructor.constructor('${RUN}')()}}`,
  `\${${RUN}}`,
  `<scr<script>ipt>${RUN}</scr</script>ipt>`,
  `&lt;script&gt;${RUN}&lt;/script&gt;`,
  `<!--<img src=x onerror=${RUN}>-->`,
  `\`<img src=x onerror=${RUN}>\``,
  `**<img src=x onerror=${RUN}>**`,
  `\u202Egnp.exe<img src=x onerror=${RUN}>`,
  `<template><img src=x onerror=${RUN}></template>`,
  `<svg><a xlink:href="javascript:${RUN}"><text>x</text></a></svg>`,
  `<form action="javascript:${RUN}"><button>x</button></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<base href="javascript:${RUN}//">`,
  `# <img src=x onerror=${RUN}>\n> <svg onload=${RUN}>\n- <script>${RUN}</script>\n\`\`\`\n<script>${RUN}</script>\n\`\`\``,
  `${'<b>long</b> '.repeat(35)}<img src=x onerror=${RUN}>`.slice(0, 500),
  `\u05E9\u05DC\u05D5\u05DD <img src=x onerror=${RUN}> \u0645\u0631\u062D\u0628\u0627`,
];

const DANGEROUS = 'script, img, svg, iframe, object, embed, video, audio, style, link, meta, base, form, math, template, a[href], input:not([class]), [onerror], [onload], [onclick], [onfocus], [ontoggle]';

function requestFor(payload: string) {
  const header = payload.replace(/\s+/g, ' ').slice(0, 30) || 'x';
  return {
    context: `Context: ${payload}`,
    questions: [
      {
        id: 'probe',
        header,
        question: payload.slice(0, 500),
        options: [{ label: payload.replace(/\n/g, ' ').slice(0, 60), description: payload.slice(0, 200) }, { label: 'Safe' }],
      },
    ],
  };
}

suite('Question panel: hostile text stays text, and every theme', () => {
  let workbench: Workbench;
  let panel: Frame;

  useWorkbench((opened, openedPanel) => {
    workbench = opened;
    panel = openedPanel;
  });

  test(`${PAYLOADS.length} XSS payloads in question, option, header and context show as text and never run`, async () => {
    assert.ok(PAYLOADS.length >= 30);
    for (const [index, payload] of PAYLOADS.entries()) {
      const request = requestFor(payload);
      const call = await invoke(workbench, request);
      const question = request.questions[0]!;
      // Invisible characters (the right-to-left payload) are shown as markers such as ⟨U+202E⟩.
      await panel.locator('.question-text').filter({ hasText: markInvisible(question.question.trim()).slice(0, 20) }).first().waitFor({ timeout: 10_000 });
      const seen = await panel.evaluate(
        ({ dangerous }) => {
          const app = document.getElementById('app')!;
          return {
            dangerous: [...app.querySelectorAll(dangerous)].map((e) => e.outerHTML.slice(0, 80)),
            question: app.querySelector('.question-text')?.textContent,
            header: app.querySelector('.question .chip')?.textContent,
            label: app.querySelector('vscode-radio .option-label')?.textContent,
            context: app.querySelector('.markdown')?.textContent ?? '',
          };
        },
        { dangerous: DANGEROUS },
      );
      assert.deepEqual(seen.dangerous, [], `payload ${index} made elements`);
      assert.equal(seen.question, markInvisible(question.question), `payload ${index}: question text`);
      assert.equal(seen.header, markInvisible(question.header), `payload ${index}: header`);
      assert.equal(seen.label, markInvisible(question.options[0]!.label), `payload ${index}: option label`);
      assert.ok(seen.context.includes(RUN), `payload ${index}: context keeps the text`);
      const [pending] = await workbench.driver<Array<{ id: string }>>('list');
      await workbench.driver('reject', { requestId: pending!.id });
      assert.equal((await toolResult(workbench, call)).json.status, 'rejected');
    }
    for (const frame of workbench.page.frames()) assert.equal(await frame.evaluate(() => (window as unknown as { __xss?: number }).__xss).catch(() => undefined), undefined, 'the sentinel never fired');
  });

  test('screenshots in light, dark and high-contrast themes follow the theme colours', async () => {
    const call = await invoke(workbench, FOUR_KINDS);
    await waitForRequest(panel, 'Database');
    const colours: string[] = [];
    for (const [theme, name] of [
      ['Default Light Modern', 'light'],
      ['Default Dark Modern', 'dark'],
      ['Default High Contrast', 'high-contrast'],
    ] as const) {
      await workbench.driver('config', { section: 'workbench', key: 'colorTheme', value: theme });
      await workbench.page.waitForTimeout(1500);
      colours.push(await panel.evaluate(() => `${getComputedStyle(document.body).color} on ${getComputedStyle(document.documentElement).getPropertyValue('--vscode-sideBar-background')}`));
      await workbench.screenshot(`panel-theme-${name}`);
    }
    await workbench.driver('config', { section: 'workbench', key: 'colorTheme', value: null });
    assert.equal(new Set(colours).size, 3, `each theme colours the panel differently: ${colours.join(' | ')}`);
    const [pending] = await workbench.driver<Array<{ id: string }>>('list');
    await workbench.driver('reject', { requestId: pending!.id });
    await toolResult(workbench, call);
  });
});
