import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { agentConfigs } from '../../src/agents/configRegistry';
import { startModelServer, type ModelServer } from '../fixtures/anthropic-model/server.mjs';
import { configSection, startInteractiveClaude, type InteractiveClaude } from '../harness/claudeCodeTmux.mjs';
import { quietFor } from '../harness/deadline';
import { button, chooseAndSubmit, waitForRequest } from '../ui/panelHelpers';
import { enableEndpoint, RESULTS, useWorkbench } from '../ui/workbench';

// The real Claude Code CLI, interactive in a pseudo-terminal, with the PermissionRequest hook from
// the configuration we hand out: its permission prompts wait in the panel of the real VS Code.
const TERMINAL_VARS = ['AGENT_QUESTIONS_MCP_URL', 'AGENT_QUESTIONS_MCP_TOKEN', 'AGENT_QUESTIONS_HOOK'];
const REPLY = 'BASH RESULT (error={is_error}): {result}';
const bash = (match: string, marker: string) => ({
  match,
  calls: [{ name: 'Bash', input: { command: `touch ${marker} && echo made-${marker}`, description: 'Create a marker file' } }],
  reply: REPLY,
});
const SCENARIOS = [
  bash('scenario:hook-allow', 'allowed-marker'),
  bash('scenario:hook-deny', 'denied-marker'),
  bash('scenario:hook-fallback', 'fallback-marker'),
  bash('scenario:hook-terminal', 'terminal-marker'),
  {
    match: 'scenario:hook-question',
    calls: [
      {
        name: 'AskUserQuestion',
        input: {
          questions: [
            {
              question: 'Which cache should I use?',
              header: 'Cache',
              options: [
                { label: 'Redis', description: 'In memory' },
                { label: 'None', description: 'No cache' },
              ],
              multiSelect: false,
            },
          ],
        },
      },
    ],
    reply: 'ANSWER (error={is_error}): {result}',
  },
];

suite('Claude Code (interactive) asks through its PermissionRequest hook', () => {
  let model: ModelServer;
  let terminalEnv: Record<string, string> = {};
  let settings = '';
  let claude: InteractiveClaude | undefined;
  const ui = useWorkbench();

  suiteSetup(async function () {
    model = await startModelServer({ scenarios: SCENARIOS });
    const url = await enableEndpoint(ui.workbench);
    // As a user would: a terminal opened now has the URL, the token and the hook command.
    terminalEnv = await ui.workbench.driver<Record<string, string>>('terminalEnv', { names: TERMINAL_VARS });
    assert.equal(terminalEnv['AGENT_QUESTIONS_MCP_URL'], url);
    assert.match(terminalEnv['AGENT_QUESTIONS_HOOK']!, /[\\/]dist[\\/]approvalHook\.js$/);
    assert.ok(existsSync(terminalEnv['AGENT_QUESTIONS_HOOK']!), 'the installed extension ships the hook command');
    const claudeCode = agentConfigs(url).find((config) => config.agent === 'Claude Code')!;
    settings = configSection(claudeCode.text, '// .claude/settings.json');
  });

  teardown(async () => {
    await claude?.close();
    claude = undefined;
    for (const pending of await ui.workbench.driver<Array<{ id: string }>>('list')) await ui.workbench.driver('reject', { requestId: pending.id });
  });

  suiteTeardown(async () => {
    await model?.close();
  });

  const toolResults = () =>
    model.received
      .flatMap((r) => (r.body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])))
      .filter((b: { type?: string }) => b.type === 'tool_result') as Array<{ is_error?: boolean; content: unknown }>;

  async function startClaude(env: Record<string, string>): Promise<InteractiveClaude> {
    claude = startInteractiveClaude({ modelUrl: model.url, env, projectFiles: { '.claude/settings.json': settings } });
    await claude.ready();
    return claude;
  }

  test('a Bash command waits first in the queue with its full command and the way it came; Allow runs it; Deny sends the message to the model', async function () {
    // A question is already waiting: the permission must still come first.
    const waiting = await ui.workbench.driver<{ callId: number }>('ask', {
      request: { questions: [{ id: 'later', header: 'Later', question: 'A question that waits', options: [{ label: 'A' }, { label: 'B' }] }] },
    });
    await waitForRequest(ui.panel, 'A question that waits');
    const session = await startClaude(terminalEnv);

    await session.prompt('Make the first marker. scenario:hook-allow', model);
    const row = ui.workbench.page.locator('.monaco-list-row', { hasText: 'Claude Code wants to run a command' }).first();
    await row.waitFor();
    const tree = await ui.workbench.driver<{ value: { tree: Array<{ label: string; children: string[] }> } }>('command', { id: 'agentQuestions.internal.attentionState' });
    assert.deepEqual(tree.value.tree, [
      { label: 'Permissions', children: ['Claude Code wants to run a command'] },
      { label: 'Questions', children: ['Later'] },
    ]);
    // One vocabulary: the self-reported name and the way it connected, in the queue and the panel.
    assert.match(await row.innerText(), /Claude Code · Claude Code hook · /);
    await row.click();
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), /touch allowed-marker && echo made-allowed-marker/);
    const tokenId = createHash('sha256').update(terminalEnv['AGENT_QUESTIONS_MCP_TOKEN']!).digest('hex').slice(0, 6);
    assert.equal(await ui.panel.locator('.request-source .via').innerText(), `Claude Code hook · name self-reported · token ${tokenId}`);
    // Claude Code shows its own prompt meanwhile; the panel's answer settles both.
    await session.waitFor(/Do you want to proceed\?/);
    await ui.workbench.screenshot('claude-code-hook-permission');
    await button(ui.panel, 'allow_once').click();
    await session.waitFor(/BASH RESULT \(error=false\): made-allowed-marker/);
    assert.equal(existsSync(join(session.project, 'allowed-marker')), true, 'the allowed command ran');

    await session.prompt('Make the second marker. scenario:hook-deny', model);
    await ui.workbench.page.locator('.monaco-list-row', { hasText: 'Claude Code wants to run a command' }).first().click();
    await waitForRequest(ui.panel, 'wants to run a command');
    assert.match(await ui.panel.locator('.request.permission').innerText(), /touch denied-marker && echo made-denied-marker/);
    await ui.panel.locator('.deny-message').click();
    await ui.workbench.page.keyboard.type('not now, use the staging box');
    await button(ui.panel, 'deny').click();
    await session.waitFor(/BASH RESULT \(error=true\): not now, use the staging box/);
    assert.equal(existsSync(join(session.project, 'denied-marker')), false, 'the denied command did not run');
    const denied = toolResults().at(-1)!;
    assert.equal(denied.is_error, true);

    await ui.workbench.driver('reject', { requestId: (await ui.workbench.driver<Array<{ id: string }>>('list'))[0]!.id });
    await ui.workbench.driver('await', { callId: waiting.callId });
  });

  test("answered in Claude Code's own prompt instead, the panel's request is withdrawn (settled as cancelled)", async function () {
    const session = await startClaude(terminalEnv);
    await session.prompt('Make the terminal marker. scenario:hook-terminal', model);
    await waitForRequest(ui.panel, 'wants to run a command');
    await session.waitFor(/Do you want to proceed\?/);
    // "1. Yes" in the terminal (pressed again if it went in as the prompt was drawn, and lost).
    await session.pressUntil('Enter', /BASH RESULT \(error=false\): made-terminal-marker/);
    assert.equal(existsSync(join(session.project, 'terminal-marker')), true);
    await ui.panel.locator('.empty').waitFor();
    assert.deepEqual(await ui.workbench.driver<unknown[]>('list'), []);
    const history = await ui.workbench.driver<Array<{ status: string; summary: string }>>('history');
    assert.equal(history[0]!.status, 'cancelled');
  });

  test('its own question tool (AskUserQuestion) is asked in the panel as a question, and the answer reaches the model', async function () {
    const session = await startClaude(terminalEnv);
    await session.prompt('Pick a cache. scenario:hook-question', model);
    await waitForRequest(ui.panel, 'Which cache should I use?');
    assert.match(await ui.panel.locator('.request-source .via').innerText(), /^Claude Code hook · /);
    await chooseAndSubmit(ui.panel, 'Redis');
    await session.waitFor(/ANSWER \(error=false\): [^\n]*"Which cache should I use\?"="Redis"/);
  });

  test('with a wrong token the hook fails closed: nothing waits in the panel and Claude Code asks in its own prompt', async function () {
    const settledBefore = (await ui.workbench.driver<unknown[]>('history')).length;
    const session = await startClaude({ ...terminalEnv, AGENT_QUESTIONS_MCP_TOKEN: 'wrong-token-wrong-token-wrong-token-wrong-t' });
    await session.prompt('Make the fallback marker. scenario:hook-fallback', model);
    await session.waitFor(/Do you want to proceed\?/);
    // The hook gives up at once (a 401); the prompt stays, and the panel has nothing.
    await quietFor(1500);
    assert.deepEqual(await ui.workbench.driver<unknown[]>('list'), []);
    assert.match(session.screen(), /Do you want to proceed\?/);
    await session.pressUntil('Enter', /BASH RESULT \(error=false\): made-fallback-marker/); // "1. Yes" is preselected
    assert.equal(existsSync(join(session.project, 'fallback-marker')), true);
    // Nor did a request come and go meanwhile, however slowly the hook ran.
    assert.equal((await ui.workbench.driver<unknown[]>('history')).length, settledBefore, 'no request reached the panel');
  });

  test('the token appears in no log, no server state and no test artifact of these runs', function () {
    const token = terminalEnv['AGENT_QUESTIONS_MCP_TOKEN']!;
    const files = (dir: string): string[] =>
      existsSync(dir)
        ? readdirSync(dir).flatMap((name) => {
            const stat = statSync(join(dir, name));
            return stat.isDirectory() ? files(join(dir, name)) : stat.isFile() ? [join(dir, name)] : [];
          })
        : [];
    const everything = [...files(join(ui.workbench.stateDir, 'user-data')), ...files(RESULTS)];
    assert.ok(everything.length > 10, `searched ${everything.length} files`);
    assert.deepEqual(
      everything.filter((file) => readFileSync(file).includes(token)),
      [],
    );
  });
});
