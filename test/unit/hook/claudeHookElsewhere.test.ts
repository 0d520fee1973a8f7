// Issue 42: the Claude Code hooks we hand out (.claude/settings.json) are read by other agents too:
// VS Code's own agent runs them on every tool call with `chat.useClaudeHooks` on (matchers ignored,
// Copilot Chat's environment: no AGENT_QUESTIONS_* variables), and Copilot CLI reads that file as
// well. They must answer nothing there and exit 0: any other exit is a warning in the chat on each
// call (VS Code) or a denial (Copilot CLI's file hooks). Run as the agents run them: the settings'
// command through a shell, the bundled hook with each agent's recorded stdin.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { claudeCodeHookSettings } from '../../../src/agents/claudeCode/claudeCodeConfig';
import { HOOK_VAR, MCP_TOKEN_VAR, MCP_URL_VAR } from '../../../src/broker/contract/wireNames';
import { copilotCli, local, PROJECT } from '../helpers/agentHookInputs';
import { ROOT } from '../helpers/repoRoot';

const HOOK_SCRIPT = join(ROOT, 'dist', 'approvalHook.js');

const FOREIGN_INPUTS = {
  "VS Code's run_in_terminal": local('run_in_terminal', { command: 'touch held-marker', explanation: 'Create the marker file', goal: 'Create a marker', mode: 'sync' }),
  "VS Code's create_file": local('create_file', { filePath: `${PROJECT}/src/app.ts`, content: 'export {};\n' }),
  "VS Code's read_file": local('read_file', { filePath: `${PROJECT}/package.json`, startLine: 1, endLine: 20 }),
  'our ask_user in VS Code': local('ask_user', { questions: [{ id: 'db', question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'PostgreSQL' }] }] }),
  'an MCP tool in VS Code (mcp_<prefix>_<tool>)': local('mcp_github_create_issue', { title: 'x' }),
  "Copilot CLI's bash": copilotCli('bash', { command: 'touch held-marker', description: 'Create the marker file' }),
  "Copilot CLI's create": copilotCli('create', { path: `${PROJECT}/src/app.ts`, file_text: 'export {};\n' }),
  "Copilot CLI's view": copilotCli('view', { path: `${PROJECT}/package.json` }),
};

/** Runs `command` through a shell, as the agents run a hook command, with `input` on stdin. */
function runCommand(command: string, env: Record<string, string | undefined>, input: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('sh', ['-c', command], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(JSON.stringify(input));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Every hook command in the .claude/settings.json we hand out. */
function settingsCommands(): string[] {
  const { hooks } = JSON.parse(claudeCodeHookSettings()) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  return Object.values(hooks).flatMap((groups) => groups.flatMap((group) => group.hooks.map((hook) => hook.command)));
}

const NOTHING = { code: 0, stdout: '', stderr: '' };

suite('The Claude Code hook, run by VS Code or Copilot CLI', () => {
  test("prevents a warning on every VS Code agent tool call: the settings' commands, run without our terminal variable, answer nothing and exit 0", async () => {
    const commands = settingsCommands();
    assert.equal(commands.length, 3);
    // Copilot Chat's extension host's environment: no AGENT_QUESTIONS_* variables.
    const env = { PATH: process.env.PATH };
    for (const command of commands)
      for (const [name, input] of Object.entries(FOREIGN_INPUTS)) assert.deepEqual(await runCommand(command, env, input), NOTHING, `${name}: ${command}`);
  });

  test('prevents an answer to calls it does not understand: with our variables set (started from a VS Code terminal), the hook answers nothing and exits 0', async () => {
    // An endpoint that is not there: an input the hook understood would fail on it and say so (exit 1).
    const env = { PATH: process.env.PATH, [HOOK_VAR]: HOOK_SCRIPT, [MCP_URL_VAR]: 'http://127.0.0.1:9/mcp', [MCP_TOKEN_VAR]: 'not-a-real-token' };
    const [command] = settingsCommands();
    for (const [name, input] of Object.entries(FOREIGN_INPUTS)) assert.deepEqual(await runCommand(command!, env, input), NOTHING, name);
  });

  test("still hands Claude Code's own permission request to its prompt (exit 1, one line) when the panel cannot be reached", async () => {
    const env = { PATH: process.env.PATH, [HOOK_VAR]: HOOK_SCRIPT, [MCP_URL_VAR]: 'http://127.0.0.1:9/mcp', [MCP_TOKEN_VAR]: 'not-a-real-token' };
    const [command] = settingsCommands();
    const request = { ...local('Bash', { command: 'touch held-marker', description: 'Create the marker file' }), hook_event_name: 'PermissionRequest' };
    const outcome = await runCommand(command!, env, request);
    assert.equal(outcome.code, 1);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^Agent Questions hook: .*; Claude Code asks you itself\.\n$/);
  });
});
