import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { approveThroughMcp, paneBackground, rejectAll, runAxe, THEMES, useTheme, type AxeFinding } from './auditHelpers';
import { button, chooseAndSubmit, FOUR_KINDS, invoke, toolResult, waitForRequest } from './panelHelpers';
import { RESULTS, useWorkbench } from './workbench';

const CONTEXT = `${FOUR_KINDS.context}\n\nSee [the plan](https://example.com/plan).\n\n| Plan | Price |\n|---|--:|\n| Basic | $5 |\n\n\`\`\`ts\nconst plan = "basic"; // monthly\n\`\`\``;

const PREVIEWS = {
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database for the billing service?',
      options: [
        {
          label: 'PostgreSQL',
          description: 'A server next to the service.',
          recommended: true,
          preview: '**Server** database.\n\n```sql\nCREATE TABLE invoices (id serial PRIMARY KEY);\n```',
        },
        { label: 'SQLite', description: 'One file beside the code.', preview: 'File database: `billing.sqlite`' },
        { label: 'MongoDB' },
      ],
      allowOther: true,
    },
  ],
};

const yesNo = (id: string, header: string) => ({ questions: [{ id, header, question: `${header}?`, options: [{ label: 'Yes' }, { label: 'No' }] }] });

/** Interactive roles in the accessibility tree; each needs a name. */
const CONTROL_ROLES = /^\s*- (button|checkbox|radio|textbox|tab|link|combobox|spinbutton|switch|slider|radiogroup)\b(.*)$/;

suite('Question panel: accessibility, audited by axe-core in every state and theme', () => {
  const ui = useWorkbench();

  teardown(async () => {
    await rejectAll(ui.workbench);
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'workbench', key: 'colorTheme', value: null }).catch(() => undefined);
    await ui.workbench?.driver('config', { section: 'agentQuestions', key: 'mcp.enabled', value: null }).catch(() => undefined);
  });

  const notice = (text: string) => ui.panel.locator('.notice', { hasText: text }).waitFor();
  const pendingIds = async () => (await ui.workbench.driver<Array<{ id: string }>>('list')).map((r) => r.id);

  /** Puts the panel in each state in turn; yields the state's name once it is on screen. */
  async function* everyState(): AsyncGenerator<string> {
    await rejectAll(ui.workbench);
    await ui.panel.locator('.empty').waitFor();
    yield 'empty';

    const batch = await invoke(ui.workbench, { ...FOUR_KINDS, context: CONTEXT });
    await waitForRequest(ui.panel, 'Database');
    await ui.panel.locator('vscode-radio[value="PostgreSQL"]').click();
    yield 'single choice';
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-checkbox[value="Redis"]').click();
    yield 'multi choice';
    await button(ui.panel, 'next').click();
    await ui.panel.locator('vscode-text-area').waitFor();
    yield 'text';
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.secret-field').waitFor();
    yield 'secret';
    await button(ui.panel, 'next').click();
    await ui.panel.locator('.review').waitFor();
    yield 'review';
    await button(ui.panel, 'submit').click();
    await ui.panel.locator('.confirm', { hasText: 'unanswered' }).waitFor();
    yield 'review: confirm skipping';
    await button(ui.panel, 'cancel-skip').click();
    await button(ui.panel, 'reject').click();
    await ui.panel.locator('.confirm', { hasText: 'Reject this request?' }).waitFor();
    yield 'confirm reject';
    await ui.workbench.driver('reject', { requestId: (await pendingIds())[0]! });
    await notice('was rejected elsewhere');
    await toolResult(ui.workbench, batch);
    yield 'notice: rejected elsewhere';

    const previews = await invoke(ui.workbench, PREVIEWS);
    await waitForRequest(ui.panel, 'Which database for the billing service?');
    await ui.panel.locator('vscode-radio[value="SQLite"]').click();
    await ui.panel.locator('.option-preview-caption', { hasText: 'Preview of SQLite' }).waitFor();
    await ui.workbench.page.mouse.move(640, 990);
    yield 'option previews';
    await ui.workbench.driver('reply', { requestId: (await pendingIds())[0]!, answers: { database: { selected: ['SQLite'], skipped: false } } });
    await notice('was answered elsewhere');
    await toolResult(ui.workbench, previews);
    yield 'notice: answered elsewhere';

    const doomed = await invoke(ui.workbench, yesNo('doomed', 'Doomed'));
    await waitForRequest(ui.panel, 'Doomed?');
    await ui.workbench.driver('cancel', { callId: doomed.callId });
    await notice('The agent cancelled');
    yield 'notice: cancelled';

    // The API's own timeout: a countdown in its last minute (a warning), then the timed-out notice.
    // 20 s: long enough for the countdown's audit under load, and the notice (shown for 20 s after
    // the timeout) is still there when that audit ends.
    const timed = await ui.workbench.driver<{ callId: number }>('ask', {
      request: { extensionId: 'tests.a11y', timeoutSeconds: 20, questions: yesNo('hurry', 'Hurry').questions },
    });
    await waitForRequest(ui.panel, 'Hurry?');
    await ui.panel.locator('.countdown.warning').waitFor();
    yield 'countdown (last minute)';
    await ui.panel.locator('.notice', { hasText: 'timed out' }).waitFor();
    await ui.workbench.driver('await', { callId: timed.callId });
    yield 'notice: timed out';

    const permission = await ui.workbench.driver<{ callId: number }>('permission', {
      request: { extensionId: 'tests.a11y', title: 'Allow the build?', detail: 'Runs `npm run build` in the workspace.', permissionKey: 'build' },
    });
    const waiting = await invoke(ui.workbench, yesNo('behind', 'Behind'));
    await waitForRequest(ui.panel, 'Allow the build?');
    await ui.panel.locator('.waiting .link-button').waitFor();
    yield 'permission (extension) with another request waiting';
    await rejectAll(ui.workbench);
    await ui.workbench.driver('await', { callId: permission.callId });
    await toolResult(ui.workbench, waiting);

    const approve = await approveThroughMcp(ui.workbench, 'Bash', { command: 'npm test -- --grep "billing"', description: 'Run the billing tests', run_in_background: true });
    try {
      await waitForRequest(ui.panel, 'npm test');
      await ui.panel.locator('.tool-call .command').waitFor();
      yield 'permission (tool call, rules, warnings)';
      await rejectAll(ui.workbench);
      await approve.result;
    } finally {
      await approve.close();
    }

    await ui.panel.locator('.history summary').click();
    await ui.panel.locator('.history[open] .history-item').first().waitFor();
    yield 'history';
    await ui.panel.locator('.history summary').click();
  }

  test('axe-core finds no serious or critical violation in any state, in light, dark and high contrast', async function () {
    this.timeout(600_000);
    const report: Array<{ theme: string; state: string; findings: AxeFinding[] }> = [];
    for (const [theme, name] of THEMES) {
      await useTheme(ui.workbench, theme);
      const background = await paneBackground(ui.workbench.page);
      for await (const state of everyState()) report.push({ theme: name, state, findings: await runAxe(ui.panel, background) });
    }
    await useTheme(ui.workbench, null);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, 'accessibility-axe.json'), JSON.stringify(report, null, 2));
    for (const { theme, state, findings } of report) {
      for (const f of findings) console.log(`    axe ${theme} / ${state}: ${f.impact} ${f.rule} (${f.nodes.length}): ${f.nodes.slice(0, 3).join(' | ')}`);
    }
    assert.equal(report.length, THEMES.length * 17, `every state in every theme was audited (${report.length})`);
    const blocking = report.flatMap(({ theme, state, findings }) =>
      findings.filter((f) => f.impact === 'serious' || f.impact === 'critical').map((f) => `${theme} / ${state}: ${f.rule} ${f.nodes.join(' ; ')}`),
    );
    assert.deepEqual(blocking, [], 'no serious or critical violations');
  });

  test('every control has an accessible name, in every state', async function () {
    const unnamed: string[] = [];
    const names = new Set<string>();
    let controls = 0;
    for await (const state of everyState()) {
      const tree = await ui.panel.locator('body').ariaSnapshot();
      for (const line of tree.split('\n')) {
        const match = CONTROL_ROLES.exec(line);
        if (!match) continue;
        controls++;
        const name = /^ "([^"]+)"/.exec(match[2]!)?.[1];
        // The toolkit's stand-ins when it finds no name, and words run together, are no better than none.
        if (!name || /^(Text field|Text area|Radio|Checkbox)$/.test(name) || /^\d[A-Za-z]|[a-z][A-Z][a-z]/.test(name)) unnamed.push(`${state}: ${line.trim()}`);
        else names.add(`${match[1]} "${name}"`);
      }
    }
    assert.ok(controls > 60, `the tree lists the controls (${controls})`);
    assert.deepEqual(unnamed, [], 'controls without a proper name');
    for (const expected of [
      'radio "PostgreSQL, Recommended"',
      'checkbox "Redis"',
      'textbox "Note for the agent (optional)"',
      'textbox "What should the service be called?"',
      'textbox "Message for the agent, sent with Deny (optional)"',
      'radio "SQLite, One file beside the code."',
      'button "Attach image to this answer"',
    ]) {
      assert.ok(names.has(expected), `${expected} in ${[...names].join(' | ')}`);
    }
  });

  /** Tabs from the top of the panel until focus leaves it; returns each stop's place in the document and on screen. */
  async function tabStops(): Promise<Array<{ order: number; top: number; left: number; what: string }>> {
    await ui.panel.locator('.request-source').click();
    const stops: Array<{ order: number; top: number; left: number; what: string }> = [];
    for (let i = 0; i < 40; i++) {
      await ui.workbench.page.keyboard.press('Tab');
      const stop = await ui.panel.evaluate(() => {
        const active = document.activeElement as HTMLElement | null;
        if (!active || active === document.body || !document.hasFocus()) return undefined;
        const all = [...document.querySelectorAll('*')];
        const box = active.getBoundingClientRect();
        const name = (active.getAttribute('aria-label') ?? active.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        return { order: all.indexOf(active), top: Math.round(box.top + window.scrollY), left: Math.round(box.left), what: `${active.tagName.toLowerCase()} ${name}` };
      });
      if (!stop || stops.some((s) => s.order === stop.order)) break;
      stops.push(stop);
    }
    return stops;
  }

  function assertReadingOrder(stops: Array<{ order: number; top: number; left: number; what: string }>, label: string): void {
    const list = stops.map((s) => s.what).join(' → ');
    for (let i = 1; i < stops.length; i++) {
      const [a, b] = [stops[i - 1]!, stops[i]!];
      assert.ok(b.order > a.order, `${label}: Tab follows the document order (${list})`);
      // Below, or on the same line to the right (buttons in a row).
      assert.ok(b.top > a.top + 2 || (Math.abs(b.top - a.top) <= 2 && b.left > a.left), `${label}: Tab follows the visual order at ${a.what} → ${b.what} (${list})`);
    }
  }

  test('the focus order follows the reading order: questions, review and a permission prompt', async () => {
    const call = await invoke(ui.workbench, { ...FOUR_KINDS, context: CONTEXT });
    await waitForRequest(ui.panel, 'Database');
    const single = await tabStops();
    assertReadingOrder(single, 'single choice');
    const reached = single.map((s) => s.what).join(' → ');
    for (const expected of [
      /Database/,
      /Extras/,
      /Name/,
      /API key/,
      /Review/,
      /^vscode-radio/,
      /^vscode-text-field Note for the agent/,
      /^vscode-button Attach/,
      /^vscode-button Next/,
      /^vscode-button Reject/,
    ]) {
      assert.ok(
        single.some((s) => expected.test(s.what)),
        `Tab reaches ${expected}: ${reached}`,
      );
    }
    await ui.panel.locator('.chip-button', { hasText: 'Extras' }).click();
    const multi = await tabStops();
    assertReadingOrder(multi, 'multi choice');
    assert.equal(multi.filter((s) => s.what.startsWith('vscode-checkbox')).length, 4, `each checkbox (and Other…) is a stop: ${multi.map((s) => s.what).join(' → ')}`);
    await ui.panel.locator('.chip-button', { hasText: 'Review' }).click();
    const review = await tabStops();
    assertReadingOrder(review, 'review');
    assert.equal(review.filter((s) => /Edit/.test(s.what)).length, 4, `each answer has its Edit link in the order: ${review.map((s) => s.what).join(' → ')}`);
    await rejectAll(ui.workbench);
    await toolResult(ui.workbench, call);

    const approve = await approveThroughMcp(ui.workbench, 'Bash', { command: 'npm test -- --grep "billing"', run_in_background: true });
    try {
      await waitForRequest(ui.panel, 'npm test');
      const permission = await tabStops();
      assertReadingOrder(permission, 'permission');
      const list = permission.map((s) => s.what).join(' → ');
      for (const expected of [/^vscode-radio/, /Allow once/, /Always allow/, /Deny/, /^vscode-text-field Message for the agent/])
        assert.ok(
          permission.some((s) => expected.test(s.what)),
          `Tab reaches ${expected}: ${list}`,
        );
      await rejectAll(ui.workbench);
      await approve.result;
    } finally {
      await approve.close();
    }
  });

  test('the live region announces what arrives, what waits and what settles elsewhere, even the same words twice', async () => {
    assert.equal(await ui.panel.locator('#announcer').getAttribute('aria-live'), 'polite');
    // Every text the region takes, in order, as a screen reader would be told of it.
    await ui.panel.evaluate(() => {
      const announcer = document.getElementById('announcer')!;
      const heard: string[] = ((window as unknown as { heard: string[] }).heard = []);
      new MutationObserver(() => announcer.textContent && heard.push(announcer.textContent)).observe(announcer, { childList: true, characterData: true, subtree: true });
    });
    const heard = () => ui.panel.evaluate(() => (window as unknown as { heard: string[] }).heard);
    // Counted from the last thing heard on: an announcement the previous test caused can still arrive after the observer starts.
    let from = 0;
    const hear = async (pattern: RegExp) => {
      const since = async () => (await heard()).slice(from);
      await until(`the live region to say ${pattern}`, async () => {
        const said = await since();
        if (!said.some((t) => pattern.test(t))) throw new Error(`heard ${JSON.stringify(said)}`);
        return true;
      });
      const matches = (await since()).filter((t) => pattern.test(t)).length;
      assert.equal(matches, 1, `heard ${pattern} once after ${JSON.stringify((await heard()).slice(0, from))}, in ${JSON.stringify(await since())}`);
      from += (await since()).findIndex((t) => pattern.test(t)) + 1;
    };
    const first = await invoke(ui.workbench, yesNo('first', 'First'));
    await waitForRequest(ui.panel, 'First?');
    await hear(/asks: First$/);
    const second = await invoke(ui.workbench, yesNo('second', 'Second'));
    await hear(/^Another request is waiting\.\s*$/);
    const third = await invoke(ui.workbench, yesNo('third', 'Third'));
    // The same words again are spoken again.
    await hear(/^Another request is waiting\.\s*$/);
    // The notice and the next request in one announcement: neither replaces the other before it is spoken.
    await ui.workbench.driver('cancel', { callId: first.callId });
    await hear(/^The agent cancelled the request you were looking at\. .* asks: Second$/);
    await chooseAndSubmit(ui.panel, 'Yes');
    assert.equal((await toolResult(ui.workbench, second)).json.status, 'answered');
    await hear(/asks: Third$/);
    await ui.workbench.driver('reject', { requestId: (await pendingIds())[0]! });
    await hear(/^The request you were looking at was rejected elsewhere\.\s*$/);
    await toolResult(ui.workbench, third);
    await ui.workbench.driver('await', { callId: first.callId });
  });
});
