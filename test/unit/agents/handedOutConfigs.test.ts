// What "Connect an External Agent…" hands out, pinned byte for byte: users paste these texts and
// write these files to their disks, and agents run the hook commands in them. A change here must be
// meant; then update the hash beside it (print the new one with the failing assertion).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { DAY_SECONDS } from '../../../src/agents/agentConfig';
import { CLAUDE_CODE_FOREGROUND_ENV, CLAUDE_MCP_ADD_JSON_ARGS, claudeCodeHookSettings, claudeCodeMcpJson } from '../../../src/agents/claudeCode/claudeCodeConfig';
import { codexConfigToml } from '../../../src/agents/codex/codexConfig';
import { agentConfigs } from '../../../src/agents/configRegistry';
import { OPENCODE_PLUGIN, OPENCODE_PLUGIN_PATH } from '../../../src/agents/openCode/openCodeConfig';
import { CLAUDE_SANDBOX_VAR, HOOK_WAYS } from '../../../src/broker/contract/wireNames';
import { HOOK_AGENTS } from '../../../src/agents/hookRegistry';
import { runHook } from '../../../src/hook/runHook';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const URL = 'http://127.0.0.1:43117/mcp';

suite('configurations handed out to CLI agents', () => {
  test('the OpenCode plugin written beside opencode.json is the same, byte for byte', () => {
    assert.equal(OPENCODE_PLUGIN_PATH, 'opencode-agent-questions.js');
    assert.equal(Buffer.byteLength(OPENCODE_PLUGIN, 'utf8'), 4857);
    assert.equal(sha256(OPENCODE_PLUGIN), '0f6acbee43b801f60430dd63f41c297275037108eac6f670aba2415a1ad1f86e');
    const openCode = agentConfigs(URL).find((c) => c.agent === 'OpenCode')!;
    assert.equal(openCode.files?.find((f) => f.path === OPENCODE_PLUGIN_PATH)?.text, OPENCODE_PLUGIN);
  });

  test('every agent configuration (label, where it goes, text, files) is the same, byte for byte', () => {
    const configs = agentConfigs(URL);
    assert.deepEqual(
      configs.map((c) => [c.agent, c.where, c.files?.map((f) => f.path)]),
      [
        ['Claude Code', '.mcp.json (or the claude mcp add-json line) and .claude/settings.json in your project', undefined],
        ['Codex CLI', 'the end of ~/.codex/config.toml (or of .codex/config.toml in a trusted project); start codex from a VS Code terminal', undefined],
        ['OpenCode', 'opencode.json and opencode-agent-questions.js beside it, in your project (or in ~/.config/opencode/)', ['opencode.json', 'opencode-agent-questions.js']],
      ],
    );
    assert.equal(sha256(JSON.stringify(configs)), 'c5d3b99f9cc2d96139019abc12f5bdce84feb3a42cf675fa474c2a785a6afe7b');
  });

  test("Claude Code's and Codex's pieces, handed to the tests and the soak, are the same", () => {
    assert.equal(DAY_SECONDS, 86400);
    assert.deepEqual(CLAUDE_CODE_FOREGROUND_ENV, { CLAUDE_CODE_MCP_AUTO_BACKGROUND_MS: '0' });
    assert.equal(sha256(claudeCodeMcpJson()), '9c29362c0ff563468aa65f8a28e8f174facbd6d211782cd8ccd589bedca8a995');
    assert.equal(sha256(JSON.stringify(CLAUDE_MCP_ADD_JSON_ARGS)), 'bfeb2fcc6d7aaa8e5fb8d47273894fdcc44e0a383baf0b41a1982fe5b01b99e2');
    assert.equal(sha256(claudeCodeHookSettings()), 'e7c271b95a38bc9f8d7980215ab7a8119d6608cb9b9fb35af687a3b3d9f724ee');
    assert.equal(sha256(codexConfigToml(URL)), 'f7d2be6aa136f1c78e9483af84257cbecbd55a5d7d98a686e7b3d144f82d65c3');
  });

  test('Claude Code runs Bash in its sandbox and Codex keeps no network in its own, as handed out', () => {
    const settings = JSON.parse(claudeCodeHookSettings()) as { env: Record<string, string>; sandbox: Record<string, unknown> };
    // Every call still comes to the hook; writes only in the project minus what decides what runs next; no network.
    assert.deepEqual([settings.sandbox['enabled'], settings.sandbox['autoAllowBashIfSandboxed'], settings.sandbox['network']], [true, false, { allowedDomains: [] }]);
    const denyWrite = (settings.sandbox['filesystem'] as { denyWrite: string[] }).denyWrite;
    for (const path of ['./.vscode', './.claude', './.mcp.json', './.github', './.husky']) assert.ok(denyWrite.includes(path), path);
    // The marker the hook reads: these settings, with the sandbox, are loaded.
    assert.equal(settings.env[CLAUDE_SANDBOX_VAR], '1');
    assert.match(codexConfigToml(URL), /\n\[sandbox_workspace_write\]\nnetwork_access = false$/);
  });

  test('the hook command knows the same agents, by the same names, as the ways the panel shows', async () => {
    assert.deepEqual(HOOK_WAYS, { 'claude-code': 'Claude Code hook', codex: 'Codex hook', opencode: 'OpenCode plugin' });
    assert.deepEqual(
      Object.entries(HOOK_AGENTS).map(([id, agent]) => [id, agent.noDecisionExitCode, agent.undecided, agent.answeredElsewhere !== undefined]),
      [
        ['claude-code', 1, 'handBack', true],
        ['codex', 1, 'deny', false],
        ['opencode', 1, 'handBack', false],
      ],
    );
    const hook = (agent: string) => runHook({ args: [agent], stdin: '{}', env: {}, signal: new AbortController().signal });
    assert.deepEqual(await hook('nope'), {
      exitCode: 1,
      stdout: '',
      stderr:
        'Agent Questions hook: unknown agent "nope"; usage: node approvalHook.js <claude-code|codex|opencode>, run by the agent\'s permission hook with its hook input on stdin\n',
    });
    assert.equal(
      (await hook('claude-code')).stderr,
      "Agent Questions hook: expected Claude Code's PermissionRequest hook input, or PreToolUse for AskUserQuestion or Bash, Monitor, Read, Grep, Glob, LS (got hook_event_name undefined for undefined); Claude Code asks you itself.\n",
    );
    assert.equal(
      (await hook('codex')).stderr,
      "Agent Questions hook: expected Codex's PermissionRequest hook input (got hook_event_name undefined); run it from [[hooks.PermissionRequest]]; denied.\n",
    );
    assert.equal((await hook('opencode')).stderr, 'Agent Questions hook: the permission.asked input has no permission; OpenCode asks you itself.\n');
  });
});
