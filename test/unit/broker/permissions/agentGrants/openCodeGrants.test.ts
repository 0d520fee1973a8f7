// OpenCode's own grants read from its opencode.json / opencode.jsonc `permission` configuration,
// and what each lets through in our words: marked when it allows what our rules would ask, or when
// it is not understood.
import * as assert from 'node:assert/strict';
import { readOpenCodeGrants, withoutComments, type OpenCodeFile } from '../../../../../src/broker/permissions/agentGrants/openCodeGrants';
import { openCodeLedger } from '../../../../../src/broker/permissions/agentGrants/openCodeGrantMeaning';
import { NOT_UNDERSTOOD } from '../../../../../src/broker/permissions/agentGrants/grantMeaning';
import type { CommandChecker } from '../../../../../src/broker/permissions/permissionRules';
import { loadTestChecker } from '../../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const CONTEXT = { workspaceFolders: [WORKSPACE], home: '/home/dev' };
const project = (text: string): OpenCodeFile => ({ path: `${WORKSPACE}/opencode.jsonc`, scope: 'project', folder: WORKSPACE, text });

// As OpenCode 1.18's documentation writes it, with the comments and trailing commas a .jsonc may hold.
const CONFIG = `{
  "$schema": "https://opencode.ai/config.json",
  // Commands the team agreed on
  "permission": {
    "*": "ask",
    "bash": {
      "*": "ask",
      "npm *": "allow", /* every npm command */
      "git status": "allow",
      "rm *": "deny",
    },
    "edit": { "*": "deny", "docs/guide.md": "allow" },
    "webfetch": "allow",
  },
  "agent": { "plan": { "permission": { "edit": "allow" } } },
}`;

suite('OpenCode grants', () => {
  let checker: CommandChecker;
  suiteSetup(async () => {
    checker = await loadTestChecker();
  });
  const grantsOf = (text: string) => openCodeLedger([project(text)], checker, CONTEXT).grants;

  test('reads every tool and pattern of `permission`, and of each agent, from a .jsonc with comments and trailing commas', () => {
    const { grants, problems } = readOpenCodeGrants([project(CONFIG)]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      grants.map((g) => [g.agent, g.key, g.rule, g.list]),
      [
        ['OpenCode', 'permission.*', '"*": "ask"', 'ask'],
        ['OpenCode', 'permission.bash', '"*": "ask"', 'ask'],
        ['OpenCode', 'permission.bash', '"npm *": "allow"', 'allow'],
        ['OpenCode', 'permission.bash', '"git status": "allow"', 'allow'],
        ['OpenCode', 'permission.bash', '"rm *": "deny"', 'deny'],
        ['OpenCode', 'permission.edit', '"*": "deny"', 'deny'],
        ['OpenCode', 'permission.edit', '"docs/guide.md": "allow"', 'allow'],
        ['OpenCode', 'permission.webfetch', '"webfetch": "allow"', 'allow'],
        ['OpenCode', 'agent.plan.permission.edit', '"edit": "allow"', 'allow'],
      ],
    );
    assert.equal(withoutComments('{ "a": "x // not a comment", }'), '{ "a": "x // not a comment" }');
  });

  test('prevents a planted `"npm *": "allow"` from passing as no broader than ours', () => {
    const npm = grantsOf(CONFIG).find((g) => g.rule === '"npm *": "allow"')!;
    assert.match(npm.meaning, /any `npm` command, including `npm exec` and `npm config set`/);
    assert.match(npm.broader ?? '', /our rules ask for these/);
  });

  test('prevents every tool, every command or every edit from passing unmarked', () => {
    assert.match(grantsOf('{ "permission": "allow" }')[0]!.meaning, /every tool call without asking/);
    assert.ok(grantsOf('{ "permission": "allow" }')[0]!.broader);
    assert.ok(grantsOf('{ "permission": { "*": "allow" } }')[0]!.broader);
    assert.match(grantsOf('{ "permission": { "bash": "allow" } }')[0]!.meaning, /any shell command/);
    assert.match(grantsOf(CONFIG).find((g) => g.key === 'agent.plan.permission.edit')!.broader ?? '', /protected configuration/);
    assert.ok(grantsOf('{ "permission": { "bash": { "ls*": "allow" } } }')[0]!.broader, 'a text prefix');
    assert.match(grantsOf('{ "permission": { "edit": { ".vscode/settings.json": "allow" } } }')[0]!.broader ?? '', /VS Code's workspace settings/);
  });

  test('an exact command is judged as our exact rule for it: OpenCode has no sandbox, so a runner is marked', () => {
    const grants = grantsOf('{ "permission": { "bash": { "git log --oneline": "allow", "npm test": "allow" } } }');
    assert.equal(grants[0]!.broader, undefined);
    assert.match(grants[0]!.meaning, /exactly `git log --oneline`: our exact rule/);
    assert.match(grants[1]!.broader ?? '', /runs this workspace's code/);
  });

  test("one plain file in the workspace is not marked, nor are OpenCode's own prompts and refusals; other tools are not understood", () => {
    const grants = grantsOf(CONFIG);
    const guide = grants.find((g) => g.rule === '"docs/guide.md": "allow"')!;
    assert.equal(guide.broader, undefined);
    assert.match(guide.meaning, /editing or writing `\/home\/dev\/project\/docs\/guide\.md` only/);
    for (const grant of grants.filter((g) => g.list !== 'allow')) assert.equal(grant.broader, undefined, grant.rule);
    assert.match(grants.find((g) => g.rule === '"rm *": "deny"')!.meaning, /OpenCode refuses `bash` for `rm \*` itself/);
    assert.equal(grants.find((g) => g.key === 'permission.webfetch')!.broader, NOT_UNDERSTOOD);
  });

  test('a file OpenCode cannot read gives a problem for that file, never a throw; an unknown action is a problem, the rest is read', () => {
    const { grants, problems } = readOpenCodeGrants([
      { ...project('{ "permission": { "bash": '), path: 'a.json' },
      { ...project('"allow"'), path: 'b.json' },
      { ...project('{ "permission": { "bash": { "npm *": "yes", "ls": "allow" }, "edit": 3 } }'), path: 'c.json' },
    ]);
    assert.deepEqual(
      problems.map((p) => [p.agent, p.file]),
      [
        ['OpenCode', 'a.json'],
        ['OpenCode', 'b.json'],
        ['OpenCode', 'c.json'],
        ['OpenCode', 'c.json'],
      ],
    );
    assert.match(problems[0]!.problem, /not valid JSON/);
    assert.match(problems[2]!.problem, /`permission\.bash` holds "npm \*": "yes": not an action/);
    assert.deepEqual(
      grants.map((g) => g.rule),
      ['"ls": "allow"'],
    );
  });
});
