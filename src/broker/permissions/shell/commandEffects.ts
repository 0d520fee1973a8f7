// What a parsed shell command line does, read from the analysis and never from a model: the
// programs it runs, the files it writes (and where: the workspace, outside it, a protected file),
// writes whose destination is known only when it runs, what it deletes, whether it reaches the
// network, and sub-commands that change how later commands run. The permission card shows it as one
// line (effectsSummary); "Check a Command…" shows it too. Pure: no `vscode`; the workspace's files
// (what a runner runs, a tsconfig) come through a reader the caller passes (runnerCode.ts).
// Everything a command does is looked up in the tables below (one place, each entry with its why);
// an option set it does not understand makes it say less is known, never more, and "writes
// nothing" is said only when every program in the line is one whose effects are modelled here.
import { commandName, sedScriptIsRisky } from './dangerousArguments';
import { knownPrefixFor, specForPrefix, unknownArgument } from './knownTools';
import { CODE_RUNNERS, SHELLS } from './programLists';
import { tscWrites, workspaceCodeOf, type WorkspaceFiles } from './runnerCode';
import type { ParsedCommandLine, SubCommand } from './shellCommand';

export type Place = 'workspace' | 'outside' | 'protected';
/** Where a path is: injected (src/broker/permissions/toolPaths.ts resolves real paths; tests use a simple one). */
export type PathClass = (path: string) => { place: Place; resolved: string; what?: string };

export interface CommandEffects {
  /** The programs it runs, in order, each once (wrapped ones too: `sudo rm` runs sudo and rm). */
  programs: string[];
  /** Files it writes whose destination is known, with where that is. */
  writes: Array<{ path: string; place: Place; what?: string }>;
  /** Writes whose destination is known only when it runs, each with why. */
  unknownWrites: string[];
  /** Paths it deletes (annotated when outside the workspace or protected), or why they are not known. */
  deletes: string[];
  /** Why it reaches the network, each once. */
  network: string[];
  /** Sub-commands that change how later commands run, each with what it changes. */
  changesConfig: string[];
  /** Code it runs that the analysis cannot see (`sh -c '…'`, `python x.py`, `npm test`'s script), each with why. */
  notAnalysed: string[];
  /** Deletions outside the workspace, of protected files, or of paths known only when it runs (no rule may allow these). */
  unsafeDeletes: string[];
  /** What of this workspace's code it runs (a runner: `npm test` runs package.json's test script), as named as the files allow. */
  workspaceCode: string[];
  /** Programs whose effects are not modelled here, beyond those `notAnalysed` and `workspaceCode` explain. */
  unmodelled: string[];
  /** Whether every program in the line is one whose writes, deletions and network use are all modelled here. */
  fullyModelled: boolean;
}

// ----- the tables -----

/** How a command takes its options: letters and long names that take a value (the rest are flags). */
interface OptionSpec {
  /** Short options that take a value (`-t DIR`, `-tDIR`). */
  short?: string;
  /** Long options that take a value (`--target-directory=DIR` or `--target-directory DIR`); git's and getopt's abbreviations count. */
  long?: readonly string[];
  /** Flags known to take no value: an option outside `short`/`long`/`flags` is "not understood". */
  flags?: string;
  longFlags?: readonly string[];
}

/** Commands that run the command in their arguments, with how to find it. */
const WRAPPERS: Record<string, { why: string; spec: OptionSpec; skip?: number; assignments?: boolean; inputDriven?: boolean }> = {
  sudo: {
    why: 'runs a command as another user',
    spec: { short: 'ugpCDhrtTUR', long: ['user', 'group', 'prompt', 'close-from', 'chdir', 'host', 'role', 'type', 'other-user', 'command-timeout', 'chroot'] },
  },
  doas: { why: 'runs a command as another user', spec: { short: 'uC' } },
  run0: { why: 'runs a command as another user', spec: { long: ['user', 'group', 'chdir', 'description', 'property', 'setenv', 'nice'] } },
  env: { why: 'runs a command with other environment variables', spec: { short: 'uCS', long: ['unset', 'chdir', 'split-string'] }, assignments: true },
  timeout: { why: 'runs a command with a time limit', spec: { short: 'ks', long: ['kill-after', 'signal'] }, skip: 1 },
  nice: { why: 'runs a command at another priority', spec: { short: 'n', long: ['adjustment'] } },
  nohup: { why: 'runs a command immune to hangups', spec: {} },
  setsid: { why: 'runs a command in a new session', spec: {} },
  time: { why: 'runs a command and times it', spec: { short: 'of', long: ['format', 'output'] } },
  stdbuf: { why: 'runs a command with other buffering', spec: { short: 'ioe', long: ['input', 'output', 'error'] } },
  ionice: { why: 'runs a command at another I/O priority', spec: { short: 'cnp', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] } },
  chrt: { why: 'runs a command with another scheduling policy', spec: {}, skip: 1 },
  taskset: { why: 'runs a command on chosen CPUs', spec: {}, skip: 1 },
  flock: { why: 'runs a command holding a lock', spec: { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'] }, skip: 1 },
  xargs: {
    why: 'runs a command with arguments read from its input',
    spec: { short: 'adEeIiLlnPs', long: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'] },
    inputDriven: true,
  },
  parallel: { why: 'runs a command with arguments read from its input', spec: { short: 'jaS', long: ['jobs', 'arg-file', 'sshlogin'] }, inputDriven: true },
  watch: { why: 'runs a command again and again', spec: { short: 'nd', long: ['interval', 'differences'] } },
  unbuffer: { why: 'runs a command without buffering', spec: {} },
  caffeinate: { why: 'runs a command keeping the machine awake', spec: { short: 'tw' } },
  fakeroot: { why: 'runs a command as a fake root', spec: { short: 'is' } },
  strace: { why: 'runs and traces a command', spec: { short: 'eoOpPsSuUaEX' } },
  ltrace: { why: 'runs and traces a command', spec: { short: 'eoOpsuaAnS' } },
  valgrind: { why: 'runs a command under valgrind', spec: {} },
  command: { why: 'runs a command, skipping functions and aliases', spec: {} },
  exec: { why: 'replaces the shell with a command', spec: { short: 'a' } },
  builtin: { why: 'runs a shell builtin', spec: {} },
  unshare: { why: 'runs a command in new namespaces', spec: {} },
  nsenter: { why: 'runs a command in other namespaces', spec: { short: 'tSG' } },
  chroot: { why: 'runs a command in another root folder', spec: {}, skip: 1 },
  firejail: { why: 'runs a command in a sandbox', spec: {} },
  'systemd-run': {
    why: 'runs a command as a systemd unit',
    spec: { short: 'pEu', long: ['unit', 'property', 'setenv', 'uid', 'gid', 'nice', 'working-directory', 'description', 'slice'] },
  },
};

/** Shells and interpreters: what they run is code the analysis cannot see. */
const INTERPRETERS = new Set([...SHELLS, ...CODE_RUNNERS, 'eval', 'source', '.', 'su', 'runuser', 'ssh-agent', 'script']);

/** `tool sub`: runs the project's own scripts or a package's program, code the analysis cannot see. */
const SCRIPT_RUNNERS: Record<string, ReadonlySet<string> | 'always'> = {
  npm: new Set(['test', 't', 'tst', 'run', 'run-script', 'rum', 'urn', 'start', 'stop', 'restart', 'exec', 'x', 'install', 'i', 'ci', 'add', 'rebuild']),
  pnpm: new Set(['test', 't', 'run', 'start', 'exec', 'dlx', 'install', 'i', 'add']),
  yarn: new Set(['test', 'run', 'start', 'exec', 'dlx', 'install', 'add']),
  npx: 'always',
  bunx: 'always',
  make: 'always',
  just: 'always',
  rake: 'always',
  gradle: 'always',
  gradlew: 'always',
  mvn: 'always',
  ant: 'always',
  cargo: new Set(['run', 'test', 'build', 'check', 'bench', 'install']),
  go: new Set(['run', 'test', 'generate']),
  uv: new Set(['run', 'tool']),
  uvx: 'always',
  poetry: new Set(['run']),
  pipx: new Set(['run']),
  bundle: new Set(['exec']),
  rustup: new Set(['run']),
  dotnet: new Set(['run', 'test', 'build']),
  pytest: 'always',
  tox: 'always',
  nox: 'always',
};

/** Sub-commands that reach the network, by tool (`'*'`: every sub-command). */
const NETWORK_SUBS: Record<string, { subs: ReadonlySet<string> | '*'; why: string; except?: ReadonlySet<string> }> = {
  git: { subs: new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'send-email', 'request-pull']), why: 'contacts a remote repository' },
  npm: {
    subs: new Set([
      'install',
      'i',
      'ci',
      'add',
      'update',
      'up',
      'upgrade',
      'publish',
      'unpublish',
      'view',
      'info',
      'show',
      'v',
      'outdated',
      'audit',
      'login',
      'adduser',
      'logout',
      'search',
      'exec',
      'x',
      'create',
      'init',
      'deprecate',
      'dist-tag',
      'owner',
      'access',
      'token',
      'star',
      'ping',
      'doctor',
      'whoami',
    ]),
    why: 'contacts the package registry',
  },
  pnpm: {
    subs: new Set(['install', 'i', 'add', 'update', 'up', 'publish', 'view', 'info', 'outdated', 'audit', 'dlx', 'create', 'login', 'fetch']),
    why: 'contacts the package registry',
  },
  yarn: {
    subs: new Set(['install', 'add', 'upgrade', 'up', 'publish', 'info', 'npm', 'dlx', 'create', 'outdated', 'audit', 'login', 'why']),
    why: 'contacts the package registry',
  },
  npx: { subs: '*', why: 'may download the package it runs' },
  pip: { subs: new Set(['install', 'download', 'search', 'index', 'wheel']), why: 'contacts the package index' },
  uv: { subs: new Set(['add', 'sync', 'lock', 'pip', 'tool', 'python', 'run', 'publish']), why: 'contacts the package index' },
  poetry: { subs: new Set(['add', 'install', 'update', 'lock', 'publish', 'search']), why: 'contacts the package index' },
  cargo: { subs: new Set(['install', 'fetch', 'update', 'search', 'publish', 'login', 'add', 'yank', 'owner']), why: 'contacts the crate registry' },
  go: { subs: new Set(['get', 'install', 'mod']), why: 'downloads modules' },
  gem: { subs: new Set(['install', 'update', 'push', 'fetch', 'search', 'sources', 'yank']), why: 'contacts the gem server' },
  bundle: { subs: new Set(['install', 'update', 'add', 'outdated']), why: 'contacts the gem server' },
  composer: { subs: new Set(['install', 'require', 'update', 'create-project', 'search', 'outdated']), why: 'contacts the package repository' },
  conda: { subs: new Set(['install', 'create', 'update', 'search']), why: 'contacts the package channels' },
  rustup: { subs: new Set(['install', 'update', 'toolchain', 'component', 'target', 'self']), why: 'downloads toolchains' },
  apt: { subs: new Set(['install', 'update', 'upgrade', 'full-upgrade', 'dist-upgrade', 'download', 'source', 'reinstall']), why: 'contacts the package archives' },
  'apt-get': { subs: new Set(['install', 'update', 'upgrade', 'dist-upgrade', 'download', 'source', 'reinstall']), why: 'contacts the package archives' },
  dnf: { subs: new Set(['install', 'update', 'upgrade', 'download', 'makecache', 'search', 'reinstall']), why: 'contacts the package repositories' },
  yum: { subs: new Set(['install', 'update', 'upgrade', 'makecache', 'search', 'reinstall']), why: 'contacts the package repositories' },
  brew: { subs: new Set(['install', 'update', 'upgrade', 'fetch', 'search', 'tap', 'reinstall', 'info']), why: 'contacts Homebrew' },
  docker: { subs: new Set(['pull', 'push', 'login', 'search', 'run', 'create', 'build', 'buildx', 'compose', 'manifest']), why: 'contacts an image registry' },
  podman: { subs: new Set(['pull', 'push', 'login', 'search', 'run', 'create', 'build']), why: 'contacts an image registry' },
  kubectl: { subs: '*', except: new Set(['config', 'completion', 'help', 'kustomize', 'plugin']), why: "talks to the cluster's API server" },
  helm: { subs: '*', except: new Set(['completion', 'help', 'template', 'lint', 'create', 'env', 'version']), why: 'talks to the cluster or a chart repository' },
  gh: { subs: '*', except: new Set(['config', 'completion', 'help', 'alias', 'version']), why: "calls GitHub's API" },
  glab: { subs: '*', except: new Set(['config', 'completion', 'help', 'alias', 'version']), why: "calls GitLab's API" },
  aws: { subs: '*', except: new Set(['configure', 'help']), why: 'calls the cloud API' },
  gcloud: { subs: '*', except: new Set(['config', 'help', 'info', 'topic']), why: 'calls the cloud API' },
  az: { subs: '*', except: new Set(['config', 'configure', 'help', 'find']), why: 'calls the cloud API' },
  terraform: { subs: new Set(['init', 'plan', 'apply', 'destroy', 'import', 'refresh', 'get', 'login', 'providers']), why: 'calls providers and downloads plugins' },
  pulumi: { subs: '*', except: new Set(['help', 'version']), why: 'calls the cloud and its service' },
};

/** Programs that always reach the network, and what the first operand is. */
const NETWORK_PROGRAMS: Record<string, { why: string; hostOperand?: boolean; spec?: OptionSpec }> = {
  ssh: { why: 'connects to a host', hostOperand: true, spec: { short: 'bcDEeFIiJLlmOopQRSWwB' } },
  slogin: { why: 'connects to a host', hostOperand: true, spec: { short: 'bcDEeFIiJLlmOopQRSWw' } },
  mosh: { why: 'connects to a host', hostOperand: true },
  scp: { why: 'copies files over ssh' },
  sftp: { why: 'transfers files over ssh' },
  curl: { why: 'downloads or sends data' },
  wget: { why: 'downloads files' },
  aria2c: { why: 'downloads files' },
  axel: { why: 'downloads files' },
  http: { why: 'sends an HTTP request' },
  https: { why: 'sends an HTTP request' },
  xh: { why: 'sends an HTTP request' },
  nc: { why: 'opens a network connection' },
  ncat: { why: 'opens a network connection' },
  netcat: { why: 'opens a network connection' },
  socat: { why: 'opens a network connection' },
  telnet: { why: 'opens a network connection', hostOperand: true },
  ftp: { why: 'opens an FTP connection', hostOperand: true },
  lftp: { why: 'opens an FTP connection' },
  tftp: { why: 'opens a TFTP connection', hostOperand: true },
  websocat: { why: 'opens a WebSocket connection' },
  dig: { hostOperand: true, spec: { short: 'bcfkpqtxyh' }, why: 'asks a name server about a name' },
  host: { hostOperand: true, spec: { short: 'bcfkpqtxyh' }, why: 'asks a name server about a name' },
  nslookup: { hostOperand: true, spec: { short: 'bcfkpqtxyh' }, why: 'asks a name server about a name' },
  drill: { hostOperand: true, spec: { short: 'bcfkpqtxyh' }, why: 'asks a name server about a name' },
  whois: { hostOperand: true, spec: { short: 'bcfkpqtxyh' }, why: 'asks a whois server' },
  ping: { why: 'sends packets to a host', hostOperand: true, spec: { short: 'cCfFiIlmMpQsStTwWe' } },
  ping6: { why: 'sends packets to a host', hostOperand: true, spec: { short: 'cCfFiIlmMpQsStTwWe' } },
  traceroute: { why: 'sends packets to a host', hostOperand: true, spec: { short: 'fgimNpqstwz' } },
  tracepath: { why: 'sends packets to a host', hostOperand: true, spec: { short: 'lm' } },
  mtr: { why: 'sends packets to a host', hostOperand: true },
  nmap: { why: 'scans hosts' },
  'openssl s_client': { why: 'connects to a host' },
  'openssl s_server': { why: 'listens for connections' },
  'openssl s_time': { why: 'connects to a host' },
  'openssl ocsp': { why: 'contacts an OCSP responder' },
};

/** Options whose value is a server to talk to (`kubectl --server=…` sends the cluster's token there). */
const SERVER_OPTIONS = /^--(server|registry|host|url|endpoint|endpoint-url|proxy|index-url|extra-index-url|api-url|base-url|hostname|connect|remote)(=|$)/;
/** Programs that only print or search text: a URL among their operands is just text. */
const TEXT_TOOLS = new Set([
  'echo',
  'printf',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'sed',
  'awk',
  'gawk',
  'jq',
  'yq',
  'cat',
  'head',
  'tail',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'column',
  'test',
  'true',
  'false',
  ':',
  'printenv',
  'basename',
  'dirname',
]);

/** Commands that delete, and how their operands are read. */
const DELETERS: Record<string, { why: string; spec: OptionSpec }> = {
  rm: {
    why: 'deletes files',
    spec: { flags: 'fiIrRdvx', longFlags: ['force', 'interactive', 'recursive', 'dir', 'verbose', 'one-file-system', 'no-preserve-root', 'preserve-root'] },
  },
  rmdir: { why: 'deletes empty folders', spec: { flags: 'pv', longFlags: ['parents', 'verbose', 'ignore-fail-on-non-empty'] } },
  unlink: { why: 'deletes a file', spec: {} },
  trash: { why: 'moves files to the trash', spec: {} },
  'trash-put': { why: 'moves files to the trash', spec: {} },
  srm: { why: 'deletes files', spec: {} },
};

/** What a sub-command that changes later commands changes. */
const CONFIG_CHANGERS: Array<{ command: string; sub: RegExp; next?: RegExp; what: string }> = [
  { command: 'npm', sub: /^(config|c)$/, next: /^(set|delete|edit|fix)$/, what: "npm's settings for later npm commands" },
  { command: 'npm', sub: /^set$/, what: "npm's settings for later npm commands" },
  { command: 'npm', sub: /^pkg$/, next: /^(set|delete|fix)$/, what: 'package.json, whose scripts `npm test` and `npm run` run' },
  { command: 'npm', sub: /^(login|adduser|logout)$/, what: 'the registry token in ~/.npmrc' },
  { command: 'pnpm', sub: /^(config|c)$/, next: /^(set|delete)$/, what: "pnpm's settings for later pnpm commands" },
  { command: 'pnpm', sub: /^set$/, what: "pnpm's settings for later pnpm commands" },
  { command: 'yarn', sub: /^config$/, next: /^(set|delete|unset)$/, what: "yarn's settings for later yarn commands" },
  { command: 'yarn', sub: /^set$/, next: /^version$/, what: 'the yarn version this project runs' },
  { command: 'pip', sub: /^config$/, next: /^(set|unset|edit)$/, what: "pip's settings (index-url, …) for later pip commands" },
  { command: 'git', sub: /^config$/, what: "git's settings (some run programs)" },
  { command: 'git', sub: /^remote$/, next: /^(add|set-url|remove|rm|rename|set-head|set-branches)$/, what: 'where a git remote points' },
  { command: 'git', sub: /^lfs$/, next: /^(install|uninstall)$/, what: "git's configuration and hooks (Git LFS)" },
  {
    command: 'kubectl',
    sub: /^config$/,
    next: /^(set|set-cluster|set-context|set-credentials|use-context|use|delete-cluster|delete-context|delete-user|rename-context|unset)$/,
    what: 'the kubeconfig (clusters, credentials)',
  },
  { command: 'docker', sub: /^context$/, next: /^(use|create|update|rm|remove|import)$/, what: 'which Docker daemon docker talks to' },
  { command: 'gh', sub: /^config$/, next: /^set$/, what: "gh's settings (editor, pager)" },
  { command: 'gh', sub: /^alias$/, next: /^(set|delete|import)$/, what: 'gh aliases (which can run shell commands)' },
  { command: 'gh', sub: /^auth$/, next: /^(login|logout|setup-git|switch|refresh)$/, what: "gh's credentials and git's credential helper" },
  { command: 'gcloud', sub: /^config$/, next: /^(set|unset|configurations)$/, what: "gcloud's configuration (account, project)" },
  { command: 'aws', sub: /^configure$/, what: "the AWS CLI's configuration and credentials" },
  { command: 'az', sub: /^(config|account)$/, next: /^(set|unset)$/, what: "the Azure CLI's configuration" },
  { command: 'conda', sub: /^config$/, what: "conda's configuration (channels)" },
  { command: 'poetry', sub: /^config$/, what: "poetry's configuration" },
  { command: 'go', sub: /^env$/, next: /^-[wu]$/, what: "Go's environment (GOFLAGS, toolchain) for later go commands" },
  { command: 'rustup', sub: /^(default|override|set)$/, what: 'which Rust toolchain later commands use' },
  { command: 'gem', sub: /^sources$/, next: /^(-a|--add|-r|--remove)$/, what: 'where gems are installed from' },
  { command: 'helm', sub: /^repo$/, next: /^(add|remove|rm)$/, what: 'the chart repositories helm installs from' },
  { command: 'corepack', sub: /^(enable|disable|use|install|prepare)$/, what: 'which package manager versions run' },
];

/** Commands that write the files a patch or an archive names: the destinations are known only when it runs. */
const EXTRACTS = {
  tar: 'tar extracts files named inside the archive',
  unzip: 'unzip extracts files named inside the archive',
  '7z': '7z extracts files named inside the archive',
  jar: 'jar extracts files named inside the archive',
  cpio: 'cpio extracts files named inside the archive',
  patch: 'git apply / git am / patch write the files the patch names',
  gitPatch: 'git apply / git am / patch write the files the patch names',
  gitTree: 'git writes the files a commit holds into the work tree (tracked agent or editor configuration included)',
  copyFolder: 'copies whatever the source folder holds',
} as const;

/** git sub-commands that rewrite the work tree with files from a commit. */
const GIT_TREE_WRITERS = new Set(['checkout', 'switch', 'restore', 'merge', 'pull', 'rebase', 'cherry-pick', 'revert', 'stash', 'read-tree', 'checkout-index', 'sparse-checkout']);
/** git's global options that take a value (before the sub-command). */
const GIT_GLOBAL_VALUES = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path', '--super-prefix', '--attr-source', '--list-cmds']);
/** Redirection targets and file operands that are not files written. */
const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '-']);
/** Writers whose options all this file models (the others add "an option not understood"). */
const COPIERS: Record<string, OptionSpec> = {
  cp: {
    short: 'tSZ',
    long: ['target-directory', 'suffix', 'backup', 'context', 'preserve', 'no-preserve', 'sparse', 'reflink', 'update'],
    flags: 'aRrfinlsuvxbdHLPpTk',
    longFlags: [
      'archive',
      'recursive',
      'force',
      'interactive',
      'no-clobber',
      'link',
      'symbolic-link',
      'verbose',
      'one-file-system',
      'dereference',
      'no-dereference',
      'no-target-directory',
      'parents',
      'remove-destination',
      'strip-trailing-slashes',
      'attributes-only',
      'copy-contents',
      'debug',
    ],
  },
  mv: {
    short: 'tS',
    long: ['target-directory', 'suffix', 'backup', 'update'],
    flags: 'finuvbTZ',
    longFlags: ['force', 'interactive', 'no-clobber', 'verbose', 'no-target-directory', 'strip-trailing-slashes', 'exchange', 'no-copy', 'debug', 'context'],
  },
  install: {
    short: 'tSmogZ',
    long: ['target-directory', 'suffix', 'mode', 'owner', 'group', 'backup', 'context', 'strip-program'],
    flags: 'bcCdDpsTv',
    longFlags: ['compare', 'directory', 'preserve-timestamps', 'strip', 'no-target-directory', 'verbose', 'debug', 'preserve-context'],
  },
  ln: {
    short: 'tS',
    long: ['target-directory', 'suffix', 'backup'],
    flags: 'sfinrvbdFLPT',
    longFlags: ['symbolic', 'force', 'interactive', 'no-dereference', 'relative', 'verbose', 'logical', 'physical', 'no-target-directory', 'directory'],
  },
};
/** Commands whose every operand is a file they create or change. */
const TOUCHERS: Record<string, { why: string; spec: OptionSpec }> = {
  touch: { why: 'touch', spec: { short: 'drt', long: ['date', 'reference', 'time'], flags: 'acfhm', longFlags: ['no-create', 'no-dereference'] } },
  mkdir: { why: 'mkdir', spec: { short: 'mZ', long: ['mode', 'context'], flags: 'pv', longFlags: ['parents', 'verbose'] } },
  truncate: { why: 'truncate', spec: { short: 'sr', long: ['size', 'reference'], flags: 'co', longFlags: ['no-create', 'io-blocks'] } },
  shred: { why: 'shred', spec: { short: 'ns', long: ['iterations', 'size', 'random-source', 'remove'], flags: 'fuvxz', longFlags: ['force', 'verbose', 'exact', 'zero'] } },
  chmod: { why: 'chmod', spec: { long: ['reference'], flags: 'cfvRHLP', longFlags: ['changes', 'silent', 'quiet', 'verbose', 'recursive', 'no-preserve-root', 'preserve-root'] } },
};
/** Commands that write the value of an output option (`sort -o FILE`, `openssl … -out FILE`), with their value-taking options. */
const OUTPUT_OPTIONS: Record<string, { spec: OptionSpec; outputs: readonly string[]; singleDash?: boolean }> = {
  sort: {
    spec: { short: 'oktST', long: ['output', 'key', 'field-separator', 'buffer-size', 'temporary-directory', 'compress-program', 'files0-from', 'parallel', 'sort'] },
    outputs: ['o', 'output'],
  },
  openssl: {
    spec: { long: ['out', 'keyout', 'in', 'inkey', 'passin', 'passout', 'config', 'subj', 'days', 'key', 'CAfile', 'CApath', 'cert', 'name'] },
    outputs: ['out', 'keyout'],
    singleDash: true,
  },
  curl: {
    spec: {
      short: 'ocDdHXuAeFTwxbEKrUmY',
      long: ['output', 'cookie-jar', 'dump-header', 'trace', 'trace-ascii', 'libcurl', 'stderr', 'data', 'header', 'request', 'user', 'output-dir'],
    },
    outputs: ['o', 'output', 'c', 'cookie-jar', 'D', 'dump-header', 'trace', 'trace-ascii', 'libcurl', 'stderr'],
  },
  wget: {
    spec: {
      short: 'OoaPtTwlQAReDIX',
      long: [
        'output-document',
        'output-file',
        'append-output',
        'directory-prefix',
        'tries',
        'timeout',
        'wait',
        'level',
        'quota',
        'accept',
        'reject',
        'execute',
        'domains',
        'user',
        'password',
        'header',
        'user-agent',
        'post-data',
        'post-file',
        'body-data',
        'method',
        'input-file',
      ],
    },
    outputs: ['O', 'output-document', 'o', 'output-file', 'a', 'append-output', 'P', 'directory-prefix'],
  },
  tree: { spec: { short: 'oLIP', long: ['output'] }, outputs: ['o', 'output'] },
  esbuild: { spec: { long: ['outfile', 'outdir'] }, outputs: ['outfile', 'outdir'] },
  pandoc: { spec: { short: 'oftr', long: ['output', 'from', 'to', 'read', 'write'] }, outputs: ['o', 'output'] },
};
/** Compilers: `-o FILE` or `-oFILE` only as a whole word (their other options are long words like `-fno-omit-frame-pointer`). */
const COMPILERS = new Set(['gcc', 'cc', 'clang', 'g++', 'clang++', 'c++', 'rustc', 'ld']);

// ----- the analysis -----

export function commandEffects(commands: readonly SubCommand[], classify: PathClass, files?: WorkspaceFiles): CommandEffects {
  const effects = new Collector(classify, files);
  for (const command of commands) {
    effects.redirections(command);
    const dynamicWord = (word: string) => command.dynamic && /[$`*?[\]{}]/.test(word);
    effects.run(command.words, { dynamicWord, inputDriven: false });
    // A later relative path is relative to wherever cd went.
    if (['cd', 'pushd', 'popd'].includes(command.words[0] ?? '')) effects.cdChanged = true;
  }
  return effects.result();
}

/** The summary of a parsed line, or why it could not be analysed. */
export function summarizeCommandLine(parsed: ParsedCommandLine, classify: PathClass, files?: WorkspaceFiles): string {
  if (!parsed.ok) return `Not analysed: ${parsed.reason}.`;
  return effectsSummary(commandEffects(parsed.commands, classify, files));
}

interface RunContext {
  /** Whether a word is known only when it runs ($VAR, a glob). */
  dynamicWord: (word: string) => boolean;
  /** The command's operands come from its input too (`xargs rm`, `find -exec rm {} ;`). */
  inputDriven: boolean;
  /** Who runs it, for the reasons (`xargs`, `find -exec`). */
  via?: string;
}

interface ParsedArgs {
  operands: string[];
  /** Options with their values, in order (flags have `true`). */
  options: Array<{ name: string; value: string | true }>;
  /** Options the spec does not know. */
  unknown: string[];
}

type ListName = 'unknownWrites' | 'deletes' | 'network' | 'changesConfig' | 'notAnalysed' | 'unsafeDeletes' | 'workspaceCode' | 'unmodelled';

class Collector {
  cdChanged = false;
  private fullyModelled = true;
  /** How many times code not analysed was noted (a count, since the list says each reason once). */
  private notAnalysedSaid = 0;
  private readonly programs: string[] = [];
  private readonly writes = new Map<string, { path: string; place: Place; what?: string }>();
  private readonly lists: Record<ListName, string[]> = {
    unknownWrites: [],
    deletes: [],
    network: [],
    changesConfig: [],
    notAnalysed: [],
    unsafeDeletes: [],
    workspaceCode: [],
    unmodelled: [],
  };

  constructor(
    private readonly classify: PathClass,
    private readonly files: WorkspaceFiles | undefined,
  ) {}

  result(): CommandEffects {
    return { programs: this.programs, writes: [...this.writes.values()], ...this.lists, fullyModelled: this.fullyModelled };
  }

  private add(list: ListName, text: string): void {
    if (list === 'notAnalysed') this.notAnalysedSaid++;
    if (!this.lists[list].includes(text)) this.lists[list].push(text);
  }

  /** A file written by `who`; not a file, network, known only when it runs, or a path classified. */
  write(path: string, who: string, context: RunContext): void {
    // `{}` is filled in by find or xargs: that case is said once by filesOf.
    if (NOT_FILES.has(path) || (context.inputDriven && path.includes('{}'))) return;
    if (/^\/dev\/(tcp|udp)\//.test(path)) return this.add('network', `${who} opens ${path}`);
    if (context.dynamicWord(path)) return this.add('unknownWrites', `${who} writes to ${path}, known only when it runs`);
    if (this.cdChanged && isRelative(path)) return this.add('unknownWrites', `${who} writes ${path}, relative to a folder cd changed to earlier in the line`);
    const place = this.classify(path);
    if (!this.writes.has(place.resolved)) this.writes.set(place.resolved, { path, place: place.place, ...(place.what ? { what: place.what } : {}) });
  }

  delete(path: string, context: RunContext, note = ''): void {
    if (NOT_FILES.has(path) || (context.inputDriven && path.includes('{}'))) return;
    const place = context.dynamicWord(path) ? undefined : this.cdChanged && isRelative(path) ? undefined : this.classify(path);
    const where = !place
      ? context.dynamicWord(path)
        ? ' (known only when it runs)'
        : ' (relative to a folder cd changed to)'
      : place.place === 'outside'
        ? ' (outside the workspace)'
        : place.place === 'protected'
          ? ` (${place.what ?? 'protected'})`
          : '';
    this.add('deletes', `${path}${note}${where}`);
    if (where) this.add('unsafeDeletes', `it deletes ${path}${where}`);
  }

  /** File redirections: writes, and /dev/tcp or /dev/udp in any direction (an input redirection opens the connection too). */
  redirections(command: SubCommand): void {
    const who = commandName(command.words[0] ?? 'the shell');
    const context: RunContext = { dynamicWord: () => false, inputDriven: false };
    for (const written of command.writes) {
      const path = unquote(written);
      if (path === undefined) this.add('unknownWrites', `a redirection writes to ${written}, known only when it runs`);
      else this.write(path, `a redirection of ${who}`, context);
    }
    const reads = (command as { reads?: string[] }).reads ?? [...command.source.matchAll(/(?<![<])<&?\s*(['"]?\/dev\/(?:tcp|udp)\/[^\s;|&)<>]*)/g)].map((m) => m[1]!);
    for (const read of reads) {
      const path = unquote(read) ?? read;
      if (/^\/dev\/(tcp|udp)\//.test(path)) this.add('network', `a redirection of ${who} opens ${path}`);
    }
  }

  /** One command and its arguments (resolved words), and what it runs in turn. */
  run(words: readonly string[], context: RunContext): void {
    if (words.length === 0) return;
    const raw = words[0]!;
    if (raw === '[[' || raw === '[' || raw === '((') return;
    const name = commandName(raw);
    const explained = this.notAnalysedSaid;
    if (context.dynamicWord(raw)) this.add('notAnalysed', `the program ${raw} is known only when it runs`);
    if (!this.programs.includes(name)) this.programs.push(name);
    const args = words.slice(1);
    const wrapper = WRAPPERS[name];
    if (wrapper) {
      this.wrapped(name, args, wrapper, context);
      // sudo and the like run as someone else or somewhere else: what the inner command touches is not all said here.
      if (!TRANSPARENT_WRAPPERS.has(name) || this.notAnalysedSaid > explained) this.notModelled(name, this.notAnalysedSaid > explained);
      return;
    }
    const code = workspaceCodeOf(name, name === 'git' ? gitSub(args).sub : firstOperand(args), args, this.files);
    if (code !== undefined) this.add('workspaceCode', code);
    if (INTERPRETERS.has(name)) this.add('notAnalysed', `what ${name} runs`);
    if (code === undefined) this.scriptRunner(name, args);
    // A configuration change names a server for later (`npm set registry URL`): not a connection now.
    const changes = this.configOf(name, args);
    this.networkOf(name, args, changes);
    this.filesOf(name, args, context);
    if (code !== undefined || this.notAnalysedSaid > explained) this.notModelled(name, true);
    else if (!isModelled(name, args)) this.notModelled(name, false);
  }

  /** A program whose effects are not all modelled here; `explained`: the card already says why (a runner, code not analysed). */
  private notModelled(name: string, explained: boolean): void {
    this.fullyModelled = false;
    if (!explained) this.add('unmodelled', name);
  }

  private wrapped(name: string, args: readonly string[], wrapper: (typeof WRAPPERS)[string], context: RunContext): void {
    const parsed = parseArgs(args, wrapper.spec, true);
    let inner = parsed.operands;
    if (wrapper.assignments) while (inner[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(inner[0])) inner = inner.slice(1);
    inner = inner.slice(wrapper.skip ?? 0);
    // These run their value through a shell: `env -S 'a b'`, `flock -c 'cmd'`, `watch 'a | b'`.
    if (parsed.options.some((o) => (name === 'env' && /^(S|split-string)$/.test(o.name)) || (name === 'flock' && /^(c|command)$/.test(o.name))))
      this.add('notAnalysed', `what ${name} runs through a shell`);
    if (name === 'watch' && inner.length === 1 && /\s/.test(inner[0]!)) this.add('notAnalysed', 'what watch runs through a shell');
    if (name === 'time' || name === 'strace' || name === 'ltrace')
      for (const o of parsed.options) if (o.name === 'o' || o.name === 'output') if (typeof o.value === 'string') this.write(o.value, name, context);
    if (inner.length === 0) return;
    this.run(inner, { ...context, inputDriven: context.inputDriven || wrapper.inputDriven === true, via: wrapper.inputDriven ? name : context.via });
  }

  private scriptRunner(name: string, args: readonly string[]): void {
    const runner = SCRIPT_RUNNERS[name];
    if (!runner) return;
    const sub = firstOperand(args);
    if (runner === 'always') return this.add('notAnalysed', `what ${name} runs`);
    if (sub !== undefined && runner.has(sub)) this.add('notAnalysed', `what ${name} ${sub} runs`);
  }

  private networkOf(name: string, args: readonly string[], changesConfig: boolean): void {
    const sub = name === 'git' ? gitSub(args).sub : firstOperand(args);
    const bySub = NETWORK_SUBS[name];
    if (bySub && sub !== undefined && (bySub.subs === '*' ? !bySub.except?.has(sub) : bySub.subs.has(sub))) {
      const url = args.find(isUrl);
      this.add('network', url ? `${name} ${sub} contacts ${url}` : `${name} ${sub} ${bySub.why}`);
    }
    if (name === 'git' && sub === 'remote' && args.some((a) => /^(update|show|prune)$/.test(a))) this.add('network', 'git remote contacts the remote repository');
    if (name === 'git' && sub === 'submodule' && args.includes('update')) this.add('network', "git submodule update contacts the submodules' remotes");
    if (name === 'git' && sub === 'archive' && args.some((a) => /^--remote(=|$)/.test(a))) this.add('network', 'git archive --remote contacts a remote repository');
    const program = NETWORK_PROGRAMS[name] ?? (sub !== undefined ? NETWORK_PROGRAMS[`${name} ${sub}`] : undefined);
    if (program) {
      const target = program.hostOperand ? parseArgs(args, program.spec ?? {}, true).operands[0] : args.find((a) => isUrl(a) || isRemotePath(a));
      const label = NETWORK_PROGRAMS[name] ? name : `${name} ${sub}`;
      this.add('network', `${label} ${program.why}${target ? ` (${target})` : ''}`);
    }
    if (name === 'openssl' && !program && args.some((a) => /^-(connect|url|servername)$/.test(a))) this.add('network', 'openssl connects to a host');
    if (name === 'rsync' && args.some((a) => isRemotePath(a) || isUrl(a)))
      this.add('network', `rsync copies to or from another host (${args.find((a) => isRemotePath(a) || isUrl(a))})`);
    for (const arg of args) {
      const server = SERVER_OPTIONS.exec(arg);
      if (server) this.add('network', `${name} ${arg.includes('=') ? arg : `${arg} …`} sends requests to that server`);
    }
    if (!changesConfig && !TEXT_TOOLS.has(name) && !NETWORK_PROGRAMS[name] && !(bySub && this.lists.network.some((n) => n.startsWith(`${name} `)))) {
      const url = args.find(isUrl);
      if (url) this.add('network', `${name} is given ${url}`);
    }
  }

  private configOf(name: string, args: readonly string[]): boolean {
    const git = name === 'git' ? gitSub(args) : undefined;
    const rest = git ? args.slice(git.index + 1) : args.slice(args.findIndex((a) => !a.startsWith('-')) + 1);
    const sub = git ? git.sub : firstOperand(args);
    if (sub === undefined) return false;
    let changes = false;
    for (const entry of CONFIG_CHANGERS) {
      if (entry.command !== name || !entry.sub.test(sub)) continue;
      if (entry.next && !rest.some((a) => entry.next!.test(a))) continue;
      if (name === 'git' && sub === 'config' && gitConfigOnlyReads(rest)) continue;
      const detail = rest
        .filter((a) => !a.startsWith('-'))
        .slice(0, entry.next ? 2 : 1)
        .join(' ');
      this.add('changesConfig', `${name} ${sub}${detail ? ` ${detail}` : ''} changes ${entry.what}`);
      changes = true;
    }
    return changes;
  }

  /** Writes, unknown writes and deletes by the command's own arguments. */
  private filesOf(name: string, args: readonly string[], context: RunContext): void {
    const unknown = (why: string) => this.add('unknownWrites', why);
    // Operands filled in from input (`xargs rm`, `find -exec cp {} x ;`) are not known before it runs.
    if (context.inputDriven) {
      if (DELETERS[name]) this.add('deletes', `the files ${context.via ?? 'its input'} gives ${name}`);
      if (COPIERS[name] || TOUCHERS[name] || name === 'tee' || name === 'sed' || name === 'perl') unknown(`${name} writes the files ${context.via ?? 'its input'} gives it`);
    }
    const copier = COPIERS[name];
    if (copier) {
      const parsed = parseArgs(args, copier);
      const target = optionValue(parsed, ['t', 'target-directory']);
      const operands = parsed.operands;
      const destination = target ?? (operands.length >= 2 || (name === 'ln' && operands.length === 1) ? operands[operands.length - 1] : undefined);
      const sources = target !== undefined ? operands : operands.slice(0, -1);
      if (name === 'install' && parsed.options.some((o) => o.name === 'd' || o.name === 'directory')) for (const dir of operands) this.write(dir, name, context);
      else if (name === 'ln' && operands.length === 1) this.write(basename(operands[0]!), name, context);
      else if (destination !== undefined) this.write(destination, name, context);
      if (parsed.unknown.length) unknown(`${name} has an option not understood here (${parsed.unknown.join(' ')}): it may write elsewhere`);
      if (name === 'cp' && parsed.options.some((o) => /^(r|R|a|recursive|archive)$/.test(o.name))) for (const s of sources) unknown(`cp -r ${EXTRACTS.copyFolder} (${s})`);
      if (name === 'mv') for (const s of sources) this.delete(s, context, ' (moved away)');
    }
    const toucher = TOUCHERS[name];
    if (toucher) {
      const parsed = parseArgs(args, toucher.spec);
      const files = name === 'chmod' ? parsed.operands.slice(optionValue(parsed, ['reference']) !== undefined ? 0 : 1) : parsed.operands;
      for (const file of files) this.write(file, name, context);
      if (name === 'shred' && parsed.options.some((o) => o.name === 'u' || o.name.startsWith('remove'))) for (const file of files) this.delete(file, context);
      if (parsed.unknown.length) unknown(`${name} has an option not understood here (${parsed.unknown.join(' ')})`);
    }
    const deleter = DELETERS[name];
    if (deleter) for (const path of parseArgs(args, deleter.spec).operands) this.delete(path, context);
    switch (name) {
      case 'tee':
        for (const file of parseArgs(args, { long: ['output-error'] }).operands) this.write(file, name, context);
        break;
      case 'dd':
        for (const arg of args) if (arg.startsWith('of=')) this.write(arg.slice(3), name, context);
        break;
      case 'sed':
        return this.sed(args, context);
      case 'perl':
        return this.perl(args, context);
      case 'uniq': {
        const ops = parseArgs(args, { short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'] }).operands;
        if (ops[1] !== undefined) this.write(ops[1], name, context);
        break;
      }
      case 'split':
      case 'csplit': {
        const ops = parseArgs(args, {
          short: 'abCdlnetf',
          long: ['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'additional-suffix', 'separator', 'filter', 'prefix'],
        }).operands;
        this.write(`${ops[1] ?? optionValue(parseArgs(args, { short: 'f', long: ['prefix'] }), ['f', 'prefix']) ?? 'x'}…`, name, context);
        break;
      }
      case 'tar':
        return this.tar(args, context);
      case 'unzip': {
        const parsed = parseArgs(args, { short: 'dxX', flags: 'lvtpcfuoqnjaCLKMVZz' });
        if (parsed.options.some((o) => /^[lvtpcZz]$/.test(o.name))) break;
        unknown(`${EXTRACTS.unzip}${optionValue(parsed, ['d']) ? ` (into ${optionValue(parsed, ['d'])})` : ''}`);
        break;
      }
      case '7z':
      case '7za':
        if (/^[xe]$/.test(args[0] ?? '')) unknown(EXTRACTS['7z']);
        else if (/^[aud]$/.test(args[0] ?? '') && args[1]) this.write(args[1], name, context);
        break;
      case 'jar':
        if (/^-?[a-z]*x/.test(args[0] ?? '')) unknown(EXTRACTS.jar);
        break;
      case 'cpio':
        if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a === '--extract')) unknown(EXTRACTS.cpio);
        break;
      case 'patch': {
        const parsed = parseArgs(args, { short: 'pioBrdDFzYVgM', long: ['strip', 'input', 'output', 'directory', 'reject-file', 'prefix', 'suffix', 'basename-prefix'] });
        const out = optionValue(parsed, ['o', 'output']);
        if (out !== undefined) this.write(out, name, context);
        else if (!args.includes('--dry-run')) unknown(EXTRACTS.patch);
        break;
      }
      case 'gzip':
      case 'bzip2':
      case 'xz':
      case 'zstd':
      case 'lz4':
      case 'gunzip':
      case 'bunzip2':
      case 'unxz':
      case 'unzstd':
        return this.compressor(name, args, context);
      case 'rsync':
        return this.rsync(args, context);
      case 'scp': {
        const ops = parseArgs(args, { short: 'cFiJlooPSDX' }).operands;
        const last = ops[ops.length - 1];
        if (ops.length >= 2 && last !== undefined && !isRemotePath(last)) this.write(last, name, context);
        break;
      }
      case 'find':
        return this.find(args, context);
      case 'git':
        return this.git(args, context);
      case 'awk':
      case 'gawk':
      case 'mawk':
      case 'nawk':
        for (const path of awkProgram(args)?.writes ?? []) this.write(path, name, context);
        break;
      case 'ssh-keygen':
        return this.sshKeygen(args, context);
      case 'tsc': {
        const tsc = tscWrites(args, this.files);
        for (const path of tsc.writes) this.write(path, name, context);
        for (const why of tsc.unknown) unknown(why);
        break;
      }
      case 'npm':
      case 'pnpm':
      case 'yarn':
        if (/^(install|i|ci|add|update|up|upgrade|remove|rm|uninstall|un)$/.test(firstOperand(args) ?? '') && !args.some((a) => /^(-g|--global)$/.test(a)))
          this.write('node_modules/', name, context);
        break;
      case 'pip': {
        const parsed = parseArgs(args, { short: 'tdcerih', long: ['target', 'dest', 'constraint', 'requirement', 'index-url', 'extra-index-url', 'root', 'prefix', 'src', 'log'] });
        const dir = optionValue(parsed, ['t', 'target', 'd', 'dest', 'root', 'prefix']);
        if (dir !== undefined) this.write(dir, name, context);
        break;
      }
      case 'wget': {
        const parsed = parseArgs(args, OUTPUT_OPTIONS['wget']!.spec);
        const document = optionValue(parsed, ['O', 'output-document']);
        if (document === undefined && parsed.operands.some(isUrl)) unknown('wget saves under the name the URL ends with');
        if (parsed.options.some((o) => /^(r|recursive|m|mirror)$/.test(o.name))) unknown('wget -r saves whatever the site links to');
        break;
      }
      case 'curl':
        if (args.some((a) => /^-[a-zA-Z]*O$|^--remote-name(-all)?$/.test(a))) unknown('curl -O saves under the name in the URL');
        break;
      case 'zip': {
        const ops = parseArgs(args, { short: 'bnOtTx' }).operands;
        if (ops[0] !== undefined) this.write(/\.zip$/i.test(ops[0]) ? ops[0] : `${ops[0]}.zip`, name, context);
        break;
      }
    }
    const outputs = OUTPUT_OPTIONS[name];
    if (outputs) {
      const parsed = parseArgs(args, outputs.spec, false, outputs.singleDash);
      for (const o of parsed.options) if (typeof o.value === 'string' && outputs.outputs.includes(o.name)) this.write(o.value, name, context);
    }
    if (COMPILERS.has(name)) {
      for (let i = 0; i < args.length; i++) {
        if (args[i] === '-o' && args[i + 1] !== undefined) this.write(args[++i]!, name, context);
        else if (/^-o[^-]/.test(args[i]!)) this.write(args[i]!.slice(2), name, context);
      }
    }
  }

  private sed(args: readonly string[], context: RunContext): void {
    const parsed = parseArgs(
      args,
      {
        short: 'efl',
        long: ['expression', 'file', 'line-length'],
        flags: 'nrsuzEi',
        longFlags: ['quiet', 'silent', 'regexp-extended', 'separate', 'unbuffered', 'null-data', 'posix', 'debug', 'sandbox', 'follow-symlinks', 'in-place'],
      },
      false,
      false,
      'i',
    );
    const scripts = parsed.options.filter((o) => o.name === 'e' || o.name === 'expression').map((o) => String(o.value));
    const files = scripts.length || parsed.options.some((o) => o.name === 'f' || o.name === 'file') ? parsed.operands : parsed.operands.slice(1);
    if (!scripts.length && parsed.operands[0] !== undefined) scripts.push(parsed.operands[0]);
    if (scripts.some(sedScriptIsRisky) || parsed.options.some((o) => o.name === 'f' || o.name === 'file')) {
      this.add('unknownWrites', 'the sed script may write files (its w command) or run programs');
      this.notModelled('sed', true);
    }
    if (parsed.options.some((o) => o.name === 'i' || o.name === 'in-place')) for (const file of files) this.write(file, 'sed -i', context);
  }

  private perl(args: readonly string[], context: RunContext): void {
    const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) && !a.startsWith('--'));
    if (!inPlace) return;
    const files: string[] = [];
    let code = false;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (/^-[a-zA-Z]*[eE]$/.test(arg)) {
        i++;
        code = true;
        continue;
      }
      if (arg.startsWith('-')) continue;
      if (!code) {
        code = true;
        continue;
      }
      files.push(arg);
    }
    for (const file of files) this.write(file, 'perl -i', context);
  }

  private tar(args: readonly string[], context: RunContext): void {
    // Old style: `tar xzf a.tar` (the first word holds the options, their values follow in order).
    let words = [...args];
    if (words[0] !== undefined && /^[a-zA-Z]+$/.test(words[0])) words = [`-${words[0]}`, ...words.slice(1)];
    const parsed = parseArgs(words, {
      short: 'fCbTXgKLNV',
      long: [
        'file',
        'directory',
        'blocking-factor',
        'files-from',
        'exclude-from',
        'listed-incremental',
        'starting-file',
        'tape-length',
        'newer',
        'after-date',
        'label',
        'transform',
        'xform',
        'exclude',
        'owner',
        'group',
        'mode',
        'mtime',
      ],
    });
    const has = (re: RegExp) => parsed.options.some((o) => re.test(o.name));
    const archive = optionValue(parsed, ['f', 'file']);
    if (archive !== undefined && isRemotePath(archive)) this.add('network', `tar reaches another host for ${archive}`);
    if (has(/^(x|extract|get)$/)) {
      const into = optionValue(parsed, ['C', 'directory']);
      this.add('unknownWrites', `${EXTRACTS.tar}${into !== undefined ? ` (into ${into})` : ''}`);
    } else if (has(/^(c|create|r|append|u|update|A|catenate|concatenate|delete)$/) && archive !== undefined) {
      this.write(archive, 'tar', context);
    }
  }

  /** The key files ssh-keygen writes: a new key and its .pub, a changed key, known_hosts, certificates. */
  private sshKeygen(args: readonly string[], context: RunContext): void {
    const parsed = parseArgs(args, { short: 'abCDEFfGIJjKMmNnOPRrSsTtVwYzZ' });
    const has = (letters: string) => parsed.options.some((o) => letters.includes(o.name));
    const file = optionValue(parsed, ['f']);
    const signing = optionValue(parsed, ['Y']);
    // Fingerprints, public keys, lookups, exports and verifications only print.
    if (has('lByFQLeir') || (signing !== undefined && signing !== 'sign')) return;
    if (signing === 'sign') return void parsed.operands.forEach((op) => this.write(`${op}.sig`, 'ssh-keygen -Y sign', context));
    if (has('A')) return this.write('/etc/ssh/', 'ssh-keygen -A', context);
    if (has('s')) return void parsed.operands.forEach((op) => this.write(`${op.replace(/\.pub$/, '')}-cert.pub`, 'ssh-keygen -s', context));
    if (has('RH')) return this.write(file ?? '~/.ssh/known_hosts', 'ssh-keygen', context);
    if (file === undefined) return this.add('unknownWrites', 'ssh-keygen writes the key file it asks for (~/.ssh/ by default)');
    this.write(file, 'ssh-keygen', context);
    if (!has('pckM')) this.write(`${file}.pub`, 'ssh-keygen', context);
  }

  private compressor(name: string, args: readonly string[], context: RunContext): void {
    const parsed = parseArgs(args, { short: 'SbTLMo', long: ['suffix', 'threads', 'memlimit', 'format', 'output'] });
    if (parsed.options.some((o) => /^(c|stdout|to-stdout|l|list|t|test)$/.test(o.name))) return;
    const decompress = /^(gunzip|bunzip2|unxz|unzstd)$/.test(name) || parsed.options.some((o) => /^(d|decompress|uncompress)$/.test(o.name));
    const keep = parsed.options.some((o) => /^(k|keep)$/.test(o.name)) || (name === 'zstd' && !parsed.options.some((o) => o.name === 'rm'));
    const suffix = { gzip: '.gz', gunzip: '.gz', bzip2: '.bz2', bunzip2: '.bz2', xz: '.xz', unxz: '.xz', zstd: '.zst', unzstd: '.zst', lz4: '.lz4' }[name] ?? '';
    const out = optionValue(parsed, ['o', 'output']);
    for (const file of parsed.operands) {
      this.write(out ?? (decompress ? file.replace(/\.[^./]+$/, '') : `${file}${suffix}`), name, context);
      if (!keep && out === undefined) this.delete(file, context, ' (replaced by its compressed copy)');
    }
  }

  private rsync(args: readonly string[], context: RunContext): void {
    const parsed = parseArgs(args, {
      short: 'eBTfM',
      long: [
        'rsh',
        'rsync-path',
        'exclude',
        'include',
        'exclude-from',
        'include-from',
        'files-from',
        'filter',
        'temp-dir',
        'compare-dest',
        'copy-dest',
        'link-dest',
        'backup-dir',
        'suffix',
        'chmod',
        'chown',
        'log-file',
        'password-file',
        'port',
        'timeout',
        'bwlimit',
        'partial-dir',
        'max-size',
        'min-size',
        'out-format',
        'info',
        'debug',
      ],
    });
    const operands = parsed.operands;
    const destination = operands.length >= 2 ? operands[operands.length - 1] : undefined;
    if (destination === undefined || isRemotePath(destination) || isUrl(destination)) return;
    this.write(destination, 'rsync', context);
    if (parsed.options.some((o) => /^(r|a|recursive|archive)$/.test(o.name)))
      for (const s of operands.slice(0, -1)) this.add('unknownWrites', `rsync -r ${EXTRACTS.copyFolder} (${s})`);
    if (parsed.options.some((o) => o.name.startsWith('delete') || o.name === 'remove-source-files'))
      this.add('deletes', `files in ${destination} that the source lacks (rsync --delete)`);
  }

  private find(args: readonly string[], context: RunContext): void {
    const start = args.findIndex((a) => /^[-(!]/.test(a) && !['-H', '-L', '-P'].includes(a));
    const roots = (start < 0 ? args : args.slice(0, start)).filter((a) => !['-H', '-L', '-P'].includes(a));
    const where = roots.length ? roots.join(' ') : '.';
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg === '-delete') this.add('deletes', `files find matches (under ${where})`);
      if (/^-(fprint|fprint0|fprintf|fls)$/.test(arg) && args[i + 1] !== undefined) this.write(args[i + 1]!, 'find', context);
      if (/^-(exec|execdir|ok|okdir)$/.test(arg)) {
        const end = args.findIndex((a, k) => k > i && (a === ';' || a === '+'));
        const inner = args.slice(i + 1, end < 0 ? undefined : end);
        this.run(inner, { ...context, inputDriven: true, via: 'find' });
        if (end > i) i = end;
      }
    }
  }

  private git(args: readonly string[], context: RunContext): void {
    const { sub, index } = gitSub(args);
    if (sub === undefined) return;
    const rest = args.slice(index + 1);
    const unknown = (why: string) => this.add('unknownWrites', why);
    for (let i = 0; i < rest.length; i++) {
      const match = /^--out(p(u(t?)?)?)?(=(.*))?$/.exec(rest[i]!);
      if (match) this.write(match[5] ?? rest[++i] ?? '', `git ${sub} --output`, context);
    }
    const parsed = parseArgs(rest, {
      short: 'oCmbFSX',
      long: [
        'output-directory',
        'template',
        'separate-git-dir',
        'branch',
        'origin',
        'depth',
        'reference',
        'config',
        'message',
        'file',
        'prefix',
        'format',
        'remote',
        'exec',
        'upload-pack',
        'receive-pack',
        'jobs',
        'filter',
        'directory',
        'onto',
        'strategy',
        'strategy-option',
        'pathspec-from-file',
      ],
    });
    const has = (re: RegExp) => parsed.options.some((o) => re.test(o.name));
    switch (sub) {
      case 'apply':
        if (!has(/^(check|stat|numstat|summary|cached)$/) || has(/^(apply|index|3way)$/)) unknown(EXTRACTS.gitPatch);
        break;
      case 'am':
        unknown(EXTRACTS.gitPatch);
        break;
      case 'reset':
        if (has(/^(hard|merge|keep)$/)) unknown(EXTRACTS.gitTree);
        break;
      case 'rm':
        if (!has(/^(cached|n|dry-run)$/)) for (const path of parsed.operands) this.delete(path, context);
        break;
      case 'clean':
        if (!has(/^(n|dry-run)$/)) this.add('deletes', `untracked files (git clean)${has(/^x$/) ? ', ignored ones too' : ''}`);
        break;
      case 'mv':
        if (parsed.operands.length >= 2) {
          this.write(parsed.operands[parsed.operands.length - 1]!, 'git mv', context);
          for (const s of parsed.operands.slice(0, -1)) this.delete(s, context, ' (moved away)');
        }
        break;
      case 'clone': {
        const operands = parsed.operands;
        const directory = operands[1] ?? (operands[0] !== undefined ? basename(operands[0]).replace(/\.git$/, '') : undefined);
        if (directory !== undefined) this.write(directory, 'git clone', context);
        unknown(`git clone writes the files the repository holds${has(/^(template|config|c)$/) ? ', and --template/-c choose its hooks and configuration' : ''}`);
        break;
      }
      case 'init':
        this.write(parsed.operands[0] ?? '.git', 'git init', context);
        if (has(/^template$/)) unknown('git init --template copies hooks from the template folder');
        break;
      case 'format-patch': {
        const dir = optionValue(parsed, ['o', 'output-directory']);
        if (dir !== undefined) this.write(`${dir.replace(/\/+$/, '')}/`, 'git format-patch', context);
        break;
      }
      case 'archive': {
        const out = optionValue(parsed, ['o']);
        if (out !== undefined) this.write(out, 'git archive', context);
        break;
      }
      case 'worktree':
        if (rest[0] === 'add' && parsed.operands[1] !== undefined) this.write(parsed.operands[1], 'git worktree add', context);
        if (rest[0] === 'remove' && parsed.operands[1] !== undefined) this.delete(parsed.operands[1], context);
        break;
      case 'bundle':
        if (rest[0] === 'create' && parsed.operands[1] !== undefined) this.write(parsed.operands[1], 'git bundle', context);
        break;
      case 'lfs':
        if (rest[0] === 'install') this.write('.git/hooks/', 'git lfs install', context);
        break;
      case 'config': {
        if (gitConfigOnlyReads(rest)) break;
        const file = gitConfigFile(args.slice(0, index), rest);
        if (file !== undefined) this.write(file, 'git config', context);
        else unknown("git config writes the configuration of a repository named by git's options");
        break;
      }
      case 'submodule':
        if (rest.includes('update')) unknown(EXTRACTS.gitTree);
        break;
      default:
        if (GIT_TREE_WRITERS.has(sub) && !(sub === 'stash' && /^(list|show)$/.test(rest[0] ?? ''))) unknown(EXTRACTS.gitTree);
    }
  }
}

// ----- what is modelled whole -----

/** Wrappers that run their command as it is, as the same user in the same place: the command decides what is modelled. */
const TRANSPARENT_WRAPPERS = new Set([
  'env',
  'timeout',
  'nice',
  'nohup',
  'setsid',
  'time',
  'stdbuf',
  'ionice',
  'chrt',
  'taskset',
  'xargs',
  'parallel',
  'watch',
  'unbuffer',
  'command',
  'exec',
  'builtin',
  'caffeinate',
]);
/** Programs whose every write, deletion and network use the analysis above reads (or says it does not understand). */
const MODELLED_PROGRAMS = new Set([
  ...Object.keys(COPIERS),
  ...Object.keys(TOUCHERS),
  ...['rm', 'rmdir', 'unlink', 'tee', 'dd', 'sed', 'ssh-keygen'],
  ...['echo', 'printf', 'true', 'false', ':', 'test', 'pwd', 'basename', 'dirname', 'cut', 'tr', 'column', 'printenv', 'cd', 'pushd', 'popd', 'sleep'],
]);
const AWKS = new Set(['awk', 'gawk', 'mawk', 'nawk']);

/** Whether what this program does is modelled whole: a program above, or a known tool every argument of which the known-tool table models (a runner running the workspace's code is never: the caller says so). */
function isModelled(name: string, args: readonly string[]): boolean {
  if (MODELLED_PROGRAMS.has(name)) return true;
  if (AWKS.has(name)) return awkProgram(args)?.modelled === true;
  if (name === 'git' && gitSub(args).sub === 'config') return true;
  const key = knownPrefixFor([name, ...args]);
  const known = key !== undefined ? specForPrefix(key) : undefined;
  return known !== undefined && unknownArgument(known.spec, args.slice(known.words - 1), () => undefined) === undefined;
}

/**
 * An awk program's literal output files (`print … > "file"`), and whether that is all it can do:
 * no program file, no system() or pipe, no other `>` (a comparison or a file in a variable).
 */
function awkProgram(args: readonly string[]): { writes: string[]; modelled: boolean } | undefined {
  const parsed = parseArgs(args, { short: 'Fvf', long: ['file', 'include', 'load', 'exec', 'source', 'field-separator', 'assign'] }, true);
  const program = parsed.operands[0];
  if (program === undefined) return undefined;
  const fromFile = parsed.options.some((o) => !/^(F|v|field-separator|assign)$/.test(o.name));
  const writes = [...program.matchAll(/>>?\s*"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
  const withoutWrites = program.replace(/>>?\s*"((?:[^"\\]|\\.)*)"/g, '');
  const runs = /\bsystem\s*\(|\||@(include|load)\b/.test(withoutWrites.replace(/\|\|/g, ''));
  const otherOutput = /(?<![<>!=])>(?!=)/.test(withoutWrites);
  return { writes, modelled: !fromFile && !runs && !otherOutput };
}

/** The file `git config` writes: --file, --global, --system, --worktree, or the repository's own (undefined: git's options point elsewhere). */
function gitConfigFile(globals: readonly string[], rest: readonly string[]): string | undefined {
  for (let i = 0; i < rest.length; i++) {
    const file = /^--file=(.+)$/.exec(rest[i]!);
    if (file) return file[1];
    if ((rest[i] === '--file' || rest[i] === '-f') && rest[i + 1] !== undefined) return rest[i + 1];
  }
  if (rest.includes('--global')) return '~/.gitconfig';
  if (rest.includes('--system')) return '/etc/gitconfig';
  if (globals.some((g) => /^(-C|--git-dir|--work-tree)/.test(g)) || rest.includes('--blob')) return undefined;
  return rest.includes('--worktree') ? '.git/config.worktree' : '.git/config';
}

// ----- the summary -----

const MAX_NAMED = 3;
const shortText = (text: string, max = 60) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
/** A list as a phrase: up to MAX_NAMED items, then how many more. */
function listed(items: readonly string[], max = MAX_NAMED, length = 60): string {
  const shown = items
    .slice(0, max)
    .map((i) => shortText(i, length))
    .join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/**
 * One line for the permission card: programs, the workspace's code a runner runs, writes (outside
 * the workspace and protected paths named), network, deletes, configuration. "Writes nothing", "no
 * network" and "deletes nothing" only when every program is modelled; else "…: not known".
 */
export function effectsSummary(effects: CommandEffects): string {
  const sentences: string[] = [];
  sentences.push(effects.programs.length ? `Runs ${listed(effects.programs, 6)}.` : 'Runs no program.');
  if (effects.workspaceCode.length) sentences.push(`Runs this workspace's code: ${effects.workspaceCode.join('; ')}.`);
  const protectedWrites = effects.writes.filter((w) => w.place === 'protected');
  const outside = effects.writes.filter((w) => w.place === 'outside');
  const inside = effects.writes.filter((w) => w.place === 'workspace');
  for (const w of protectedWrites) sentences.push(`Writes ${shortText(w.path)} (${w.what ?? 'a protected file'}).`);
  if (outside.length) sentences.push(`Writes outside the workspace: ${listed(outside.map((w) => w.path))}.`);
  if (inside.length) sentences.push(inside.length <= 2 ? `Writes ${listed(inside.map((w) => w.path))} in the workspace.` : `Writes ${inside.length} files in the workspace.`);
  if (effects.unknownWrites.length) sentences.push(`Writes files not known before it runs (${listed(effects.unknownWrites, 2, 90)}).`);
  if (effects.network.length) sentences.push(`Reaches the network (${listed(effects.network, 2, 90)}).`);
  if (effects.deletes.length) sentences.push(`Deletes ${listed(effects.deletes, MAX_NAMED, 90)}.`);
  if (effects.changesConfig.length) sentences.push(`Changes configuration: ${listed(effects.changesConfig, 2, 100)}.`);
  const notAnalysed = [...effects.notAnalysed, ...effects.unmodelled.map((name) => `what ${name} does`)];
  if (notAnalysed.length) sentences.push(`Not analysed: ${listed(notAnalysed, 2, 90)}.`);
  const wrote = effects.writes.length > 0 || effects.unknownWrites.length > 0;
  const known = effects.fullyModelled;
  // What was named is said above; the rest is "nothing" only when the model knows it.
  const rest = (named: boolean, nothing: string, what: string, other: string) => (named ? (known ? [] : [`${other}: not known`]) : [known ? nothing : `${what}: not known`]);
  const closing = [
    ...rest(wrote, 'writes nothing', 'writes', 'other writes'),
    ...rest(effects.network.length > 0, 'no network', 'network', 'other network use'),
    ...rest(effects.deletes.length > 0, 'deletes nothing', 'deletes', 'other deletes'),
  ];
  if (closing.length) sentences.push(`${closing.join(', ').replace(/^./, (c) => c.toUpperCase())}.`);
  return sentences.join(' ');
}

// ----- helpers -----

/**
 * Options and operands as getopt reads them: `-abc` clusters, `-ovalue`, `-o value`, `--name=value`,
 * `--name value` for long options that take one (unique abbreviations too), `--` ends options.
 * `stopAtOperand`: options end at the first operand (wrappers: what follows is the command's own).
 * `singleDash`: `-name value` long options (openssl, tsc). `optionalValue`: a short option whose value must be attached (`sed -i.bak`).
 */
function parseArgs(args: readonly string[], spec: OptionSpec, stopAtOperand = false, singleDash = false, optionalValue = ''): ParsedArgs {
  const result: ParsedArgs = { operands: [], options: [], unknown: [] };
  const longs = [...(spec.long ?? [])];
  const known = [...longs, ...(spec.longFlags ?? [])];
  const modelled = spec.flags !== undefined || spec.longFlags !== undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      result.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      if (stopAtOperand) {
        result.operands.push(...args.slice(i));
        break;
      }
      result.operands.push(arg);
      continue;
    }
    if (arg.startsWith('--') || singleDash) {
      const body = arg.replace(/^--?/, '');
      const eq = body.indexOf('=');
      const written = eq < 0 ? body : body.slice(0, eq);
      const exact = known.find((n) => n === written);
      const candidates = exact ? [exact] : known.filter((n) => n.startsWith(written));
      const name = candidates.length === 1 ? candidates[0]! : written;
      if (candidates.length !== 1 && modelled) result.unknown.push(arg);
      if (eq >= 0) result.options.push({ name, value: body.slice(eq + 1) });
      else if (longs.includes(name) && args[i + 1] !== undefined) result.options.push({ name, value: args[++i]! });
      else result.options.push({ name, value: true });
      continue;
    }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (optionalValue.includes(letter)) {
        result.options.push({ name: letter, value: arg.slice(k + 1) || true });
        break;
      }
      if ((spec.short ?? '').includes(letter)) {
        const attached = arg.slice(k + 1);
        const value = attached !== '' ? attached : args[++i];
        result.options.push({ name: letter, value: value ?? true });
        break;
      }
      if (modelled && !(spec.flags ?? '').includes(letter)) result.unknown.push(`-${letter}`);
      result.options.push({ name: letter, value: true });
    }
  }
  return result;
}

function optionValue(parsed: ParsedArgs, names: readonly string[]): string | undefined {
  const found = [...parsed.options].reverse().find((o) => names.includes(o.name) && typeof o.value === 'string');
  return found?.value as string | undefined;
}

/** The first word that is not an option (a tool's sub-command, roughly). */
function firstOperand(args: readonly string[]): string | undefined {
  return args.find((a) => !a.startsWith('-'));
}

/** git's sub-command, past its global options, and its index in `args`. */
function gitSub(args: readonly string[]): { sub?: string; index: number } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (GIT_GLOBAL_VALUES.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { sub: arg, index: i };
  }
  return { index: args.length };
}

/** `git config` that only reads: --get, --list, `get`, `list`, or a key alone. */
function gitConfigOnlyReads(rest: readonly string[]): boolean {
  if (
    rest.some((a) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|--show-origin|--show-scope|--get-color|--get-colorbool|--name-only|-z|--null)$/.test(a)) &&
    !rest.some((a) => /^--(add|unset|unset-all|replace-all|edit|rename-section|remove-section)$|^-e$/.test(a))
  )
    return true;
  const operands = rest.filter((a) => !a.startsWith('-') && !['--file', '-f', '--blob'].includes(a));
  if (/^(get|list)$/.test(operands[0] ?? '')) return true;
  if (/^(set|unset|edit|rename-section|remove-section)$/.test(operands[0] ?? '')) return false;
  return operands.length === 1 && !rest.some((a) => /^--(add|unset|unset-all|replace-all|edit|rename-section|remove-section)$|^-e$/.test(a));
}

const isUrl = (word: string) => /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/./.test(word) && !/^file:/i.test(word);
/** `host:path` or `user@host:path` (scp, rsync, git), not `C:\…` nor `./a:b`. */
const isRemotePath = (word: string) => /^([\w.-]+@)?[\w.-]+:(?!\/\/)/.test(word) && !/^[a-zA-Z]:[\\/]/.test(word) && !word.startsWith('.');
const isRelative = (path: string) => !path.startsWith('/') && !path.startsWith('~') && !/^[a-zA-Z]:[\\/]/.test(path);

const basename = (path: string) =>
  path
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() ?? path;

/** A redirection target as written (quotes kept) as the shell makes it, or undefined when it is known only when it runs. */
function unquote(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      out += text.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === '$' || text[j] === '`') return undefined;
        if (text[j] === '\\' && '$`"\\'.includes(text[j + 1] ?? '')) j++;
        out += text[j];
      }
      if (j >= text.length) return undefined;
      i = j;
    } else if (char === '\\') {
      out += text[++i] ?? '';
    } else if ('$`*?[{'.includes(char)) {
      return undefined;
    } else {
      out += char;
    }
  }
  return out;
}
