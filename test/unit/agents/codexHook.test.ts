// The hook command's Codex shape (src/agents/codex/codexHook.ts): Codex 0.171's PermissionRequest input,
// as it sent it here, becomes an approve call; the decision is printed as Codex accepts it.
import * as assert from 'node:assert/strict';
import { codexHook } from '../../../src/agents/codex/codexHook';
import { runHook } from '../../../src/hook/runHook';

/** Codex 0.171.0's PermissionRequest hook input for an escalated shell command, as it sends it. */
const CODEX_BASH_INPUT = {
  session_id: '01a23a8d-d96b-7301-9f71-e5490fd07409',
  turn_id: '01a23a8d-d9ad-7f22-89f9-6bac741d1e1e',
  transcript_path: '/home/user/.codex/sessions/2026/12/03/rollout-2026-12-03T06-18-24-01a23a8d-d96b-7301-9f71-e5490fd07409.jsonl',
  cwd: '/work/project',
  hook_event_name: 'PermissionRequest',
  model: 'gpt-5.5',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'touch marker && echo done', description: 'Create the marker file' },
};

suite('approval hook command: Codex', () => {
  test('a Codex PermissionRequest input becomes an approve call with the whole tool input', () => {
    assert.deepEqual(codexHook.approveCall(CODEX_BASH_INPUT), { tool_name: 'Bash', input: CODEX_BASH_INPUT.tool_input });
    assert.match((codexHook.approveCall({ ...CODEX_BASH_INPUT, hook_event_name: 'PreToolUse' }) as { problem: string }).problem, /\[\[hooks\.PermissionRequest\]\]/);
    assert.ok('problem' in codexHook.approveCall({ ...CODEX_BASH_INPUT, tool_input: 'ls' }));
    assert.ok('problem' in codexHook.approveCall({ ...CODEX_BASH_INPUT, tool_name: '' }));
    assert.ok('problem' in codexHook.approveCall(null));
  });

  test('an allow carries no updatedInput (Codex fails closed on it); a deny carries the message', () => {
    assert.equal(
      codexHook.output({ behavior: 'allow', updatedInput: { command: 'ls' } }, CODEX_BASH_INPUT),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}',
    );
    assert.equal(
      codexHook.output({ behavior: 'deny', message: 'not now' }, CODEX_BASH_INPUT),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not now"}}}',
    );
  });

  test("prevents Codex's reviewer from deciding when the panel cannot be asked: outside a VS Code terminal the hook denies, saying why and what to do", async () => {
    const outcome = await runHook({ args: ['codex'], stdin: JSON.stringify(CODEX_BASH_INPUT), env: {}, signal: new AbortController().signal });
    assert.equal(outcome.exitCode, 0);
    const decision = JSON.parse(outcome.stdout).hookSpecificOutput.decision;
    assert.equal(decision.behavior, 'deny');
    assert.match(decision.message, /\$AGENT_QUESTIONS_MCP_URL or \$AGENT_QUESTIONS_MCP_TOKEN is not set: start Codex from a VS Code terminal/);
    assert.match(outcome.stderr, /^Agent Questions hook: \$AGENT_QUESTIONS_MCP_URL or \$AGENT_QUESTIONS_MCP_TOKEN is not set[^\n]*; denied\.\n$/);
  });
});
