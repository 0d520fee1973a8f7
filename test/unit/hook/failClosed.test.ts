// Issue 41: a request our hook left undecided is never a yes. For Codex, whose `exec --approve-for-me`
// sends an undecided request to its automatic reviewer (a model), the hook answers a denial once the
// request reached the panel; Claude Code keeps its own prompt open, so the hook leaves it there. The
// hook gives the decision back before the agent's hook time limit, so it is never killed mid-wait.
// Codex gets a denial whenever the panel cannot decide, before the request reached it or after.
import * as assert from 'node:assert/strict';
import { runHook, type HookRun } from '../../../src/hook/runHook';
import { DAY_SECONDS } from '../../../src/agents/agentConfig';
import type { DecidedBy } from '../../../src/broker/contract/schemas';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';

const CODEX_INPUT = { hook_event_name: 'PermissionRequest', cwd: '/home/user/project', tool_name: 'Bash', tool_input: { command: 'touch marker' } };
const CLAUDE_INPUT = { hook_event_name: 'PermissionRequest', cwd: '/home/user/project', tool_name: 'Bash', tool_input: { command: 'touch marker' }, session_id: 's' };
/** The agent's hook time limit less this: the hook hands back 300 ms after it starts. */
const SOON = DAY_SECONDS * 1000 - 300;

const run = (agent: 'codex' | 'claude-code', env: HookRun['env'], extra: Partial<HookRun> = {}) =>
  runHook({ args: [agent], stdin: JSON.stringify(agent === 'codex' ? CODEX_INPUT : CLAUDE_INPUT), env, signal: new AbortController().signal, ...extra });

const denial = (stdout: string) => JSON.parse(stdout).hookSpecificOutput.decision as { behavior: string; message: string };

suite('Hooks fail closed: an undecided request is never a yes', () => {
  test("prevents Codex's reviewer from approving a request left undecided when the endpoint goes away: the hook answers deny", async () => {
    let outcome: ReturnType<typeof runHook> | undefined;
    await withEndpoint(async ({ broker, endpoint }) => {
      outcome = run('codex', { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN });
      await until(() => broker.size === 1);
      await endpoint.close();
    });
    const { exitCode, stdout } = await outcome!;
    assert.equal(exitCode, 0);
    assert.equal(denial(stdout).behavior, 'deny');
    assert.match(denial(stdout).message, /No decision in the Agent Questions panel/);
  });

  test('prevents Codex from killing a waiting hook at its time limit (a failed hook goes to its reviewer): the hook denies just before, and the panel records it as handed back at the deadline', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const decidedBy: DecidedBy[] = [];
      broker.onDidChange((change) => change.type === 'settled' && change.decidedBy && decidedBy.push(change.decidedBy));
      const { exitCode, stdout } = await run('codex', { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN }, { handBackBeforeMs: SOON });
      assert.equal(exitCode, 0);
      assert.equal(denial(stdout).behavior, 'deny');
      assert.match(denial(stdout).message, /no answer before Codex's hook time limit/);
      await until(() => decidedBy.length === 1);
      assert.deepEqual(decidedBy, [{ by: 'asker', at: 'hookDeadline' }]);
    });
  });

  test("Claude Code at its hook's deadline: no decision (its own prompt stays open for the person), recorded as handed back", async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const decidedBy: DecidedBy[] = [];
      broker.onDidChange((change) => change.type === 'settled' && change.decidedBy && decidedBy.push(change.decidedBy));
      const outcome = await run('claude-code', { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN }, { handBackBeforeMs: SOON });
      assert.deepEqual([outcome.exitCode, outcome.stdout], [1, '']);
      assert.match(outcome.stderr, /no answer before Claude Code's hook time limit; Claude Code asks you itself/);
      await until(() => decidedBy.length === 1);
      assert.deepEqual(decidedBy, [{ by: 'asker', at: 'hookDeadline' }]);
    });
  });

  test("prevents Codex's reviewer from deciding a request that never reached the panel (the endpoint off when the hook starts): the hook denies", async () => {
    let url = '';
    await withEndpoint(async ({ endpoint }) => {
      url = endpoint.url;
    });
    const { exitCode, stdout } = await run('codex', { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN });
    assert.equal(exitCode, 0);
    assert.equal(denial(stdout).behavior, 'deny');
    assert.match(denial(stdout).message, /nothing listens at/);
  });
});
