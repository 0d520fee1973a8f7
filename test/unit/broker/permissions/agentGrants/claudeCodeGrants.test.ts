// Claude Code's own grants read from its settings files, and what each lets through in our words:
// marked when it allows what our rules would ask, or when it is not understood.
import * as assert from 'node:assert/strict';
import { readClaudeCodeGrants, type ClaudeCodeSettingsFile } from '../../../../../src/broker/permissions/agentGrants/claudeCodeGrants';
import { claudeCodeLedger } from '../../../../../src/broker/permissions/agentGrants/claudeCodeGrantMeaning';
import { NOT_UNDERSTOOD } from '../../../../../src/broker/permissions/agentGrants/grantMeaning';
import type { CommandChecker } from '../../../../../src/broker/permissions/permissionRules';
import { loadTestChecker } from '../../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const CONTEXT = { workspaceFolders: [WORKSPACE], home: '/home/dev' };

const local = (allow: unknown, more: Record<string, unknown> = {}): ClaudeCodeSettingsFile => ({
  path: `${WORKSPACE}/.claude/settings.local.json`,
  scope: 'local',
  folder: WORKSPACE,
  text: JSON.stringify({ permissions: { allow, ...more } }),
});

suite('Claude Code grants', () => {
  let checker: CommandChecker;
  suiteSetup(async () => {
    checker = await loadTestChecker();
  });
  /** The one allow grant's meaning. */
  const meaningOf = (rule: string) => {
    const { grants } = claudeCodeLedger([local([rule])], checker, CONTEXT);
    assert.equal(grants.length, 1);
    return grants[0]!;
  };

  test('reads allow, deny and ask from each file with its scope, and a mode that skips the prompts', () => {
    const { grants, problems } = readClaudeCodeGrants([
      { path: '/home/dev/.claude/settings.json', scope: 'user', text: JSON.stringify({ permissions: { allow: ['Bash(git status)'], deny: ['Read(./.env)'] } }) },
      {
        path: `${WORKSPACE}/.claude/settings.json`,
        scope: 'project',
        folder: WORKSPACE,
        text: JSON.stringify({ permissions: { ask: ['Bash(git push:*)'], defaultMode: 'acceptEdits' } }),
      },
      { path: `${WORKSPACE}/.claude/settings.local.json`, scope: 'local', folder: WORKSPACE, text: undefined },
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      grants.map((g) => [g.scope, g.list, g.rule]),
      [
        ['user', 'allow', 'Bash(git status)'],
        ['user', 'deny', 'Read(./.env)'],
        ['project', 'ask', 'Bash(git push:*)'],
        ['project', 'defaultMode', 'acceptEdits'],
      ],
    );
  });

  test('a malformed file gives a problem for that file, never a throw, and the other files are still read', () => {
    const { grants, problems } = readClaudeCodeGrants([
      { path: 'a/settings.json', scope: 'project', text: '{ "permissions": { "allow": [' },
      { path: 'b/settings.json', scope: 'user', text: '[1]' },
      { path: 'c/settings.json', scope: 'user', text: JSON.stringify({ permissions: { allow: 'Bash', deny: [3, 'Bash(rm:*)'] } }) },
    ]);
    assert.deepEqual(
      problems.map((p) => p.file),
      ['a/settings.json', 'b/settings.json', 'c/settings.json', 'c/settings.json'],
    );
    assert.match(problems[0]!.problem, /not valid JSON/);
    assert.match(problems[2]!.problem, /permissions\.allow` is not a list/);
    assert.deepEqual(
      grants.map((g) => g.rule),
      ['Bash(rm:*)'],
    );
  });

  test('prevents a Claude Code `Bash(npm:*)` from passing as no broader than ours: any npm command, npm exec and npm config set included', () => {
    const grant = meaningOf('Bash(npm:*)');
    assert.match(grant.meaning, /any `npm` command, including `npm exec` and `npm config set`/);
    assert.match(grant.broader ?? '', /our rules ask for these/);
    assert.ok(meaningOf('Bash(npm *)').broader, 'the new prefix syntax too');
  });

  test('prevents every command, or any text prefix, from passing unmarked', () => {
    for (const rule of ['Bash', 'Bash(*)', 'Bash(:*)']) assert.match(meaningOf(rule).meaning, /any shell command/, rule);
    assert.ok(meaningOf('Bash(ls*)').broader);
    assert.match(meaningOf('Bash(bash:*)').meaning, /runs a shell/);
    assert.equal(meaningOf('Bash(git * main)').broader, NOT_UNDERSTOOD);
  });

  test('prevents a prefix our own «… …» rule narrows from passing unmarked, naming lines our rule still asks for', () => {
    const grant = meaningOf('Bash(git log:*)');
    assert.match(grant.meaning, /any `git log` command, with any options and paths, including `git log --output=/);
    assert.match(grant.broader ?? '', /«git log …» rule covers only the options it knows/);
  });

  test('an exact command is no broader when our exact rule allows the same; else marked with our reason', () => {
    const fine = meaningOf('Bash(git log --oneline)');
    assert.equal(fine.broader, undefined);
    assert.match(fine.meaning, /exactly `git log --oneline`: our exact rule/);
    // git status runs the repository's fsmonitor: our rule covers it only inside the sandbox.
    assert.match(meaningOf('Bash(git status)').broader ?? '', /core\.fsmonitor/);
    assert.ok(meaningOf('Bash(cp a.txt /etc/passwd)').broader, 'a write outside the workspace is always asked');
    assert.match(meaningOf('Bash(cat .claude/settings.json)').broader ?? '', /protected configuration/);
  });

  test("prevents an exact runner command from passing unmarked: Claude Code's grant holds outside its sandbox, where our rule covers nothing", () => {
    const grant = meaningOf('Bash(npm test)');
    assert.match(grant.broader ?? '', /runs this workspace's code/);
  });

  test('prevents edits and reads of protected files from passing unmarked', () => {
    for (const rule of ['Edit', 'Edit(**)', 'Write(*)', 'Edit(src/**)', 'Read']) assert.ok(meaningOf(rule).broader, rule);
    assert.match(meaningOf('Edit(.vscode/settings.json)').broader ?? '', /VS Code's workspace settings/);
    assert.match(meaningOf('Write(/.github/workflows/ci.yml)').broader ?? '', /CI workflows/);
    assert.match(meaningOf('Read(~/.ssh/id_ed25519)').broader ?? '', /SSH keys/);
    assert.ok(meaningOf('Edit(.claude/settings.local.json)').broader);
  });

  test('one plain file in the workspace is no broader than our rule for that file', () => {
    const grant = meaningOf('Edit(src/index.ts)');
    assert.equal(grant.broader, undefined);
    assert.match(grant.meaning, /editing or writing `\/home\/dev\/project\/src\/index\.ts` only/);
  });

  test("MCP tools are listed, not ours to judge; anything else not understood is marked; deny and ask lists are Claude Code's own", () => {
    const mcp = meaningOf('mcp__github__create_issue');
    assert.equal(mcp.broader, undefined);
    assert.match(mcp.meaning, /not ours to judge/);
    for (const rule of ['WebFetch(domain:example.com)', 'Task', 'Bash(git status', 'SomeNewTool(x)']) assert.equal(meaningOf(rule).broader, NOT_UNDERSTOOD, rule);
    assert.equal(meaningOf('WebSearch').broader, undefined);
    const { grants } = claudeCodeLedger([local([], { deny: ['Bash(rm:*)'], ask: ['Bash'], defaultMode: 'bypassPermissions' })], checker, CONTEXT);
    assert.deepEqual(
      grants.map((g) => [g.list, g.broader !== undefined]),
      [
        ['deny', false],
        ['ask', false],
        ['defaultMode', true],
      ],
    );
  });

  test('without the shell parser, an exact command cannot be shown no broader: marked', () => {
    const { grants } = claudeCodeLedger([local(['Bash(git status)'])], undefined, CONTEXT);
    assert.equal(grants[0]!.broader, NOT_UNDERSTOOD);
  });
});
