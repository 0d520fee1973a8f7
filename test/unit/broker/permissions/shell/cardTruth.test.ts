// The card and the offered rule say what a line runs and writes, and never "Writes nothing" for a
// program the analysis does not model (issue 40, item 4; item 3's tsconfig writes).
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeCommandLine, type PathClass } from '../../../../../src/broker/permissions/shell/commandEffects';
import { decideCommandLine, exactRuleKey, offeredRules } from '../../../../../src/broker/permissions/shell/commandRules';
import type { WorkspaceFiles } from '../../../../../src/broker/permissions/shell/runnerCode';
import { loadShellParser, SHELL_WASM_FILES, type ShellParser } from '../../../../../src/broker/permissions/shell/shellCommand';
import { memoryStore, RememberedPermissions } from '../../../../../src/broker/permissions/rememberedPermissions';
import { displayToolCall } from '../../../../../src/broker/permissions/toolCallDisplay';
import { workspaceFilesIn } from '../../../../../src/broker/permissions/workspaceFiles';
import { diskReader } from '../../../../../src/extension/diskReader';
import { loadTestChecker } from '../../../helpers/fakes';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');

/** The workspace is /ws, home /home/dev; agent, editor and git configuration, ~/.ssh, ~/.bashrc and ~/.gitconfig are protected. */
const classify: PathClass = (path) => {
  const resolved = path.startsWith('~') ? path.replace(/^~/, '/home/dev') : path.startsWith('/') ? path : `/ws/${path}`.replace(/\/\.?$/, '');
  if (/\/\.(git|claude|vscode)(\/|$)/.test(resolved)) return { place: 'protected', resolved, what: 'agent or editor configuration' };
  if (/^\/home\/dev\/(\.ssh(\/|$)|\.bashrc$|\.gitconfig$)/.test(resolved)) return { place: 'protected', resolved, what: 'a file in your home folder that runs or grants access' };
  return { place: resolved === '/ws' || resolved.startsWith('/ws/') ? 'workspace' : 'outside', resolved };
};

/** A fake workspace: files by relative path. */
function workspace(tree: Record<string, string>): WorkspaceFiles {
  return {
    read: (path) => tree[path.replace(/^\.\//, '')],
    list: (folder) => (folder === '.' ? [...new Set(Object.keys(tree).map((p) => p.split('/')[0]!))] : undefined),
  };
}

const PACKAGE = JSON.stringify({ scripts: { test: 'mocha', prebuild: 'rimraf dist', build: 'tsc -p .' } });
const MAKEFILE = 'build:\n\ttsc -p .\n\ntest: build\n\tmocha\n\tnode scripts/check.js\n\techo done\n';

suite('The card tells the truth about what a line runs and writes', () => {
  let parser: ShellParser;
  suiteSetup(async () => {
    parser = await loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });
  });
  const summary = (line: string, files?: WorkspaceFiles) => summarizeCommandLine(parser.parse(line), classify, files);
  const decide = (line: string, rules: Record<string, boolean>, files?: WorkspaceFiles) =>
    decideCommandLine(line, parser.parse(line), rules, { classify, ...(files ? { files } : {}) });

  const EXACT_RULE_LINES: Array<[string, RegExp]> = [
    [`awk 'BEGIN{print "export X=1" > "/home/dev/.bashrc"}'`, /Writes \/home\/dev\/\.bashrc \(/],
    [`perl -e 'open(F, ">>", "/home/dev/.bashrc"); print F "x"'`, /Writes: not known/],
    [`python3 -c 'open("/home/dev/.bashrc", "a").write("x")'`, /Writes: not known/],
    [`node -e 'require("fs").appendFileSync("/home/dev/.bashrc", "x")'`, /Writes: not known/],
    [`ruby -e 'File.write("/home/dev/.bashrc", "x")'`, /Writes: not known/],
    [`ssh-keygen -q -N '' -f /home/dev/.ssh/id_new`, /Writes \/home\/dev\/\.ssh\/id_new \(/],
    [`git config --file /home/dev/.gitconfig core.pager 'sh -c x'`, /Writes \/home\/dev\/\.gitconfig \(/],
  ];

  test('prevents "Writes nothing" on the 7 exact-rule cards whose program wrote a protected file', () => {
    for (const [line, expected] of EXACT_RULE_LINES) {
      const card = summary(line);
      assert.ok(!/writes nothing/i.test(card), `${line} → ${card}`);
      assert.match(card, expected, line);
    }
  });

  test('prevents an exact rule from allowing a named write into a protected file (awk, ssh-keygen, git config --file)', () => {
    for (const [line] of [EXACT_RULE_LINES[0]!, EXACT_RULE_LINES[5]!, EXACT_RULE_LINES[6]!]) assert.equal(decide(line, { [exactRuleKey(line)]: true }).decision, 'ask', line);
  });

  test('prevents a runner\'s card from saying "Writes nothing": npm test names package.json\'s script', () => {
    const files = workspace({ 'package.json': PACKAGE });
    const card = summary('npm test', files);
    assert.equal(card, "Runs npm. Runs this workspace's code: `mocha` (package.json's test script). Writes: not known, network: not known, deletes: not known.");
    assert.match(summary('npm t', files), /`mocha` \(package\.json's test script\)/);
    assert.match(summary('npm run build', files), /`rimraf dist`, `tsc -p \.` \(package\.json's prebuild, build scripts\)/);
    // The finding: the script the agent wrote is shown as it is.
    const written = workspace({ 'package.json': JSON.stringify({ scripts: { test: "node -e \"require('fs').writeFileSync('.claude/settings.json','{}')\"" } }) });
    assert.match(summary('npm test', written), /Runs this workspace's code: `node -e "require\('fs'\)\.writeFileSync\('\.claude\/settings\.json','\{\}'\)"`/);
    assert.match(summary('npm test'), /Runs this workspace's code: package\.json's test script\. Writes: not known/);
  });

  test('a make card names the first lines of the recipe; pytest, eslint and prettier name the configuration they load', () => {
    const files = workspace({ Makefile: MAKEFILE, 'conftest.py': '', 'pyproject.toml': '', 'eslint.config.js': '', 'prettier.config.cjs': '', 'README.md': '' });
    assert.match(
      summary('make test', files),
      /Runs this workspace's code: `mocha`, `node scripts\/check\.js` and 1 more line \(the Makefile's test recipe, after build\)\. Writes: not known/,
    );
    assert.match(summary('make', files), /`tsc -p \.` \(the Makefile's build recipe\)/);
    assert.match(summary('pytest -q tests', files), /Runs this workspace's code: the tests and conftest\.py \(it loads conftest\.py, pyproject\.toml\)\./);
    assert.match(summary('eslint src', files), /\(it loads eslint\.config\.js\)/);
    assert.match(summary('prettier --check .', files), /\(it loads prettier\.config\.cjs\)/);
  });

  test('git status names the fsmonitor the repository sets, and writes nothing when it sets none', () => {
    const monitored = workspace({ '.git/config': '[core]\n\tbare = false\n\tfsmonitor = ./tools/watch.sh\n' });
    assert.match(summary('git status', monitored), /Runs this workspace's code: `\.\/tools\/watch\.sh` \(the repository's core\.fsmonitor\)\. Writes: not known/);
    assert.equal(summary('git status', workspace({ '.git/config': '[core]\n\tbare = false\n' })), 'Runs git. Writes nothing, no network, deletes nothing.');
    assert.match(summary('git status'), /core\.fsmonitor program, if set\. Writes: not known/);
  });

  test('prevents tsc --noEmit from writing a build-info file outside under «tsc …»: a tsconfig with incremental, composite or tsBuildInfoFile writes', () => {
    const files = workspace({
      'tsconfig.json': '{ "compilerOptions": { "incremental": true, /* comment */ "strict": true, } }',
      'tsconfig.bundle.json': '{ "compilerOptions": { "tsBuildInfoFile": "/home/dev/.bashrc" } }',
      'tsconfig.plain.json': '{ "compilerOptions": { "strict": true } }',
      'tsconfig.lib.json': '{ "compilerOptions": { "composite": true, "outDir": "out" } }',
    });
    assert.match(summary('tsc --noEmit', files), /Writes tsconfig\.tsbuildinfo in the workspace\./);
    assert.match(summary('tsc --noEmit -p tsconfig.lib.json', files), /Writes out\/tsconfig\.lib\.tsbuildinfo in the workspace\./);
    assert.match(summary('tsc --noEmit -p tsconfig.bundle.json', files), /Writes \/home\/dev\/\.bashrc \(/);
    assert.equal(decide('tsc --noEmit -p tsconfig.bundle.json', { tsc: true }, files).decision, 'ask');
    assert.equal(decide('tsc --noEmit -p tsconfig.plain.json', { tsc: true }, files).decision, 'allow');
    assert.equal(decide('tsc --noEmit', { tsc: true }, workspace({ 'package.json': PACKAGE })).decision, 'allow', 'no tsconfig.json in the folder');
    assert.equal(decide('tsc --noEmit -p missing.json', { tsc: true }, files).decision, 'allow', 'tsc stops: no such project');
  });

  test('a tsconfig is read with what it extends: a relative file, or a package under node_modules; anything else is not known', () => {
    const files = workspace({
      'tsconfig.json': '{ "extends": "./configs/base.json" }',
      'configs/base.json': '{ "extends": ["@tsconfig/node20"], "compilerOptions": { "tsBuildInfoFile": "../cache/ts.info" } }',
      'node_modules/@tsconfig/node20/tsconfig.json': '{ "compilerOptions": { "strict": true } }',
      'tsconfig.pkg.json': '{ "extends": "@tsconfig/node20/tsconfig.json" }',
      'tsconfig.missing.json': '{ "extends": "@tsconfig/missing" }',
    });
    assert.match(summary('tsc --noEmit', files), /Writes cache\/ts\.info in the workspace\./);
    assert.equal(decide('tsc --noEmit -p tsconfig.pkg.json', { tsc: true }, files).decision, 'allow');
    assert.equal(decide('tsc --noEmit -p tsconfig.missing.json', { tsc: true }, files).decision, 'ask');
  });

  test('prevents `--noEmit false` from passing for --noEmit: tsc then writes its output', () => {
    const files = workspace({ 'tsconfig.plain.json': '{ "compilerOptions": { "strict": true } }' });
    assert.match(summary('tsc --noEmit false -p tsconfig.plain.json', files), /Writes files not known before it runs \(tsc writes its output beside the sources it compiles\)/);
    assert.equal(decide('tsc --noEmit false -p tsconfig.plain.json', { tsc: true }, files).decision, 'ask');
    assert.equal(decide('tsc --noEmit false', { tsc: true }).decision, 'ask');
  });

  test('a fully modelled line still says "Writes nothing"; an unknown program says what is not known', () => {
    assert.equal(summary('git log --oneline -5 | grep fix | head -3'), 'Runs git, grep, head. Writes nothing, no network, deletes nothing.');
    assert.equal(summary('ls src && cat README.md'), 'Runs ls, cat. Writes nothing, no network, deletes nothing.');
    assert.equal(summary('mkdir -p out && cp a.txt out/'), 'Runs mkdir, cp. Writes out in the workspace. No network, deletes nothing.');
    assert.equal(summary(`awk '{ print $1 }' data.txt`), 'Runs awk. Writes nothing, no network, deletes nothing.');
    assert.equal(summary('mytool --fast'), 'Runs mytool. Not analysed: what mytool does. Writes: not known, network: not known, deletes: not known.');
    assert.equal(
      summary('echo hi > out.txt; mytool'),
      'Runs echo, mytool. Writes out.txt in the workspace. Not analysed: what mytool does. Other writes: not known, network: not known, deletes: not known.',
    );
  });

  test("the offered rule for a runner says it runs this workspace's code, named, now and after every edit", () => {
    const files = workspace({ 'package.json': PACKAGE });
    const offered = offeredRules('npm test', parser.parse('npm test'), {}, { classify, files });
    const prefix = offered.find((o) => o.kind === 'prefix');
    assert.match(prefix?.description ?? '', /runs this workspace's code: `mocha` \(package\.json's test script\): whatever that code does, now and after every edit/);
    const exact = offered.find((o) => o.kind === 'exact');
    assert.match(exact?.description ?? '', /runs this workspace's code: `mocha`/);
    const plain = offeredRules('git log', parser.parse('git log'), {}, { classify, files });
    assert.ok(plain.every((o) => !o.description.includes("workspace's code")));
  });

  test('the card and Check a Command read the workspace through the reader the permissions are given', async () => {
    const tree: Record<string, string> = { '/ws/package.json': PACKAGE };
    const disk = {
      readFile: (path: string) => tree[path],
      listFolder: (path: string) => (path === '/ws' ? ['package.json'] : undefined),
      canList: (path: string) => path === '/ws',
    };
    // The checker reads the files (in the extension: dist/shell.js, from the disk); here from a map, confined to /ws.
    const loadChecker = async () => ({ ...(await loadTestChecker()), files: (folder: string | undefined) => workspaceFilesIn(folder, disk) });
    const permissions = new RememberedPermissions(memoryStore(), { loadChecker, workspaceFolders: () => ['/ws'] });
    assert.equal(workspaceFilesIn('/ws', disk)?.read('../etc/passwd'), undefined);
    const display = displayToolCall('Bash', { command: 'npm test' }, ['/ws']);
    assert.ok(display.ok);
    const outcome = await permissions.decide({ source: { type: 'mcp', label: 'Claude Code' }, title: 'Run it?', detail: 'npm test', toolCall: display.toolCall });
    assert.match(outcome.options.find((o) => o.label === 'npm test …')?.description ?? '', /`mocha`/);
    assert.match((outcome.decision !== 'unavailable' && outcome.summary) || '', /Runs this workspace's code: `mocha`/);
  });

  test("prevents a workspace folder of thousands of names from slowing every rule's decision: a command that runs none of its code lists nothing", async () => {
    const listed: string[] = [];
    const names = Array.from({ length: 2000 }, (_, i) => `file${i}.txt`);
    const disk = {
      readFile: () => undefined,
      listFolder: (path: string) => {
        listed.push(path);
        return path === '/ws' ? names : undefined;
      },
      canList: (path: string) => path === '/ws',
    };
    const loadChecker = async () => ({ ...(await loadTestChecker()), files: (folder: string | undefined) => workspaceFilesIn(folder, disk) });
    const permissions = new RememberedPermissions(memoryStore(), { loadChecker, workspaceFolders: () => ['/ws'] });
    await permissions.remember({ key: 'cmd:git log', value: true, label: 'git log …', description: 'test' }, 'test');
    const decide = (command: string) => {
      const display = displayToolCall('Bash', { command }, ['/ws']);
      assert.ok(display.ok);
      return permissions.decide({ source: { type: 'mcp', label: 'Claude Code' }, title: 'Run it?', detail: command, toolCall: display.toolCall });
    };
    assert.equal((await decide('git log --oneline -5')).decision, 'allow');
    assert.equal(listed.length, 0, `a rule's decision on git log listed ${JSON.stringify(listed)}`);
    // A runner whose configuration files decide what it runs still looks at the folder's names.
    await decide('pytest');
    assert.ok(listed.includes('/ws'), `pytest's card looks for its configuration files (listed: ${JSON.stringify(listed)})`);
  });

  test('the disk reader lists a folder only where one is: a file or a missing path has no files to read', () => {
    const folder = mkdtempSync(join(tmpdir(), 'aq-card-'));
    try {
      writeFileSync(join(folder, 'package.json'), PACKAGE);
      assert.equal(diskReader.canList(folder), true);
      assert.equal(workspaceFilesIn(folder, diskReader)?.read('package.json'), PACKAGE);
      assert.equal(diskReader.canList(join(folder, 'package.json')), false);
      assert.equal(workspaceFilesIn(join(folder, 'package.json'), diskReader), undefined);
      assert.equal(workspaceFilesIn(join(folder, 'missing'), diskReader), undefined);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
