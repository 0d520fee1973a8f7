// What each agent's hook tells the approve tool about the sandbox (issue 40, item 6): Claude Code's
// call is sandboxed only with our settings loaded, no `dangerouslyDisableSandbox`, and the sandbox's
// programs on this machine; Codex asks only to leave its sandbox; OpenCode has none.
import * as assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeConfinement, claudeCodeHook } from '../../../src/agents/claudeCode/claudeCodeHook';
import { codexHook } from '../../../src/agents/codex/codexHook';
import { openCodeHook } from '../../../src/agents/openCode/openCodeHook';
import { CLAUDE_SANDBOX_VAR } from '../../../src/broker/contract/wireNames';

/** Claude Code 2.1.332's PermissionRequest input for a Bash call, as it sent it here (sandboxed or not: the same). */
const bash = (toolInput: Record<string, unknown>) => ({
  session_id: '7ea88e74-cead-473f-b084-be0aa9ebd098',
  cwd: '/home/user/project',
  permission_mode: 'default',
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the tests', ...toolInput },
  permission_suggestions: [],
});

suite("approval hook command: whether the call runs in the agent's sandbox", () => {
  let bin = '';
  suiteSetup(() => {
    bin = mkdtempSync(join(tmpdir(), 'aq-sandbox-bin-'));
    for (const name of ['bwrap', 'socat']) {
      writeFileSync(join(bin, name), '#!/bin/sh\n');
      chmodSync(join(bin, name), 0o755);
    }
  });
  suiteTeardown(() => rmSync(bin, { recursive: true, force: true }));

  test('Claude Code: sandboxed only with our settings, bubblewrap and socat, and no dangerouslyDisableSandbox', () => {
    const ours = { [CLAUDE_SANDBOX_VAR]: '1', PATH: bin };
    assert.equal(claudeCodeConfinement(bash({}), ours, 'linux'), 'sandboxed');
    assert.equal(claudeCodeHook.confinement(bash({}), ours), process.platform === 'linux' ? 'sandboxed' : claudeCodeConfinement(bash({}), ours));
    assert.equal(claudeCodeConfinement(bash({ dangerouslyDisableSandbox: true }), ours, 'linux'), 'unsandboxed');
    // Settings without the sandbox, or a machine where it cannot start (Claude Code then runs the call unsandboxed, with a warning).
    assert.equal(claudeCodeConfinement(bash({}), { PATH: bin }, 'linux'), 'unsandboxed');
    assert.equal(claudeCodeConfinement(bash({}), { [CLAUDE_SANDBOX_VAR]: '1', PATH: join(bin, 'none') }, 'linux'), 'unsandboxed');
    assert.equal(claudeCodeConfinement(bash({}), ours, 'win32'), 'unsandboxed');
  });

  test('Codex asks only to leave its sandbox, and OpenCode has none: neither call is sandboxed', () => {
    const input = { hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run the tests' } };
    assert.equal(codexHook.confinement(input, {}), 'unsandboxed');
    assert.equal(openCodeHook.confinement({ permission: 'bash', metadata: { command: 'npm test' } }, {}), 'unsandboxed');
  });
});
