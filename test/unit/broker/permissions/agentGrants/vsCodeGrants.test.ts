// VS Code's own grants read from its settings at user and workspace level, and what each lets
// through in our words: they decide VS Code's own agent's calls before ours.
import * as assert from 'node:assert/strict';
import { readVsCodeGrants, type VsCodeSettings } from '../../../../../src/broker/permissions/agentGrants/vsCodeGrants';
import { vsCodeLedger } from '../../../../../src/broker/permissions/agentGrants/vsCodeGrantMeaning';
import { NOT_UNDERSTOOD } from '../../../../../src/broker/permissions/agentGrants/grantMeaning';
import type { CommandChecker } from '../../../../../src/broker/permissions/permissionRules';
import { loadTestChecker } from '../../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const CONTEXT = { workspaceFolders: [WORKSPACE], home: '/home/dev' };
const workspace = (values: VsCodeSettings['values']): VsCodeSettings => ({ path: `${WORKSPACE}/.vscode/settings.json`, scope: 'workspace', values });

suite('VS Code grants', () => {
  let checker: CommandChecker;
  suiteSetup(async () => {
    checker = await loadTestChecker();
  });
  const grantsOf = (values: VsCodeSettings['values']) => vsCodeLedger([workspace(values)], checker, CONTEXT).grants;

  test("reads each terminal rule in VS Code's shapes (true, false, null, { approve, matchCommandLine }), edit globs and the global switch", () => {
    const { grants, problems } = readVsCodeGrants([
      { path: '/home/dev/.config/Code/User/settings.json', scope: 'user', values: { 'chat.tools.global.autoApprove': true } },
      workspace({
        'chat.tools.terminal.autoApprove': { 'npm test': true, rm: false, mkdir: null, '/^git (status|log)\\b/': { approve: true, matchCommandLine: true } },
        'chat.tools.edits.autoApprove': { '**/*.md': true, '**/.env': false },
      }),
    ]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      grants.map((g) => [g.agent, g.scope, g.key, g.rule, g.list, g.matchCommandLine ?? false]),
      [
        ['VS Code', 'user', 'chat.tools.global.autoApprove', 'true', 'defaultMode', false],
        ['VS Code', 'workspace', 'chat.tools.terminal.autoApprove', 'npm test', 'allow', false],
        ['VS Code', 'workspace', 'chat.tools.terminal.autoApprove', 'rm', 'ask', false],
        ['VS Code', 'workspace', 'chat.tools.terminal.autoApprove', '/^git (status|log)\\b/', 'allow', true],
        ['VS Code', 'workspace', 'chat.tools.edits.autoApprove', '**/*.md', 'allow', false],
        ['VS Code', 'workspace', 'chat.tools.edits.autoApprove', '**/.env', 'ask', false],
      ],
    );
  });

  test('prevents a planted `"npm": true` from passing as no broader than ours: VS Code matches it as a prefix', () => {
    const [grant] = grantsOf({ 'chat.tools.terminal.autoApprove': { npm: true } });
    assert.match(grant!.meaning, /any `npm` command, including `npm exec` and `npm config set`: run in VS Code's agent's terminal without asking/);
    assert.match(grant!.broader ?? '', /our rules ask for these/);
  });

  test('prevents a regular expression, the global switch or an edit glob from passing unmarked', () => {
    assert.equal(grantsOf({ 'chat.tools.terminal.autoApprove': { '/^npm\\b/': true } })[0]!.broader, NOT_UNDERSTOOD);
    assert.match(grantsOf({ 'chat.tools.global.autoApprove': true })[0]!.broader ?? '', /never allow every call/);
    assert.match(grantsOf({ 'chat.tools.edits.autoApprove': { '**/*': true } })[0]!.broader ?? '', /protected configuration/);
  });

  test("VS Code's own prompts and one plain file are not marked", () => {
    const grants = grantsOf({ 'chat.tools.terminal.autoApprove': { rm: false }, 'chat.tools.edits.autoApprove': { 'docs/guide.md': true } });
    assert.deepEqual(
      grants.map((g) => g.broader),
      [undefined, undefined],
    );
    assert.match(grants[0]!.meaning, /VS Code's agent asks for `rm` in its own prompt/);
    assert.match(grants[1]!.meaning, /editing `\/home\/dev\/project\/docs\/guide\.md` only/);
  });

  test('a value of another shape is a problem for that setting, never a throw; the rest is read', () => {
    const { grants, problems } = readVsCodeGrants([
      workspace({ 'chat.tools.terminal.autoApprove': { ls: 'yes', pwd: true }, 'chat.tools.edits.autoApprove': ['x'], 'chat.tools.global.autoApprove': 1 }),
    ]);
    assert.equal(problems.length, 3);
    assert.ok(problems.every((p) => p.agent === 'VS Code' && p.scope === 'workspace'));
    assert.deepEqual(
      grants.map((g) => g.rule),
      ['pwd'],
    );
  });
});
