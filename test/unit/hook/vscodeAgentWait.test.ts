// agentQuestions.vscodeAgent.waitSeconds, carried to the hook VS Code's own agent runs through the
// window's discovery file: the hook hands a call back to VS Code's own confirmation after the shorter
// of that wait and its own limit's hand-back, and the endpoint records it as handed back at the
// hook's deadline. A missing or unusable value leaves the hook's own limit in charge.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWaitSeconds } from '../../../src/broker/contract/endpointDiscovery';
import type { DecidedBy } from '../../../src/broker/contract/schemas';
import { findEndpoint } from '../../../src/hook/findEndpoint';
import { handBackAfterMs, runAgentHook } from '../../../src/hook/vscodeAgentRun';
import { EndpointDiscoveryFile } from '../../../src/mcp/endpointDiscoveryFile';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';

const PROJECT = '/home/dev/project';
const TERMINAL = {
  hook_event_name: 'PreToolUse',
  cwd: PROJECT,
  tool_name: 'run_in_terminal',
  tool_input: { command: 'touch handback-marker', explanation: 'Create a marker', goal: 'Create a marker', mode: 'sync' },
  tool_use_id: 'call_1',
};

async function withHome(body: (env: Record<string, string | undefined>, home: string) => Promise<void>) {
  const home = mkdtempSync(join(tmpdir(), 'aq-vscode-wait-'));
  try {
    await body({ HOME: home, XDG_CONFIG_HOME: join(home, 'config') }, home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

suite("VS Code's agent hook: how long it waits for an answer", () => {
  test('the wait is a positive, finite number of seconds; anything else is no wait', () => {
    for (const good of [10, 20.5, 86340]) assert.equal(readWaitSeconds(good), good);
    for (const bad of [0, -5, Number.NaN, Infinity, '20', null, undefined, {}]) assert.equal(readWaitSeconds(bad), undefined, String(bad));
  });

  test("the hand-back comes at the shorter of the window's wait and a minute before the hook's limit", () => {
    assert.equal(handBackAfterMs(86400), 86_340_000);
    assert.equal(handBackAfterMs(86400, 20), 20_000);
    assert.equal(handBackAfterMs(86400, 100_000), 86_340_000, 'never later than the hook may wait');
    assert.equal(handBackAfterMs(30, 60), 22_500);
  });

  test("the discovery file carries the window's wait to the hook; a file without one, or with an unusable one, gives none", async () => {
    await withHome(async (env, home) => {
      const file = new EndpointDiscoveryFile(env, home);
      file.write('http://127.0.0.1:9/mcp', TOKEN, [PROJECT], { warn: assert.fail }, 20);
      assert.deepEqual(findEndpoint(PROJECT, env, home), { url: 'http://127.0.0.1:9/mcp', token: TOKEN, waitSeconds: 20 });
      file.write('http://127.0.0.1:9/mcp', TOKEN, [PROJECT], { warn: assert.fail });
      assert.deepEqual(findEndpoint(PROJECT, env, home), { url: 'http://127.0.0.1:9/mcp', token: TOKEN });
      const record = JSON.parse(readFileSync(file.path, 'utf8')) as Record<string, unknown>;
      writeFileSync(file.path, JSON.stringify({ ...record, waitSeconds: -1 }));
      assert.deepEqual(findEndpoint(PROJECT, env, home), { url: 'http://127.0.0.1:9/mcp', token: TOKEN });
    });
  });

  test("prevents a short wait from leaving the call in the Queue: after the window's wait the hook hands back ask, and the request leaves as handed back at the hook's deadline", async () => {
    await withHome(async (env, home) => {
      await withEndpoint(async ({ broker, endpoint }) => {
        const decided: DecidedBy[] = [];
        broker.onDidChange((change) => change.type === 'settled' && decided.push(change.decidedBy));
        new EndpointDiscoveryFile(env, home).write(endpoint.url, TOKEN, [PROJECT], { warn: assert.fail }, 2);
        // VS Code's limit is a day; the window's wait (2 s) decides.
        const outcome = await runAgentHook({ args: ['86400'], stdin: JSON.stringify(TERMINAL), env, home, signal: new AbortController().signal });
        assert.deepEqual(outcome, {
          stdout:
            '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"Not answered in Agent Questions after 2 seconds; confirm it here."}}\n',
          stderr: '',
        });
        await until(() => decided.length === 1);
        assert.deepEqual(decided, [{ by: 'asker', at: 'hookDeadline' }]);
        assert.equal(broker.size, 0);
      });
    });
  });
});
