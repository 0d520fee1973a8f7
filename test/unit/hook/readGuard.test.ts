// Claude Code reads without a permission prompt in the folder it was started in (issue 40, item 2):
// our settings run the hook on PreToolUse for those tools. Started in a home folder, outside the
// window's workspace folders, `cat .ssh/id_rsa` is sent to the panel (or, when the panel cannot
// answer, Claude Code is told to ask); started in a workspace folder, the hook says nothing.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHook } from '../../../src/hook/runHook';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';

/** Claude Code 2.1.332's PreToolUse hook input for `cat .ssh/id_rsa`, as recorded (paths changed). */
const preToolUse = (cwd: string) => ({
  session_id: 'b3582c76-0b1a-4a66-adec-1dceb11837f9',
  transcript_path: '/home/user/.claude/projects/-home-user/b3582c76-0b1a-4a66-adec-1dceb11837f9.jsonl',
  cwd,
  prompt_id: 'c5a5b652-af1b-4481-b578-6e1774da9a59',
  permission_mode: 'default',
  effort: { level: 'medium' },
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'cat .ssh/id_rsa', description: 'x' },
  tool_use_id: 'toolu_1',
});

/** Nothing listens there: the panel cannot answer. */
const NOBODY = 'http://127.0.0.1:9/mcp';
const ASK = `${JSON.stringify({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'ask',
    permissionDecisionReason: `Agent Questions could not ask in its panel (nothing listens at ${NOBODY}: the endpoint is off or VS Code was closed (turn on agentQuestions.mcp.enabled, then open a new terminal)); answer here.`,
  },
})}\n`;

suite("approval hook command: Claude Code's reads outside the workspace folders", () => {
  const root = mkdtempSync(join(tmpdir(), 'aq-read-guard-'));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  const config = join(root, 'config');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(ws);
  suiteTeardown(() => rmSync(root, { recursive: true, force: true }));

  /** The window's discovery record (as the extension writes it): its endpoint `url` and workspace folder. */
  function discovery(url: string): Record<string, string> {
    rmSync(config, { recursive: true, force: true });
    mkdirSync(join(config, 'agent-questions', 'endpoints'), { recursive: true, mode: 0o700 });
    writeFileSync(join(config, 'agent-questions', 'endpoints', `${process.pid}.json`), JSON.stringify({ url, token: TOKEN, folders: [ws], pid: process.pid }), { mode: 0o600 });
    return { XDG_CONFIG_HOME: config, AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN };
  }
  const run = (cwd: string, env: Record<string, string>) => runHook({ args: ['claude-code'], stdin: JSON.stringify(preToolUse(cwd)), env, signal: new AbortController().signal });

  test('prevents Claude Code started in the home folder from reading .ssh/id_rsa unasked: the read is asked in the panel and, denied, Claude Code is told deny', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const outcome = run(home, discovery(endpoint.url));
      await until(() => broker.size === 1);
      const request = broker.list()[0]!;
      assert.equal(request.kind === 'permission' && request.toolCall?.command, 'cat .ssh/id_rsa');
      broker.decide(request.id, 'deny', { by: 'user', where: 'panel' }, 'Not the key');
      assert.deepEqual(await outcome, {
        exitCode: 0,
        stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Not the key"}}\n',
        stderr: '',
      });
    });
  });

  test('prevents a read outside the workspace folders running unasked when the panel cannot answer: Claude Code is told to ask', async () => {
    const outcome = await run(home, discovery(NOBODY));
    assert.deepEqual([outcome.exitCode, outcome.stdout], [0, ASK]);
  });

  test("without the window's folders (no discovery record for this endpoint) a read goes Claude Code's own way, as without the guard: every read would be a prompt", async () => {
    const env = discovery('http://127.0.0.1:8/mcp');
    const outcome = await run(ws, { ...env, AGENT_QUESTIONS_MCP_URL: NOBODY });
    assert.deepEqual([outcome.exitCode, outcome.stdout], [0, '']);
  });

  test('prevents a read in the project folder outside the workspace folders ($CLAUDE_PROJECT_DIR) running unasked, even from a workspace folder', async () => {
    const outcome = await run(join(ws), { ...discovery(NOBODY), CLAUDE_PROJECT_DIR: home });
    assert.deepEqual([outcome.exitCode, outcome.stdout], [0, ASK]);
  });

  test("a read in a workspace folder goes Claude Code's own way: exit 0, nothing printed, no request", async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const env = discovery(endpoint.url);
      assert.deepEqual(await run(ws, env), { exitCode: 0, stdout: '', stderr: '' });
      assert.deepEqual(await run(join(ws, 'src'), { ...env, CLAUDE_PROJECT_DIR: ws }), { exitCode: 0, stdout: '', stderr: '' });
      assert.equal(broker.size, 0);
    });
  });
});
