// Files that decide what runs or what an agent believes (issue 40, item 5): the runners'
// configuration, hook folders, every agent's instructions, CI and dev containers, and a folder
// holding a bare repository. No rule covers writing them («Write in the workspace» included), the
// prompt says why, and the user can still allow one write once. Protected home files are also
// recognised when a command names them by their absolute path, inside any word.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewPermissionRequest } from '../../../../src/broker/broker';
import { COMMAND } from '../../../../src/broker/permissions/permissionRules';
import { memoryStore, RememberedPermissions } from '../../../../src/broker/permissions/rememberedPermissions';
import { exactRuleKey } from '../../../../src/broker/permissions/shell/commandRules';
import { displayToolCall } from '../../../../src/broker/permissions/toolCallDisplay';
import type { PathContext } from '../../../../src/broker/permissions/toolPaths';
import { isBareRepository, realPathOf } from '../../../../src/extension/realPath';
import { loadTestChecker } from '../../helpers/fakes';

const HOME = '/home/dev';
const WORKSPACE = `${HOME}/project`;
const CONTEXT: PathContext = { workspaceFolders: [WORKSPACE], home: HOME, userSettingsFolder: `${HOME}/.config/Code/User` };

function call(tool: string, input: Record<string, unknown>, context: PathContext = CONTEXT): NewPermissionRequest {
  const shown = displayToolCall(tool, input, context);
  assert.ok(shown.ok);
  return { source: { type: 'mcp', label: 'Claude Code' }, title: `Claude Code wants to use ${tool}`, detail: '', toolCall: shown.toolCall };
}

const bash = (command: string, context: PathContext = CONTEXT) => call('Bash', { command }, context);

function permissions(context: PathContext = CONTEXT) {
  return new RememberedPermissions(
    { session: memoryStore(), workspace: memoryStore(), user: memoryStore() },
    { loadChecker: loadTestChecker, workspaceFolders: () => context.workspaceFolders, pathContext: () => context },
  );
}

/** Permissions holding «Write in the workspace», granted from the prompt for an ordinary file. */
async function withWorkspaceWrite(context: PathContext = CONTEXT) {
  const p = permissions(context);
  const option = (await p.decide(call('Write', { file_path: 'src/a.ts', content: 'x' }, context))).options.find((o) => o.label === 'Write in the workspace');
  assert.ok(option, '«Write in the workspace» is offered for src/a.ts');
  await p.remember(option, 'Claude Code');
  return p;
}

/** Asserts a Write is asked (not denied: the user can still allow it once), offers no rule, and the card says what the file is. */
async function assertAskedWithReason(p: RememberedPermissions, path: string, reason: RegExp, context: PathContext = CONTEXT) {
  const request = call('Write', { file_path: path, content: 'x' }, context);
  const outcome = await p.decide(request);
  assert.equal(outcome.decision, 'ask', `${path} is asked`);
  assert.deepEqual(
    outcome.options.map((o) => o.label),
    [],
    `${path}: no rule is offered`,
  );
  assert.ok(
    request.toolCall!.warnings.some((w) => reason.test(w) && /no rule covers it/.test(w)),
    `${path}: ${request.toolCall!.warnings.join(' | ')}`,
  );
}

/** The agent's instructions, hooks, CI and dev containers: the 15 names of the issue, then 4 other spellings of them. */
const STEERING = [
  'CLAUDE.md',
  'CLAUDE.local.md',
  'AGENTS.md',
  'GEMINI.md',
  '.github/prompts/release.prompt.md',
  '.github/agents/reviewer.agent.md',
  '.github/chatmodes/plan.chatmode.md',
  '.cursor/rules/style.mdc',
  '.gemini/settings.json',
  '.husky/pre-commit',
  '.githooks/pre-commit',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.devcontainer/devcontainer.json',
  '.github/workflows/ci.yml',
  'packages/app/AGENTS.md',
  'docs/claude.md',
  '.devcontainer.json',
  '.husky/_/husky.sh',
];

/** What each runner of shell/runners.ts loads, as a workspace holds them. */
const RUNNER_CONFIGURATION = [
  'package.json',
  'packages/app/package.json',
  '.npmrc',
  'Makefile',
  'makefile',
  'GNUmakefile',
  'build/rules.mk',
  'tests/conftest.py',
  'pytest.ini',
  'tox.ini',
  'setup.cfg',
  'pyproject.toml',
  'eslint.config.js',
  '.eslintrc.json',
  'prettier.config.cjs',
  '.prettierrc',
  'tsconfig.json',
  'tsconfig.build.json',
  'Cargo.toml',
  'build.rs',
  '.cargo/config.toml',
  'go.mod',
  'go.work',
];

suite('protected files: what decides what runs or what an agent believes', () => {
  test("prevents «Write in the workspace» from covering an agent's instructions, hooks, CI and dev containers (asked with the reason, once allowed still possible)", async () => {
    const p = await withWorkspaceWrite();
    for (const path of STEERING) await assertAskedWithReason(p, path, /./);
  });

  test("prevents «Write in the workspace» from covering a runner's configuration: package.json, Makefile, conftest.py, tsconfig, Cargo.toml, .cargo/, go.mod, eslint and prettier configs…", async () => {
    const p = await withWorkspaceWrite();
    for (const path of RUNNER_CONFIGURATION) await assertAskedWithReason(p, path, /decides what \S+( \S+)? runs/);
    assert.equal((await p.decide(call('Write', { file_path: 'src/b.ts', content: 'x' }))).decision, 'allow', 'an ordinary file is still covered');
  });

  test('prevents an exact rule from rewriting a runner or an instruction file from the shell, while reading them stays covered by a read rule', async () => {
    for (const command of ["echo '{}' > package.json", 'cp /tmp/x.md AGENTS.md', "printf 'x' >> .husky/pre-commit"]) {
      const p = permissions();
      await p.remember({ key: `${COMMAND}${exactRuleKey(command)}`, value: true, label: command, description: 'exact' }, 'Claude Code');
      assert.equal((await p.decide(bash(command))).decision, 'ask', command);
    }
    // Reading them is not what they are protected against: a read rule still covers it.
    for (const [benign, later] of [
      ['jq .name package.json', 'jq -r .version package.json'],
      ['cat README.md', 'cat AGENTS.md'],
      ['tsc --noEmit', 'tsc --noEmit -p tsconfig.json'],
    ] as const) {
      const p = permissions();
      const option = (await p.decide(bash(benign))).options.find((o) => o.value !== undefined && o.label.endsWith('…'));
      assert.ok(option, `${benign}: a prefix rule is offered`);
      await p.remember(option, 'Claude Code');
      assert.equal((await p.decide(bash(later))).decision, 'allow', `${later} under ${option.label}`);
    }
  });

  test('prevents an exact rule for a line that writes a protected home file by its absolute path, inside a quoted program or joined to an option', async () => {
    for (const command of [
      `awk 'BEGIN{print "alias ls=rm" > "${HOME}/.bashrc"}'`,
      `ssh-keygen -q -f ${HOME}/.ssh/id_new -N ''`,
      `git config --file ${HOME}/.gitconfig core.pager 'sh -c x'`,
      `git config --file=${HOME}/.gitconfig core.pager x`,
      `ssh-keygen -f${HOME}/.ssh/id_new`,
      `python3 -c "open('${HOME}/.zshrc','a').write('x')"`,
    ]) {
      const request = bash(command);
      assert.ok(
        request.toolCall!.warnings.some((w) => /no rule covers it/.test(w)),
        `${command}: ${request.toolCall!.warnings.join(' | ')}`,
      );
      const p = permissions();
      assert.deepEqual(
        (await p.decide(request)).options.map((o) => o.label),
        [],
        `${command}: no rule is offered`,
      );
      await p.remember({ key: `${COMMAND}${exactRuleKey(command)}`, value: true, label: command, description: 'exact' }, 'Claude Code');
      assert.equal((await p.decide(request)).decision, 'ask', `${command}: an exact rule does not allow it`);
    }
  });

  suite('a folder holding a bare repository', () => {
    let temp = '';
    setup(() => {
      temp = realpathSync(mkdtempSync(join(tmpdir(), 'agent-questions-bare-')));
    });
    teardown(() => rmSync(temp, { recursive: true, force: true }));

    test("prevents «Write in the workspace» from covering a shipped bare repository's config (core.fsmonitor runs on git status) or creating one", async () => {
      const workspace = join(temp, 'project');
      const bare = join(workspace, 'vendor', 'lib');
      for (const dir of [join(bare, 'objects'), join(bare, 'refs'), join(workspace, 'src')]) mkdirSync(dir, { recursive: true });
      writeFileSync(join(bare, 'HEAD'), 'ref: refs/heads/main\n');
      const context: PathContext = { workspaceFolders: [workspace], home: temp, realPath: realPathOf, isBareRepository };
      const p = await withWorkspaceWrite(context);
      for (const path of ['vendor/lib/config', 'vendor/lib/hooks/post-checkout', `${bare}/objects/info/alternates`])
        await assertAskedWithReason(p, path, /bare Git repository/, context);
      // The last of the three markers written into a folder that holds the other two makes a new one: asked too.
      for (const dir of ['objects', 'refs']) mkdirSync(join(workspace, 'tools', 'repo', dir), { recursive: true });
      await assertAskedWithReason(p, 'tools/repo/HEAD', /bare Git repository/, context);
      await assertAskedWithReason(p, 'tools/repo/config', /bare Git repository/, context);
      assert.equal((await p.decide(call('Write', { file_path: 'src/b.ts', content: 'x' }, context))).decision, 'allow', 'an ordinary file is still covered');
    });
  });
});
