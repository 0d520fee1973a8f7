// Replacing a Claude Code grant broader than our rules: the edit takes only that grant out of the
// file, keeps the file's own layout, and offers our narrower rule for what it was meant for.
import * as assert from 'node:assert/strict';
import type { ClaudeCodeGrant } from '../../../../../src/broker/permissions/agentGrants/claudeCodeGrants';
import { claudeCodeGrantReplacement, type GrantReplacement } from '../../../../../src/broker/permissions/agentGrants/claudeCodeGrantReplacement';
import type { CommandChecker } from '../../../../../src/broker/permissions/permissionRules';
import { loadTestChecker } from '../../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const CONTEXT = { workspaceFolders: [WORKSPACE], home: '/home/dev' };
const FILE = `${WORKSPACE}/.claude/settings.json`;
const grant = (rule: string, list: ClaudeCodeGrant['list'] = 'allow'): ClaudeCodeGrant => ({
  agent: 'Claude Code',
  file: FILE,
  scope: 'project',
  folder: WORKSPACE,
  list,
  key: list === 'defaultMode' ? 'permissions.defaultMode' : `permissions.${list}`,
  rule,
});

suite('Replacing a Claude Code grant', () => {
  let checker: CommandChecker;
  suiteSetup(async () => {
    checker = await loadTestChecker();
  });
  const replace = (rule: string, text: string, list?: ClaudeCodeGrant['list']) => {
    const result = claudeCodeGrantReplacement(grant(rule, list), text, checker, CONTEXT);
    assert.ok(!('problem' in result), `a replacement, not ${JSON.stringify(result)}`);
    return result as GrantReplacement;
  };

  test('takes only that grant out, in the layout Claude Code writes, and keeps everything else in the file', () => {
    const text = `${JSON.stringify({ permissions: { allow: ['Bash(git status)', 'Bash(npm:*)', 'Read(./docs/**)'], deny: ['Bash(rm:*)'] }, model: 'x' }, null, 2)}\n`;
    const { before, after } = replace('Bash(npm:*)', text);
    assert.equal(before, text);
    assert.equal(after, text.replace('      "Bash(npm:*)",\n', ''));
  });

  test('for a whole `npm`, offers our narrower rules for the npm commands it knows; for `npm test`, «npm test …»', () => {
    const whole = replace('Bash(npm:*)', JSON.stringify({ permissions: { allow: ['Bash(npm:*)'] } }));
    assert.ok(
      whole.narrower.some((r) => r.label === 'npm test …'),
      whole.narrower.map((r) => r.label).join(', '),
    );
    assert.ok(whole.narrower.every((r) => r.key.startsWith('cmd:npm ')));
    const test = replace('Bash(npm test:*)', JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }));
    assert.deepEqual(
      test.narrower.map((r) => r.label),
      ['npm test …'],
    );
  });

  test('an exact command, a file rule, a shell and a mode are only taken out: no narrower rule of ours fits', () => {
    for (const rule of ['Bash(git status)', 'Edit(.vscode/settings.json)', 'Bash(bash:*)'])
      assert.deepEqual(replace(rule, JSON.stringify({ permissions: { allow: [rule] } })).narrower, [], rule);
    const mode = replace('bypassPermissions', JSON.stringify({ permissions: { defaultMode: 'bypassPermissions', allow: [] } }), 'defaultMode');
    assert.deepEqual(JSON.parse(mode.after), { permissions: { allow: [] } });
  });

  test('a file changed since it was read gives a problem, never an edit', () => {
    assert.match(JSON.stringify(claudeCodeGrantReplacement(grant('Bash(npm:*)'), '{"permissions":{"allow":[]}}', checker, CONTEXT)), /no longer holds Bash\(npm:\*\)/);
    assert.match(JSON.stringify(claudeCodeGrantReplacement(grant('Bash(npm:*)'), '{ "permissions": ', checker, CONTEXT)), /no longer valid JSON/);
  });
});
