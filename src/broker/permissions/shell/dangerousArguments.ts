// Arguments that turn an otherwise ordinary command into one that runs other programs, writes files
// or changes configuration. A prefix rule such as `git log` or `sed` never allows a sub-command that
// carries one (commandRules.ts); an exact rule still can, since the user saw the whole text.
// To add an entry: name the command as commandName() gives it, the argument pattern, and one line of why.

/** One dangerous argument of one command. */
export interface DangerousArgument {
  /** The command, as commandName() gives it (`/usr/bin/git` → `git`, `python3.12` → `python`). */
  command: string;
  /** Only when this word is among the arguments (anywhere: over-matching only asks more often). */
  sub?: string;
  /** Tested on each argument (a RegExp), or on all the arguments at once (a function). */
  pattern: RegExp | ((args: readonly string[]) => boolean);
  why: string;
}

/** The command name a rule table uses: the file name in lower case (macOS and Windows find `GIT` as `git`), without `.exe`, with versions folded (`python3.12` → `python`). */
export function commandName(word: string): string {
  const base = (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.exe$/, '');
  const versioned = /^(python|pip|pypy|ruby|perl|php|lua|node)[\d.]*$/.exec(base);
  return versioned ? versioned[1]! : base;
}

/** The first entry that `words` (command name first, resolved) triggers, if any. */
export function findDangerousArgument(words: readonly string[]): DangerousArgument | undefined {
  const name = words[0];
  if (name === undefined) return undefined;
  const command = commandName(name);
  const args = words.slice(1);
  return DANGEROUS_ARGUMENTS.find((entry) => {
    if (entry.command !== command) return false;
    if (entry.sub !== undefined && !args.includes(entry.sub)) return false;
    return typeof entry.pattern === 'function' ? entry.pattern(args) : args.some((arg) => (entry.pattern as RegExp).test(arg));
  });
}

/**
 * `--name` or any abbreviation of it down to `min` letters, with or without `=value`: GNU getopt,
 * git's parse-options and npm's nopt all accept unambiguous abbreviations (`--out` for `--output`).
 */
function long(name: string, min = name.length): RegExp {
  const prefixes: string[] = [];
  for (let length = min; length <= name.length; length++) prefixes.push(name.slice(0, length).replace(/[-]/g, '\\-'));
  return new RegExp(`^--(${prefixes.join('|')})(=|$)`);
}

/** A short option, alone or inside a cluster (`-i`, `-ni`, `-i.bak`). */
function short(letters: string): RegExp {
  return new RegExp(`^-[A-Za-z0-9]*[${letters}]`);
}

function anyOf(...patterns: RegExp[]): RegExp {
  return new RegExp(patterns.map((p) => `(?:${p.source})`).join('|'));
}

/** git's global options, before the git sub-command (where `-c` injects configuration; after it, `-c` means other things). */
function gitGlobalOptions(args: readonly string[]): string[] {
  const withValue = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--exec-path', '--super-prefix', '--attr-source', '--list-cmds']);
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) break;
    options.push(arg);
    if (withValue.has(arg)) i++;
  }
  return options;
}

/** The script argument of sed when it has no -e/-f (those are flagged on their own). */
function sedScript(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return args[i + 1];
    if (arg === '-l' || /^--l(i(n(e(-(l(e(n(g(th?)?)?)?)?)?)?)?)?)?$/.test(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) continue;
    return arg;
  }
  return undefined;
}

/**
 * Whether a sed script may run a program or touch a file: the `e`, `r`, `R`, `w`, `W` commands and
 * the `e`/`w` flags of `s`. It reads GNU sed's syntax; anything it does not recognise counts as risky.
 */
export function sedScriptIsRisky(script: string): boolean {
  let i = 0;
  const n = script.length;
  const at = (k = 0): string => script[i + k] ?? '';
  const skipBlanks = (): void => {
    while (i < n && (at() === ' ' || at() === '\t')) i++;
  };
  const skipToLineEnd = (alsoSemicolon: boolean): void => {
    while (i < n && at() !== '\n' && !(alsoSemicolon && at() === ';')) i += at() === '\\' ? 2 : 1;
  };
  /** Past one delimited part (regex or replacement), starting just after the opening delimiter. */
  const delimited = (delimiter: string): boolean => {
    while (i < n) {
      if (at() === '\\') {
        i += 2;
        continue;
      }
      if (at() === delimiter) {
        i++;
        return true;
      }
      i++;
    }
    return false;
  };
  const digits = (): boolean => {
    const start = i;
    while (/[0-9]/.test(at())) i++;
    return i > start;
  };
  const address = (): boolean | undefined => {
    if (digits()) {
      if (at() === '~') {
        i++;
        digits();
      }
      return true;
    }
    if (at() === '$') {
      i++;
      return true;
    }
    if (at() === '/' || at() === '\\') {
      const delimiter = at() === '/' ? '/' : at(1);
      i += at() === '/' ? 1 : 2;
      if (!delimiter || delimiter === '\n' || !delimited(delimiter)) return undefined;
      while (at() === 'I' || at() === 'M') i++;
      return true;
    }
    return false;
  };
  while (i < n) {
    while (i < n && /[\s;]/.test(at())) i++;
    if (i >= n) break;
    if (at() === '#') {
      skipToLineEnd(false);
      continue;
    }
    const first = address();
    if (first === undefined) return true;
    if (first) {
      skipBlanks();
      if (at() === ',') {
        i++;
        skipBlanks();
        if (at() === '+' || at() === '~') {
          i++;
          if (!digits()) return true;
        } else if (address() !== true) return true;
      }
    }
    skipBlanks();
    while (at() === '!') {
      i++;
      skipBlanks();
    }
    const command = at();
    i++;
    switch (command) {
      case '{':
      case '}':
        continue;
      case 'e':
      case 'r':
      case 'R':
      case 'w':
      case 'W':
        return true;
      case 's':
      case 'y': {
        const delimiter = at();
        i++;
        if (!delimiter || delimiter === '\n' || delimiter === '\\') return true;
        if (!delimited(delimiter) || !delimited(delimiter)) return true;
        if (command === 's') {
          while (/[gpiImM0-9]/.test(at())) i++;
          if (at() === 'e' || at() === 'w') return true;
        }
        break;
      }
      case 'a':
      case 'i':
      case 'c':
        skipToLineEnd(false);
        continue;
      case ':':
      case 'b':
      case 't':
      case 'T':
        skipBlanks();
        skipToLineEnd(true);
        continue;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        skipBlanks();
        digits();
        break;
      case '=':
      case 'd':
      case 'D':
      case 'g':
      case 'G':
      case 'h':
      case 'H':
      case 'n':
      case 'N':
      case 'p':
      case 'P':
      case 'x':
      case 'z':
      case 'F':
        break;
      default:
        return true;
    }
    skipBlanks();
    if (i < n && !/[;\n}]/.test(at())) return true;
  }
  return false;
}

/** tar's old-style first argument (`tar xIf …`) holds options without a dash. */
function tarOldStyle(args: readonly string[]): boolean {
  const first = args[0];
  return first !== undefined && /^[A-Za-z]+$/.test(first) && /[IF]/.test(first);
}

/** The operands of a command (arguments not starting with `-`), skipping the values of the given short options. */
function operands(args: readonly string[], valueOptions: readonly string[] = []): string[] {
  const result: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valueOptions.includes(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') continue;
    result.push(arg);
  }
  return result;
}

/** ssh-family `-o Option=…` (or `-oOption=…`) that runs a local command, and `-F` (a config file that can). */
function sshRunsCommand(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const option = arg === '-o' ? (args[i + 1] ?? '') : arg.startsWith('-o') ? arg.slice(2) : undefined;
    if (option !== undefined && /^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|Match|Include)/i.test(option)) return true;
    if (/^-[A-Za-z0-9]*F/.test(arg)) return true;
  }
  return false;
}

const NOT_FILES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '-']);

// Not push: there -u means --set-upstream (its --receive-pack/--exec are flagged on their own).
const GIT_REMOTE_SUBS = ['fetch', 'clone', 'pull', 'ls-remote', 'archive'];
const NPM_FAMILY = ['npm', 'npx', 'pnpm', 'yarn'];
const NPM_CONFIG = anyOf(
  long('script-shell', 3),
  long('shell', 3),
  long('prefix', 4),
  long('node-options', 3),
  long('userconfig', 3),
  long('globalconfig', 3),
  long('git', 3),
  long('editor', 3),
  long('browser', 3),
  long('viewer', 3),
  long('call', 3),
  long('registry', 3),
  long('dir'),
  long('cwd'),
  /^-(C|c)$/,
);
const INTERPRETER_CODE: Record<string, RegExp> = {
  node: anyOf(/^-(e|p|r|i)$/, long('eval'), long('print'), long('require'), long('import'), long('loader'), long('experimental-loader')),
  python: anyOf(short('c'), /^-m$/),
  pypy: short('c'),
  ruby: anyOf(short('erI')),
  perl: anyOf(short('eEMmx'), /^-I/),
  php: anyOf(/^-[rBRFE]$/, /^-d/),
  lua: short('el'),
  deno: anyOf(/^eval$/, long('eval'), /^-e$/),
  bun: anyOf(/^-(e|p|r)$/, long('eval'), long('print'), long('preload')),
};

export const DANGEROUS_ARGUMENTS: readonly DangerousArgument[] = [
  // git
  {
    command: 'git',
    pattern: (args) => gitGlobalOptions(args).some((o) => /^-c/.test(o) || long('config-env', 3).test(o) || long('exec-path', 3).test(o) || long('git-dir', 3).test(o)),
    why: 'git -c, --config-env, --exec-path and --git-dir choose configuration or programs that git then runs (core.fsmonitor, core.pager, …)',
  },
  { command: 'git', pattern: long('output', 3), why: '--output writes the result to any file' },
  { command: 'git', pattern: anyOf(long('upload-pack', 3), long('receive-pack', 4), long('exec', 4)), why: '--upload-pack, --receive-pack and --exec name a program git runs' },
  ...GIT_REMOTE_SUBS.map((sub): DangerousArgument => ({
    command: 'git',
    sub,
    pattern: short('u'),
    why: `git ${sub} -u names the program to run on the remote side (locally for local paths)`,
  })),
  { command: 'git', sub: 'grep', pattern: anyOf(short('O'), long('open-files-in-pager', 4)), why: 'git grep --open-files-in-pager runs a pager program of its argument' },
  { command: 'git', pattern: anyOf(long('ext-diff', 3), long('textconv', 5)), why: '--ext-diff and --textconv run the diff programs configured for the repository' },
  { command: 'git', sub: 'config', pattern: () => true, why: 'git config changes settings that make git run programs (core.fsmonitor, aliases, hooks path)' },
  {
    command: 'git',
    sub: 'branch',
    pattern: anyOf(short('dDmMcCf'), long('delete', 3), long('move', 3), long('copy', 3), long('force', 3), long('edit-description', 3)),
    why: 'git branch -d/-D/-m/-M/-c/--force deletes, renames or overwrites branches; --edit-description starts an editor',
  },
  { command: 'git', sub: 'rebase', pattern: anyOf(short('x'), long('exec', 3)), why: 'git rebase --exec runs a shell command after each commit' },
  { command: 'git', sub: 'difftool', pattern: anyOf(short('x'), long('extcmd', 3)), why: 'git difftool --extcmd runs any program' },
  { command: 'git', sub: 'submodule', pattern: /^foreach$/, why: 'git submodule foreach runs a shell command in each submodule' },
  { command: 'git', sub: 'bisect', pattern: /^run$/, why: 'git bisect run runs a program' },
  { command: 'git', sub: 'filter-branch', pattern: () => true, why: 'git filter-branch evaluates shell filters and rewrites history' },
  { command: 'git', sub: 'send-email', pattern: /^--(smtp-server|sendmail-cmd|to-cmd|cc-cmd|header-cmd)/, why: 'git send-email runs the program these options name' },
  { command: 'git', sub: 'archive', pattern: short('o'), why: 'git archive -o writes the archive to any file' },
  { command: 'git', sub: 'format-patch', pattern: anyOf(short('o'), long('output-directory', 3)), why: 'git format-patch -o writes patch files into any folder' },

  // find, grep-likes, text tools
  { command: 'find', pattern: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/, why: 'find -exec/-ok run programs, -delete deletes, -fprint/-fls write files' },
  {
    command: 'rg',
    pattern: anyOf(/^--(pre|pre-glob|hostname-bin|search-zip)(=|$)/, short('z')),
    why: 'rg --pre and --hostname-bin run a program; -z/--search-zip starts decompression programs',
  },
  {
    command: 'sed',
    pattern: anyOf(short('ief'), long('in-place', 1), long('expression', 1), long('file', 2)),
    why: 'sed -i rewrites files; -e/-f scripts are not checked for the e/w/r commands',
  },
  {
    command: 'sed',
    pattern: (args) => {
      const script = sedScript(args);
      return script !== undefined && sedScriptIsRisky(script);
    },
    why: 'the sed script has an e/w/r command or an s///e, s///w flag (runs a program or writes a file), or could not be read',
  },
  ...['awk', 'gawk', 'mawk', 'nawk'].flatMap((command): DangerousArgument[] => [
    {
      command,
      pattern: anyOf(/\bsystem\s*\(/, /\|/, /\bprintf?\b[^;{}]*>/, /@(load|include)\b/),
      why: 'the awk program runs commands (system(), |), writes files (print > file) or loads code (@load, @include)',
    },
    { command, pattern: anyOf(/^-[fiElL]/, long('file', 2), long('include', 3), long('load', 2), long('exec', 3)), why: 'awk -f/-i/-l/-E load a program or extension from a file' },
  ]),
  { command: 'sort', pattern: anyOf(short('o'), long('output', 1), long('compress-program', 3)), why: 'sort -o writes a file; --compress-program runs a program' },
  { command: 'uniq', pattern: (args) => operands(args, ['-f', '-s', '-w']).length >= 2, why: 'uniq writes its second file operand' },
  { command: 'tee', pattern: (args) => operands(args).some((a) => !NOT_FILES.has(a)), why: 'tee writes to the files it is given' },
  { command: 'xxd', pattern: (args) => operands(args, ['-c', '-g', '-l', '-o', '-s', '-n']).length >= 2, why: 'xxd writes its second file operand' },
  { command: 'tree', pattern: anyOf(/^-o/, long('output')), why: 'tree -o writes its listing to a file' },
  { command: 'date', pattern: anyOf(/^-[A-Za-z]*s/, long('set', 2), /^\d{4,12}(\.\d{2})?$/), why: 'date -s and a MMDDhhmm operand set the system clock' },
  { command: 'file', pattern: anyOf(short('C'), long('compile', 3)), why: 'file -C writes a compiled magic file' },
  { command: 'less', pattern: anyOf(/^\+/, short('oO'), long('log-file', 3), long('LOG-FILE', 3)), why: 'less +cmd runs less commands (including !shell); -o/-O write a log file' },
  { command: 'man', pattern: anyOf(short('PH'), long('pager', 2), long('html', 2)), why: 'man -P/--pager and -H/--html run the program they name' },
  { command: 'printf', pattern: /^-v/, why: 'printf -v sets a shell variable that later commands see (PATH, …)' },
  { command: 'zip', pattern: anyOf(/^-TT/, long('unzip-command', 3)), why: 'zip -TT runs the program it names' },
  { command: 'yq', pattern: anyOf(short('i'), long('inplace', 3)), why: 'yq -i rewrites files' },

  // archives and copying
  {
    command: 'tar',
    pattern: anyOf(
      long('to-command', 3),
      long('use-compress-program', 3),
      long('checkpoint-action', 3),
      long('info-script', 3),
      long('new-volume-script', 3),
      long('rsh-command', 3),
      long('rmt-command', 3),
      short('IF'),
    ),
    why: 'tar --to-command, -I/--use-compress-program, --checkpoint-action and -F run programs',
  },
  { command: 'tar', pattern: tarOldStyle, why: "tar's old-style options hold -I or -F, which run programs" },
  { command: 'rsync', pattern: anyOf(short('e'), long('rsh', 3), long('rsync-path', 3)), why: 'rsync -e/--rsh and --rsync-path name programs to run' },
  ...['ssh', 'scp', 'sftp'].map((command): DangerousArgument => ({ command, pattern: sshRunsCommand, why: `${command} -o ProxyCommand/LocalCommand and -F run local commands` })),
  ...['scp', 'sftp'].map((command): DangerousArgument => ({ command, pattern: /^-[A-Za-z0-9]*S/, why: `${command} -S names the program to run instead of ssh` })),

  // package managers and build tools
  ...NPM_FAMILY.map((command): DangerousArgument => ({
    command,
    pattern: NPM_CONFIG,
    why: `${command} --script-shell, --prefix, --node-options, --userconfig, --registry and similar change which programs and configuration run`,
  })),
  {
    command: 'make',
    pattern: anyOf(/^-[A-Za-z]*[fEC]/, long('file', 2), long('makefile', 2), long('eval', 2), long('directory', 2), /^[A-Za-z_][A-Za-z0-9_]*[+:?!]?=/),
    why: 'make -f/-C/--eval and VAR=value operands choose the recipes and programs make runs',
  },
  { command: 'cargo', pattern: anyOf(long('config', 3), long('manifest-path', 3)), why: 'cargo --config and --manifest-path choose the programs and build scripts cargo runs' },
  { command: 'go', pattern: /^--?(toolexec|exec)(=|$)/, why: 'go -toolexec and -exec run any program' },
  { command: 'go', sub: 'env', pattern: /^-[wu]$/, why: 'go env -w changes GOFLAGS and the toolchain for later builds' },
  {
    command: 'pip',
    pattern: anyOf(/^-[if]$/, long('index-url', 2), long('extra-index-url', 2), long('find-links', 2), long('trusted-host', 2)),
    why: 'pip --index-url and --find-links install code from another source',
  },
  ...['docker', 'podman'].map((command): DangerousArgument => ({
    command,
    pattern: anyOf(
      long('privileged'),
      /^--(pid|network|net|ipc|uts|userns)=host$/,
      long('cap-add'),
      long('device'),
      long('security-opt'),
      /^-v$/,
      long('volume'),
      long('mount'),
      long('config'),
    ),
    why: `${command} --privileged, host namespaces, devices and mounts give a container the host`,
  })),
  ...['kubectl', 'helm'].map((command): DangerousArgument => ({
    command,
    pattern: anyOf(long('kubeconfig'), long('post-renderer')),
    why: `${command} --kubeconfig can name credential programs to run; --post-renderer runs a program`,
  })),

  // interpreters (also never prefix-allowed; listed so a hand-written regex rule is still guarded)
  ...Object.entries(INTERPRETER_CODE).map(([command, pattern]): DangerousArgument => ({ command, pattern, why: `${command} runs the code given in its arguments` })),
];
