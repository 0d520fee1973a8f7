// The folder the agent runs in (issue 40, item 2, and item 3's git part): relative paths are placed
// against the folder the call runs in (the hook's `cwd`, the input's `cwd`/`workdir`, a `cd` earlier
// in the line), never against the first workspace folder by default; outside the workspace folders
// a command that reads its folder is asked; git is covered only on a repository whose top is a
// workspace folder, and its top-relative paths (`:/x`, `:(top)x`, `HEAD:x`) are placed from that top.
// Real folders in a temporary home; nothing is run.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewPermissionRequest } from '../../../../src/broker/broker';
import { permissionRequestFor, type ApproveInput } from '../../../../src/broker/permissions/approveTool';
import { COMMAND } from '../../../../src/broker/permissions/permissionRules';
import { memoryStore, RememberedPermissions } from '../../../../src/broker/permissions/rememberedPermissions';
import type { PathContext } from '../../../../src/broker/permissions/toolPaths';
import { realPathOf } from '../../../../src/extension/realPath';
import { isRepositoryTop } from '../../../../src/extension/repositoryTop';
import { loadTestChecker } from '../../helpers/fakes';

const SOURCE = { type: 'mcp' as const, label: 'Claude Code' };

/** A home with ~/.ssh/id_rsa; a workspace `ws` that is a repository with src/ and a shipped bare repository vendor/lib; a repository `repo` whose sub-folder `sub` is another workspace. */
function makeHome() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aq-folder-')));
  const home = join(root, 'home');
  const ws = join(home, 'ws');
  const repo = join(home, 'repo');
  const sub = join(repo, 'sub');
  for (const dir of [
    join(home, '.ssh'),
    join(ws, '.git'),
    join(ws, 'src'),
    join(ws, 'vendor', 'lib', 'objects'),
    join(ws, 'vendor', 'lib', 'refs'),
    join(repo, '.git'),
    join(repo, 'secrets'),
    sub,
  ])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY');
  writeFileSync(join(ws, 'src', 'a.ts'), '');
  writeFileSync(join(ws, 'vendor', 'lib', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(ws, 'vendor', 'lib', 'config'), '[core]\n\tfsmonitor = ./evil.sh\n');
  writeFileSync(join(repo, 'secrets', 'prod.env'), 'SECRET=1');
  return { root, home, ws, repo, sub };
}

suite('The folder the agent runs in (issue 40)', () => {
  let places: ReturnType<typeof makeHome>;
  let checker: Awaited<ReturnType<typeof loadTestChecker>>;

  suiteSetup(async () => {
    places = makeHome();
    checker = await loadTestChecker();
  });
  suiteTeardown(() => rmSync(places.root, { recursive: true, force: true }));

  const contextOf = (ws: string): PathContext => ({ workspaceFolders: [ws], home: places.home, realPath: realPathOf, isRepositoryTop });

  /** Fresh rules for the workspace `ws`, with the command rules `keys` remembered ("Always allow", this workspace). */
  async function rules(ws: string, ...keys: string[]): Promise<RememberedPermissions> {
    const permissions = new RememberedPermissions(
      { session: memoryStore(), workspace: memoryStore(), user: memoryStore() },
      { loadChecker: () => Promise.resolve(checker), workspaceFolders: () => [ws], pathContext: () => contextOf(ws) },
    );
    for (const key of keys) await permissions.remember({ key: `${COMMAND}${key}`, value: true, label: key, description: key }, 'Claude Code');
    return permissions;
  }

  /** The request the approve tool makes of an agent's call (`cwd`: what its hook says). */
  function request(ws: string, call: ApproveInput): NewPermissionRequest {
    const made = permissionRequestFor(call, SOURCE, contextOf(ws));
    assert.ok(!('refused' in made));
    return made;
  }
  const bash = (command: string, cwd?: string): ApproveInput => ({ tool_name: 'Bash', input: { command }, ...(cwd !== undefined ? { cwd } : {}) });

  async function decision(ws: string, keys: string[], call: ApproveInput): Promise<string> {
    return (await (await rules(ws, ...keys)).decide(request(ws, call))).decision;
  }

  test('prevents «cat …» from reading ~/.ssh/id_rsa when the agent runs in the home folder (`cat .ssh/id_rsa`)', async () => {
    assert.notEqual(await decision(places.ws, ['cat'], bash('cat .ssh/id_rsa', places.home)), 'allow');
    assert.notEqual(await decision(places.ws, ['cat'], bash('cat id_rsa', join(places.home, '.ssh'))), 'allow');
  });

  test('the card says where a line runs when that is outside the workspace folders (a `cat .ssh/id_rsa` from the home folder reads like one in the workspace otherwise)', async () => {
    const summary = async (call: ApproveInput) => {
      const outcome = await (await rules(places.ws, 'cat')).decide(request(places.ws, call));
      return outcome.decision === 'unavailable' ? '' : (outcome.summary ?? '');
    };
    assert.equal(
      await summary(bash('cat .ssh/id_rsa', places.home)),
      `Runs in \`${places.home}\`, outside the workspace folders. Runs cat. Writes nothing, no network, deletes nothing.`,
    );
    assert.equal(await summary(bash('cat src/a.ts', places.ws)), 'Runs cat. Writes nothing, no network, deletes nothing.');
  });

  test('prevents a command that reads its folder from being covered outside the workspace folders (`ls`, `grep -r`, `git status` in the home folder)', async () => {
    assert.notEqual(await decision(places.ws, ['ls'], bash('ls', places.home)), 'allow');
    assert.notEqual(await decision(places.ws, ['grep'], bash('grep -rn PRIVATE', places.home)), 'allow');
    assert.notEqual(await decision(places.ws, ['git status'], bash('git status', places.home)), 'allow');
  });

  test('prevents relative paths from being placed in the first workspace folder when the agent says no folder', async () => {
    assert.notEqual(await decision(places.ws, ['cat'], bash('cat src/a.ts', '')), 'allow');
  });

  test('prevents «git status …» from running a shipped bare repository (vendor/lib) after the agent moved into it', async () => {
    const lib = join(places.ws, 'vendor', 'lib');
    assert.notEqual(await decision(places.ws, ['git status'], bash('git status', lib)), 'allow');
    assert.notEqual(await decision(places.ws, ['git status'], bash('cd vendor/lib && git status', places.ws)), 'allow');
    assert.notEqual(await decision(places.ws, ['git status'], bash('git -C vendor/lib status', places.ws)), 'allow');
    // A tool's own `workdir` (Codex's exec_command, OpenCode's bash) moves the folder too.
    const exec: ApproveInput = { tool_name: 'exec_command', input: { cmd: 'git status', workdir: 'vendor/lib' }, cwd: places.ws };
    assert.notEqual(await decision(places.ws, ['git status'], exec), 'allow');
  });

  test('prevents git from reading the rest of a repository the workspace is a sub-folder of (`HEAD:secrets/prod.env`, `-- :/`, `-- :/secrets`)', async () => {
    const { sub } = places;
    assert.notEqual(await decision(sub, ['git show'], bash('git show HEAD:secrets/prod.env', sub)), 'allow');
    assert.notEqual(await decision(sub, ['git grep'], bash('git grep -e X -- :/', sub)), 'allow');
    assert.notEqual(await decision(sub, ['git log'], bash('git log -p -- :/secrets', sub)), 'allow');
    assert.notEqual(await decision(sub, ['git status'], bash('git status', sub)), 'allow');
  });

  test('prevents top-relative git paths from reaching protected files (`:(top).vscode/settings.json`, `HEAD:.claude/settings.json`)', async () => {
    const { ws } = places;
    assert.notEqual(await decision(ws, ['git log'], bash('git log -- :(top).vscode/settings.json', join(ws, 'src'))), 'allow');
    assert.notEqual(await decision(ws, ['git show'], bash('git show HEAD:.claude/settings.json', join(ws, 'src'))), 'allow');
  });

  test('prevents a `cd` out of the workspace from carrying covered parts (`cd ~ && cat .ssh/id_rsa`, `cd .. && cat ws/src/a.ts`)', async () => {
    const { ws, home } = places;
    assert.notEqual(await decision(ws, ['cat'], bash('cd ~ && cat .ssh/id_rsa', ws)), 'allow');
    assert.notEqual(await decision(ws, ['cat'], bash(`cd ${home} && cat .ssh/id_rsa`, ws)), 'allow');
    assert.notEqual(await decision(ws, ['cat'], bash('cd .. && cat ws/src/a.ts', ws)), 'allow');
    // After `;` (the cd may fail) or in a loop, the folder is not known: relative paths are not placed.
    assert.notEqual(await decision(ws, ['cat'], bash('cd src; cat a.ts', ws)), 'allow');
    assert.notEqual(await decision(ws, ['cat'], bash('for i in 1 2; do cat a.ts; cd src; done', ws)), 'allow');
    // Only `cd` and no rule: nothing allows it.
    assert.notEqual(await decision(ws, ['cat'], bash('cd src', ws)), 'allow');
  });

  test('a `cd` within the workspace followed by covered parts is covered (`cd src && ls`, `cd src && cat a.ts`)', async () => {
    const { ws } = places;
    assert.equal(await decision(ws, ['ls'], bash('cd src && ls', ws)), 'allow');
    assert.equal(await decision(ws, ['cat'], bash('cd src && cat a.ts && cat ../README.md', ws)), 'allow');
    assert.equal(await decision(ws, ['ls'], bash(`cd ${ws}/src && ls`, places.home)), 'allow');
  });

  test('inside the workspace, relative paths are placed from the agent folder and git works on the workspace repository', async () => {
    const { ws } = places;
    const src = join(ws, 'src');
    assert.equal(await decision(ws, ['cat'], bash('cat a.ts', src)), 'allow');
    assert.equal(await decision(ws, ['cat'], bash('cat ../src/a.ts', src)), 'allow');
    assert.equal(await decision(ws, ['git status'], bash('git status', src)), 'allow');
    assert.equal(await decision(ws, ['git show'], bash('git show HEAD:src/a.ts', ws)), 'allow');
    assert.equal(await decision(ws, ['git grep'], bash('git grep -e X -- :/', src)), 'allow');
    assert.equal(await decision(ws, ['echo'], bash('echo hi', places.home)), 'allow');
    // Without a folder (a caller inside VS Code), the first workspace folder stands for it, as before.
    assert.equal(await decision(ws, ['cat'], bash('cat src/a.ts')), 'allow');
  });

  test('the prompt offers no rule for a command run outside the workspace folders', async () => {
    const outcome = await (await rules(places.ws)).decide(request(places.ws, bash('cat .ssh/id_rsa', places.home)));
    assert.equal(outcome.decision, 'ask');
    assert.deepEqual(
      outcome.options.map((o) => o.label),
      [],
    );
  });
});
