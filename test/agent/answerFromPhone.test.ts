import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { configSection, startInteractiveClaude, type InteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { until } from '../harness/deadline';
import { startWebhookReceiver, type WebhookReceiver } from '../harness/webhookReceiver';
import { assertPhoneLayout, openPhone, type Phone } from '../ui/phone';
import { enableEndpoint, hideQuestionPanel, RESULTS, useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';
import { turnOnPhoneAnswers } from './phoneSetup';

// Answering from a phone, as a user away from the desk does: the answer page is on, a request waits
// unseen, a nudge reaches a webhook (a receiver in this test), and a phone-sized Chromium opens the
// nudge's link, which asExternalUri made a link through code-server's own proxy. The question comes
// from VS Code's agent mode (the scripted model), the approvals from the real Claude Code CLI through
// its PermissionRequest hook; each agent receives exactly what the phone answered.
const SHOTS = join(RESULTS, 'answer-page', 'through-code-server');
const REPLY = 'BASH RESULT (error={is_error}): {result}';
const bash = (match: string, marker: string) => ({
  match,
  calls: [{ name: 'Bash', input: { command: `touch ${marker} && echo made-${marker}`, description: 'Create a marker file' } }],
  reply: REPLY,
});
const SCENARIOS = [bash('scenario:phone-allow', 'phone-marker'), bash('scenario:phone-elsewhere', 'terminal-marker')];

suite('Answering from a phone: a nudge, its link through code-server, the page', () => {
  const ui = useWorkbench();
  let receiver: WebhookReceiver;
  const nudges = () => receiver.received.map((post) => post.body);
  let model: ModelServer;
  let terminalEnv: Record<string, string> = {};
  let settings = '';
  let claude: InteractiveClaude | undefined;
  let phone: Phone | undefined;
  let browser: Browser;

  suiteSetup(async function () {
    mkdirSync(SHOTS, { recursive: true });
    browser = ui.workbench.page.context().browser()!;
    receiver = await startWebhookReceiver();
    const webhook = `${receiver.origin}/hooks/agent-questions`;
    model = await startModelServer({ scenarios: SCENARIOS });

    const { workbench } = ui;
    await turnOnPhoneAnswers(workbench, webhook);

    const url = await enableEndpoint(workbench);
    terminalEnv = await workbench.driver<Record<string, string>>('terminalEnv', { names: ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'] });
    settings = configSection(agentConfigs(url).find((config) => config.agent === 'Claude Code')!.text, '// .claude/settings.json');
    // Away from the desk: the Question view is hidden, so a request waits unseen.
    await hideQuestionPanel(workbench.page);
  });

  teardown(async () => {
    await phone?.context.close();
    phone = undefined;
    await claude?.close();
    claude = undefined;
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await model?.close();
    await receiver?.close();
  });

  /** The next nudge the receiver gets; it carries the page's link through code-server's proxy and, by default, no question or command. */
  async function nextNudge(after: number, kind: 'question' | 'approval'): Promise<URL> {
    await until(`a ${kind} nudge to reach the webhook`, () => nudges().length > after, { everyMs: 50 });
    const nudge = nudges()[after]!;
    assert.equal(nudge['kind'], kind);
    assert.doesNotMatch(JSON.stringify(nudge), /Which database|touch /);
    const link = new URL(String(nudge['answerUrl']));
    assert.equal(link.origin, new URL(ui.workbench.page.url()).origin, "the link leads to code-server's origin");
    assert.match(link.pathname, /^\/proxy\/\d+\/answer$/);
    return link;
  }

  /** The page in light, then in dark. */
  async function screenshots(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}-light.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: join(SHOTS, `${name}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  /** Who decided the request settled last (the history lists the newest first). */
  const lastDecidedBy = async () => (await ui.workbench.driver<Array<{ decidedBy?: unknown }>>('history'))[0]?.decidedBy;

  async function startClaude(): Promise<InteractiveClaude> {
    claude = startInteractiveClaude({ modelUrl: model.url, env: terminalEnv, projectFiles: { '.claude/settings.json': settings } });
    await claude.ready();
    return claude;
  }

  test("VS Code's agent mode asks; the phone answers through the nudge's link; the model receives exactly that answer", async function () {
    const before = nudges().length;
    const chat = await send(ui.workbench, 'Set up the service; ask me which database to use. scenario:database', 'editor');
    const link = await nextNudge(before, 'question');
    phone = await openPhone(browser);
    await phone.page.goto(link.toString());
    await phone.page.getByText('Which database should I use?').waitFor();
    await assertPhoneLayout(phone.page);
    await screenshots(phone.page, 'question');
    await phone.page.getByRole('radio', { name: /SQLite/ }).tap();
    await phone.page.getByRole('button', { name: 'Send answers' }).tap();
    await phone.page.getByRole('heading', { name: 'Answered' }).waitFor();
    const reply = await finalReply(chat);
    assert.match(reply, /database = "SQLite"\./);
    assert.match(reply, /"answers":\{"database":\{"selected":\["SQLite"\],"skipped":false\}\}/);
    assert.deepEqual(await lastDecidedBy(), { by: 'user', where: 'page' });
    assert.deepEqual(phone.errors, []);
    // Used once: the same link now shows nothing of the request.
    await phone.page.goto(link.toString());
    assert.doesNotMatch(await phone.page.locator('body').innerText(), /database/i);
  });

  test('Claude Code asks to run a command; the phone allows it once (never always); the command runs', async function () {
    const session = await startClaude();
    const before = nudges().length;
    await session.prompt('Make the phone marker. scenario:phone-allow', model);
    const link = await nextNudge(before, 'approval');
    phone = await openPhone(browser);
    await phone.page.goto(link.toString());
    await phone.page.getByText('touch phone-marker && echo made-phone-marker', { exact: true }).waitFor();
    assert.equal(await phone.page.getByRole('button', { name: /Always/ }).count(), 0);
    await assertPhoneLayout(phone.page);
    await screenshots(phone.page, 'approval');
    await phone.page.getByRole('button', { name: 'Allow once' }).tap();
    await phone.page.getByRole('heading', { name: 'Answered' }).waitFor();
    await session.waitFor(/BASH RESULT \(error=false\): made-phone-marker/);
    assert.equal(existsSync(join(session.project, 'phone-marker')), true, 'the command the phone allowed ran');
    assert.deepEqual(await lastDecidedBy(), { by: 'user', where: 'page' });
    assert.deepEqual(phone.errors, []);
  });

  test("answered in Claude Code's own prompt while the page is open: the page says it is no longer waiting", async function () {
    const session = await startClaude();
    const before = nudges().length;
    await session.prompt('Make the terminal marker. scenario:phone-elsewhere', model);
    const link = await nextNudge(before, 'approval');
    phone = await openPhone(browser);
    await phone.page.goto(link.toString());
    await phone.page.getByRole('button', { name: 'Allow once' }).waitFor();
    await session.waitFor(/Do you want to proceed\?/);
    // "1. Yes" in the terminal (pressed again if the key was lost as the prompt was drawn).
    await session.pressUntil('Enter', /BASH RESULT \(error=false\): made-terminal-marker/);
    await phone.page.getByRole('heading', { name: 'No longer waiting' }).waitFor();
    assert.equal(await phone.page.getByRole('button', { name: 'Allow once' }).count(), 0);
    await screenshots(phone.page, 'no-longer-waiting');
    assert.deepEqual(await lastDecidedBy(), { by: 'user', where: 'agent' });
  });

  test('Show History says who decided each request', async function () {
    const { page } = ui.workbench;
    await ui.workbench.runCommand('Agent Questions: Show History');
    await page.locator('.quick-input-title', { hasText: 'Agent Questions: History' }).waitFor();
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Decided by' }).first().waitFor();
    const texts = await rows.allInnerTexts();
    assert.equal(texts.filter((text) => text.includes('Decided by you on the answer page')).length, 2, texts.join('\n---\n'));
    assert.equal(texts.filter((text) => text.includes("Decided by you in the agent's own prompt")).length, 1, texts.join('\n---\n'));
    await ui.workbench.screenshot('answer-page-history');
    await page.keyboard.press('Escape');
  });
});
