// Codex's own grants read from its rules files (as "don't ask again" in its prompt appends them) and
// its config.toml, and what each lets through in our words: marked when it allows what our rules
// would ask, or when it is not understood.
import * as assert from 'node:assert/strict';
import { readCodexGrants, type CodexFile } from '../../../../../src/broker/permissions/agentGrants/codexGrants';
import { codexLedger } from '../../../../../src/broker/permissions/agentGrants/codexGrantMeaning';
import { NOT_UNDERSTOOD } from '../../../../../src/broker/permissions/agentGrants/grantMeaning';
import type { CommandChecker } from '../../../../../src/broker/permissions/permissionRules';
import { loadTestChecker } from '../../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const CONTEXT = { workspaceFolders: [WORKSPACE], home: '/home/dev' };
const rules = (text: string, scope: CodexFile['scope'] = 'user'): CodexFile => ({ path: '/home/dev/.codex/rules/default.rules', scope, kind: 'rules', text });
const config = (text: string): CodexFile => ({ path: '/home/dev/.codex/config.toml', scope: 'user', kind: 'config', text });

// As Codex 0.171 appends them (serde_json tokens, one call a line), and as its docs write them by hand.
const DEFAULT_RULES = ['prefix_rule(pattern=["npm"], decision="allow")', 'prefix_rule(pattern=["echo", "Hello, world!"], decision="allow")', ''].join('\n');
const HAND_WRITTEN = `# Prompt before running gh pr view outside the sandbox.
prefix_rule(
    pattern = ["gh", "pr", ["view", "list"]],
    decision = "prompt",
    justification = "Viewing PRs is allowed with approval",
    match = ["gh pr view 7888", ["gh", "pr", "list"]],
    not_match = ["gh pr --repo openai/codex view 7888"],
)

prefix_rule(pattern = ["git", "reset", "--hard"], decision = "forbidden")
network_rule(host="api.example.com", protocol="https", decision="allow")
`;

suite('Codex grants', () => {
  let checker: CommandChecker;
  suiteSetup(async () => {
    checker = await loadTestChecker();
  });
  const ledger = (...files: CodexFile[]) => codexLedger(files, checker, CONTEXT);

  test('reads the prefix rules "don\'t ask again" appends, and hand-written ones with alternatives, comments and examples', () => {
    const { grants, problems } = readCodexGrants([rules(DEFAULT_RULES), rules(HAND_WRITTEN, 'project')]);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      grants.map((g) => [g.agent, g.scope, g.list, g.key, g.pattern]),
      [
        ['Codex', 'user', 'allow', 'prefix_rule', [['npm']]],
        ['Codex', 'user', 'allow', 'prefix_rule', [['echo'], ['Hello, world!']]],
        ['Codex', 'project', 'ask', 'prefix_rule', [['gh'], ['pr'], ['view', 'list']]],
        ['Codex', 'project', 'deny', 'prefix_rule', [['git'], ['reset'], ['--hard']]],
        ['Codex', 'project', 'allow', 'network_rule', undefined],
      ],
    );
    assert.equal(grants[0]!.rule, 'prefix_rule(pattern=["npm"], decision="allow")');
  });

  test('prevents a planted `prefix_rule(pattern=["npm"])` from passing as no broader than ours: any npm command, outside its sandbox', () => {
    const [grant] = ledger(rules(DEFAULT_RULES)).grants;
    assert.match(grant!.meaning, /any `npm` command, including `npm exec` and `npm config set`: run without asking and outside Codex's sandbox/);
    assert.match(grant!.broader ?? '', /our rules ask for these/);
  });

  test('prevents a shell, an unquoted argument prefix or a rule not understood from passing unmarked', () => {
    const grants = ledger(rules('prefix_rule(pattern=["bash", "-lc"], decision="allow")\nprefix_rule(pattern=["echo", "Hello, world!"])\n' + HAND_WRITTEN)).grants;
    assert.match(grants[0]!.meaning, /runs a shell/);
    assert.ok(grants[1]!.broader, 'a prefix allows any arguments after it');
    assert.match(grants[1]!.meaning, /`echo 'Hello, world!'`/);
    const network = grants.find((g) => g.key === 'network_rule')!;
    assert.equal(network.broader, NOT_UNDERSTOOD);
  });

  test("Codex's own prompts and refusals are listed, not marked", () => {
    const grants = ledger(rules(HAND_WRITTEN)).grants;
    assert.match(grants[0]!.meaning, /Codex asks for any command that starts with `gh pr view` or `gh pr list`/);
    assert.equal(grants[0]!.broader, undefined);
    assert.match(grants[1]!.meaning, /Codex refuses any command that starts with `git reset --hard`/);
    assert.equal(grants[1]!.broader, undefined);
  });

  test('prevents approval_policy "never" with danger-full-access from passing unmarked; "never" inside its sandbox is not marked', () => {
    const open = ledger(config('model = "o4"\napproval_policy = "never"\nsandbox_mode = "danger-full-access" # yolo\n\n[mcp_servers.x]\nurl = "http://x"\n')).grants;
    assert.deepEqual(
      open.map((g) => [g.key, g.rule, g.broader !== undefined]),
      [
        ['approval_policy', 'approval_policy = "never"', true],
        ['sandbox_mode', 'sandbox_mode = "danger-full-access"', true],
      ],
    );
    assert.match(open[0]!.meaning, /every command without asking, with no sandbox/);
    const confined = ledger(config('approval_policy = \'never\'\nsandbox_mode = "workspace-write"\n')).grants;
    assert.equal(confined.length, 1, 'a sandbox that confines is no grant');
    assert.equal(confined[0]!.broader, undefined);
    assert.match(confined[0]!.meaning, /Codex never asks: commands run only inside its sandbox \(workspace-write\)/);
    assert.deepEqual(ledger(config('approval_policy = "on-request"\n')).grants, [], 'Codex asking is no grant');
    assert.deepEqual(ledger(config('[[skills.config]]\napproval_policy = "never"\n')).grants, [], 'a key in an array of tables is not the mode');
  });

  test("a profile's mode is read under its name; a granular policy is not understood and marked", () => {
    const grants = ledger(config('[profiles.yolo]\nsandbox_mode = "danger-full-access"\n\n[profiles.careful]\napproval_policy = { granular = { rules = true } }\n')).grants;
    assert.deepEqual(
      grants.map((g) => [g.key, g.broader !== undefined]),
      [
        ['profiles.yolo.sandbox_mode', true],
        ['profiles.careful.approval_policy', true],
      ],
    );
    assert.match(grants[0]!.meaning, /no sandbox; Codex asks only for those it judges dangerous/);
    assert.equal(grants[1]!.broader, NOT_UNDERSTOOD);
  });

  test('a rules file Codex cannot load gives a problem for that file, never a throw, and the other files are still read', () => {
    const { grants, problems } = readCodexGrants([
      { ...rules('prefix_rule(pattern=["ls"], decision="allow"'), path: 'a.rules' },
      { ...rules('load("x.star", "y")\nprefix_rule(pattern=["ls"]) + 1'), path: 'b.rules' },
      { ...rules('x = """multi"""'), path: 'c.rules' },
      rules(DEFAULT_RULES),
    ]);
    assert.deepEqual(
      problems.map((p) => [p.agent, p.file]),
      [
        ['Codex', 'a.rules'],
        ['Codex', 'b.rules'],
        ['Codex', 'c.rules'],
      ],
    );
    assert.match(problems[0]!.problem, /not read at line 1 .*Codex cannot load the file either/);
    assert.equal(grants.length, 2);
  });

  test('a call that is not a prefix rule, or a prefix rule of another shape, is kept and marked not understood', () => {
    const grants = ledger(
      rules('host_executable(name="git", paths=["/usr/bin/git"])\nprefix_rule(pattern=[], decision="allow")\nprefix_rule(pattern=["ls"], decision="maybe")\n'),
    ).grants;
    assert.deepEqual(
      grants.map((g) => g.broader),
      [NOT_UNDERSTOOD, NOT_UNDERSTOOD, NOT_UNDERSTOOD],
    );
  });
});
