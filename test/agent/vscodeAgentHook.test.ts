// Issue 42: VS Code's own agent runs the PreToolUse hook of the chat plugin Agent Questions
// contributes, once agentQuestions.vscodeAgent.hooks is on, with no other click; our own ask_user
// is allowed by it at once. Read from Copilot Chat's hooks log, which prints each run's command,
// input and output.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../harness/deadline';
import { answerByClick, waitForRequest } from '../ui/panelHelpers';
import { useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

/** The lines of every "GitHub Copilot Chat Hooks.log" under the profile's logs. */
function hookLog(logs: string): string[] {
  if (!existsSync(logs)) return [];
  return readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('GitHub Copilot Chat Hooks.log'))
    .flatMap((file) => readFileSync(join(logs, file), 'utf8').split('\n'));
}

suite("VS Code's agent runs our hook (chat plugin)", () => {
  const ui = useWorkbench();

  test("with the setting on, the contributed hook runs on the agent's ask_user call and allows it at once", async () => {
    await ui.workbench.driver('config', { section: 'agentQuestions', key: 'vscodeAgent.hooks', value: true });
    const chat = await send(ui.workbench, 'Set up the service; ask me which database to use. scenario:database');
    await chat.locator('.interactive-list', { hasText: 'Asking 1 question (Database)' }).waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which database should I use?');
    await answerByClick(ui.panel, 'SQLite');
    assert.match(await finalReply(chat), /database = "SQLite"/);
    const logs = join(ui.workbench.stateDir, 'user-data', 'logs');
    const lines = await until('the hooks log to show our hook and its answer', () => {
      const all = hookLog(logs);
      return all.some((line) => /\[PreToolUse\] Output: .*"permissionDecision":"allow"/.test(line)) ? all : undefined;
    });
    const running = lines.find((line) => line.includes('[PreToolUse] Running:'));
    assert.match(running ?? '', /media\/chat-plugin\/\.\.\/\.\.\/dist\/vscodeAgentHook\.js\\" 86400","cwd":.*"env":\{"PLUGIN_ROOT":".*media\/chat-plugin"\},"timeout":86400\}/);
    assert.match(lines.find((line) => line.includes('[PreToolUse] Input:')) ?? '', /"hook_event_name":"PreToolUse".*"tool_name":"ask_user"/);
    assert.ok(lines.some((line) => line.endsWith('[PreToolUse] Output: {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}')));
  });
});
