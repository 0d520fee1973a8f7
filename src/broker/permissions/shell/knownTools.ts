// The tools whose arguments we model: the only commands an "Always allow «tool …»" prefix rule may
// cover. For each tool (and sub-command) the options it may take, what each option's value is, and
// what its operands are. A prefix rule covers a later command only when every argument is one this
// table knows and allows and every path it names resolves inside the workspace and outside the
// protected set (checked by the caller's `PathClass`); anything else is asked. Long options are
// accepted only as spelled here (an abbreviation the tool would accept is asked: accepting it
// safely would need the tool's whole option list). Pure data and a small reader; no `vscode`.
// To add a tool: an entry below with every option it may take and why it cannot run or write.

import { jqProgramProblem } from './jqProgram';

/** What a value (of an option or an operand) may be. */
export type ValueKind =
  | 'number' // 5, +5, -5, 10k
  | 'text' // data the tool only reads or prints (a format, a pattern, a name to match)
  | 'name' // a plain name: a script, a branch, a target, a package (letters, digits, . _ - / @ : +)
  | 'path' // a file or folder: must resolve inside the workspace, outside the protected set
  | 'ref' // a git revision or a path (git decides which): checked as a path
  | 'jq' // a jq program in the subset jqProgram.ts reads: no environment, files or modules
  | 'package'; // a Go package in the workspace: ./…, checked as a path (a module path would be downloaded)

/** An option: the kind of its value (none: a flag), and whether the value is optional (`--color[=when]`). */
export interface OptionSpec {
  value?: ValueKind | readonly ValueKind[];
  optional?: boolean;
}

export interface ToolSpec {
  /** Long options by name without dashes (find's single-dash primaries too, with `singleDash`). */
  long?: Readonly<Record<string, OptionSpec>>;
  /** Short options by letter; a letter with a value takes the rest of its cluster or the next word. */
  short?: Readonly<Record<string, OptionSpec>>;
  /** `-5` means a count (head, tail, git log). */
  numericShort?: boolean;
  /** Options are whole words with one dash (`-name`, `-maxdepth`): find. */
  singleDash?: boolean;
  /** Words allowed as they are (find's `(`, `)`, `!`). */
  words?: readonly string[];
  /** The kind of each operand; the first one may differ (`first`), e.g. grep's pattern. */
  operands?: ValueKind | 'none';
  first?: ValueKind;
  /** Options that give the pattern, so the first operand is an ordinary operand. */
  firstGivenBy?: readonly string[];
  maxOperands?: number;
  /** Operands only when one of these options is present (git branch/tag create with an operand). */
  operandsOnlyWith?: readonly string[];
  /** The command is covered only when one of these options is present (tsc --noEmit, prettier --check). */
  requires?: readonly string[];
  /** What follows `--`: operands (paths), or arguments forwarded to a test runner. */
  afterDashDash?: 'operands' | 'forwarded';
  /** Every argument after the prefix is forwarded to a script (yarn, pnpm). */
  forwardsAll?: boolean;
  /** The tool reads more arguments from a file named by any argument starting with `@` (pytest, tsc). */
  responseFiles?: boolean;
  /** A flag takes a following `true` or `false` as its value (tsc, yargs): `--noEmit false` turns it off. */
  booleanValues?: boolean;
}

const flag: OptionSpec = {};
const v = (value: ValueKind | readonly ValueKind[], optional = false): OptionSpec => (optional ? { value, optional } : { value });
const flags = (...names: string[]): Record<string, OptionSpec> => Object.fromEntries(names.map((n) => [n, flag]));

/** Arguments a test runner may receive after `--` (or from yarn/pnpm): filters and output, nothing that loads code or writes files. */
export const FORWARDED: ToolSpec = {
  long: {
    ...flags(
      'verbose',
      'bail',
      'watch',
      'coverage',
      'run',
      'ci',
      'silent',
      'quiet',
      'nocapture',
      'exact',
      'ignored',
      'include-ignored',
      'list',
      'show-output',
      'runInBand',
      'passWithNoTests',
      'detectOpenHandles',
      'forceExit',
      'no-color',
      'color',
    ),
    grep: v('text'),
    testNamePattern: v('text'),
    mode: v('name'),
    'test-threads': v('number'),
    skip: v('text'),
    maxfail: v('number'),
    timeout: v('number'),
  },
  short: { ...flags('v', 'q', 'x', 'i'), t: v('text'), k: v('text'), g: v('text') },
  operands: 'path',
  booleanValues: true,
};

const GIT_DIFF_OPTIONS: Record<string, OptionSpec> = {
  ...flags(
    'stat',
    'shortstat',
    'numstat',
    'name-only',
    'name-status',
    'patch',
    'no-patch',
    'raw',
    'summary',
    'check',
    'minimal',
    'patience',
    'histogram',
    'no-renames',
    'full-index',
    'binary',
    'ignore-all-space',
    'ignore-space-change',
    'ignore-blank-lines',
    'ignore-space-at-eol',
    'no-color',
    'no-ext-diff',
    'no-textconv',
    'text',
    'find-copies-harder',
    'irreversible-delete',
    'cumulative',
    'dirstat',
    'compact-summary',
    'patch-with-stat',
    'patch-with-raw',
    'exit-code',
    'quiet',
    'no-prefix',
    'function-context',
    'indent-heuristic',
    'no-indent-heuristic',
  ),
  unified: v('number'),
  'diff-filter': v('text'),
  'diff-algorithm': v('name'),
  'word-diff': v('name', true),
  'word-diff-regex': v('text'),
  color: v('name', true),
  'color-moved': v('name', true),
  'color-words': v('text', true),
  'find-renames': v('text', true),
  'find-copies': v('text', true),
  'break-rewrites': v('text', true),
  abbrev: v('number', true),
  'stat-width': v('number'),
  'stat-count': v('number'),
  relative: v('path', true),
  'src-prefix': v('text'),
  'dst-prefix': v('text'),
  'ignore-submodules': v('name', true),
  'inter-hunk-context': v('number'),
  submodule: v('name', true),
};
const GIT_DIFF_SHORT: Record<string, OptionSpec> = {
  ...flags('p', 'u', 's', 'w', 'b', 'R', 'a', 'z', 'W'),
  U: v('number'),
  M: v('text', true),
  C: v('text', true),
  B: v('text', true),
  l: v('number'),
  S: v('text'),
  G: v('text'),
  O: { value: 'path' },
};
// -O is git diff's order file (a path it reads); in git grep -O runs a pager and is not listed there.

const GIT_LOG_OPTIONS: Record<string, OptionSpec> = {
  ...GIT_DIFF_OPTIONS,
  ...flags(
    'oneline',
    'all',
    'graph',
    'no-decorate',
    'abbrev-commit',
    'no-abbrev-commit',
    'no-merges',
    'merges',
    'first-parent',
    'reverse',
    'follow',
    'left-right',
    'cherry-pick',
    'cherry-mark',
    'cherry',
    'boundary',
    'topo-order',
    'date-order',
    'author-date-order',
    'full-history',
    'simplify-by-decoration',
    'regexp-ignore-case',
    'all-match',
    'invert-grep',
    'extended-regexp',
    'fixed-strings',
    'perl-regexp',
    'basic-regexp',
    'branches',
    'tags',
    'remotes',
    'source',
    'use-mailmap',
    'mailmap',
    'log-size',
    'no-walk',
    'walk-reflogs',
    'parents',
    'children',
    'relative-date',
    'show-signature',
    'show-notes',
    'no-notes',
    'ancestry-path',
    'dense',
    'sparse',
    'no-min-parents',
    'no-max-parents',
    'remove-empty',
    'show-linear-break',
    'full-diff',
    'name-only',
    'notes',
  ),
  'max-count': v('number'),
  skip: v('number'),
  since: v('text'),
  after: v('text'),
  until: v('text'),
  before: v('text'),
  'since-as-filter': v('text'),
  author: v('text'),
  committer: v('text'),
  grep: v('text'),
  'grep-reflog': v('text'),
  format: v('text'),
  pretty: v('text', true),
  decorate: v('name', true),
  'decorate-refs': v('text'),
  'decorate-refs-exclude': v('text'),
  date: v('text'),
  'min-parents': v('number'),
  'max-parents': v('number'),
  encoding: v('name'),
  'expand-tabs': v('number', true),
  'no-expand-tabs': flag,
};
const GIT_LOG_SHORT: Record<string, OptionSpec> = { ...GIT_DIFF_SHORT, ...flags('i', 'E', 'F', 'P', 'g', 'm', 'c', 'r', 't'), n: v('number'), L: v('text') };

const GREP_LIKE_LONG: Record<string, OptionSpec> = {
  ...flags(
    'line-number',
    'ignore-case',
    'word-regexp',
    'invert-match',
    'files-with-matches',
    'files-without-match',
    'count',
    'only-matching',
    'quiet',
    'silent',
    'extended-regexp',
    'fixed-strings',
    'basic-regexp',
    'perl-regexp',
    'no-filename',
    'with-filename',
    'line-regexp',
    'null',
    'null-data',
    'no-messages',
    'byte-offset',
    'initial-tab',
    'recursive',
    'no-color',
    'text',
    'unix-byte-offsets',
    'line-buffered',
  ),
  regexp: v('text'),
  file: v('path'),
  context: v('number'),
  'after-context': v('number'),
  'before-context': v('number'),
  'max-count': v('number'),
  color: v('name', true),
  colour: v('name', true),
  include: v('text'),
  exclude: v('text'),
  'exclude-dir': v('text'),
  'binary-files': v('name'),
  label: v('text'),
  devices: v('name'),
  directories: v('name'),
};

/** Tools whose arguments are modelled, by the prefix a rule for them names. */
/** What `git branch` and `git tag` both take when they list: the filters and the layout of git's ref listing. */
const REF_LIST_OPTIONS: Record<string, OptionSpec> = {
  contains: v('ref', true),
  'no-contains': v('ref', true),
  merged: v('ref', true),
  'no-merged': v('ref', true),
  'points-at': v('ref'),
  sort: v('text'),
  format: v('text'),
  color: v('name', true),
  column: v('name', true),
};

export const KNOWN_TOOLS: Readonly<Record<string, ToolSpec>> = {
  // ----- read-only git -----
  'git status': {
    long: {
      ...flags('short', 'branch', 'long', 'verbose', 'no-renames', 'renames', 'ahead-behind', 'no-ahead-behind', 'show-stash', 'no-column', 'null'),
      porcelain: v('name', true),
      'untracked-files': v('name', true),
      ignored: v('name', true),
      'ignore-submodules': v('name', true),
      'find-renames': v('number', true),
      column: v('name', true),
    },
    short: { ...flags('s', 'b', 'v', 'z'), u: v('name', true), M: v('number', true) },
    operands: 'path',
    afterDashDash: 'operands',
  },
  'git log': { long: GIT_LOG_OPTIONS, short: GIT_LOG_SHORT, numericShort: true, operands: 'ref', afterDashDash: 'operands' },
  'git show': { long: GIT_LOG_OPTIONS, short: GIT_LOG_SHORT, operands: 'ref', afterDashDash: 'operands' },
  'git diff': { long: { ...GIT_DIFF_OPTIONS, ...flags('cached', 'staged', 'merge-base') }, short: GIT_DIFF_SHORT, operands: 'ref', afterDashDash: 'operands' },
  'git grep': {
    long: {
      ...flags(
        'line-number',
        'ignore-case',
        'word-regexp',
        'invert-match',
        'files-with-matches',
        'name-only',
        'files-without-match',
        'count',
        'only-matching',
        'quiet',
        'extended-regexp',
        'fixed-strings',
        'basic-regexp',
        'perl-regexp',
        'untracked',
        'cached',
        'no-index',
        'break',
        'heading',
        'show-function',
        'function-context',
        'all-match',
        'and',
        'or',
        'not',
        'full-name',
        'recursive',
        'no-recursive',
        'column',
        'null',
        'no-color',
        'text',
        'no-exclude-standard',
        'exclude-standard',
        'line-regexp',
      ),
      regexp: v('text'),
      file: v('path'),
      context: v('number'),
      'after-context': v('number'),
      'before-context': v('number'),
      'max-depth': v('number'),
      'max-count': v('number'),
      color: v('name', true),
      threads: v('number'),
    },
    short: {
      ...flags('n', 'i', 'w', 'v', 'l', 'L', 'c', 'o', 'q', 'E', 'F', 'P', 'G', 'I', 'h', 'H', 'p', 'W', 'r', 'z', 'a'),
      e: v('text'),
      f: v('path'),
      A: v('number'),
      B: v('number'),
      C: v('number'),
      m: v('number'),
    },
    words: ['(', ')'],
    first: 'text',
    firstGivenBy: ['-e', '--regexp', '-f', '--file'],
    operands: 'ref',
    afterDashDash: 'operands',
  },
  'git branch': {
    long: {
      ...flags('all', 'remotes', 'verbose', 'list', 'show-current', 'no-color', 'no-column', 'ignore-case', 'omit-empty'),
      ...REF_LIST_OPTIONS,
      abbrev: v('number'),
    },
    short: { ...flags('a', 'r', 'v', 'l', 'i') },
    operands: 'text',
    operandsOnlyWith: ['-l', '--list'],
  },
  'git tag': {
    long: {
      ...flags('list', 'no-color', 'no-column', 'ignore-case', 'omit-empty'),
      ...REF_LIST_OPTIONS,
    },
    short: { ...flags('l', 'i'), n: v('number', true) },
    operands: 'text',
    operandsOnlyWith: ['-l', '--list'],
  },
  'git rev-parse': {
    long: {
      ...flags(
        'verify',
        'quiet',
        'show-toplevel',
        'git-dir',
        'absolute-git-dir',
        'git-common-dir',
        'is-inside-work-tree',
        'is-inside-git-dir',
        'is-bare-repository',
        'is-shallow-repository',
        'show-prefix',
        'show-cdup',
        'symbolic',
        'symbolic-full-name',
        'all',
        'branches',
        'tags',
        'remotes',
        'show-superproject-working-tree',
        'show-object-format',
        'sq',
        'not',
        'revs-only',
        'no-revs',
        'flags',
        'no-flags',
      ),
      'abbrev-ref': v('name', true),
      short: v('number', true),
      default: v('ref'),
    },
    short: { ...flags('q') },
    operands: 'ref',
    afterDashDash: 'operands',
  },
  'git ls-files': {
    long: {
      ...flags(
        'cached',
        'modified',
        'others',
        'deleted',
        'ignored',
        'stage',
        'unmerged',
        'killed',
        'directory',
        'no-empty-directory',
        'exclude-standard',
        'full-name',
        'error-unmatch',
        'eol',
        'recurse-submodules',
        'sparse',
        'deduplicate',
        'debug',
      ),
      exclude: v('text'),
      'exclude-from': v('path'),
      'exclude-per-directory': v('name'),
      abbrev: v('number', true),
      format: v('text'),
    },
    short: { ...flags('c', 'm', 'o', 'd', 'i', 's', 'u', 'k', 'z', 't', 'v', 'f'), x: v('text'), X: v('path') },
    operands: 'path',
    afterDashDash: 'operands',
  },
  'git blame': {
    long: {
      ...flags(
        'root',
        'show-stats',
        'porcelain',
        'line-porcelain',
        'incremental',
        'show-name',
        'show-number',
        'show-email',
        'color-lines',
        'color-by-age',
        'minimal',
        'progress',
        'no-progress',
      ),
      since: v('text'),
      date: v('text'),
      abbrev: v('number', true),
      'ignore-rev': v('ref'),
    },
    short: { ...flags('b', 'c', 'l', 't', 'f', 'n', 's', 'e', 'w', 'p'), L: v('text'), M: v('number', true), C: v('number', true) },
    operands: 'ref',
    afterDashDash: 'operands',
  },

  // ----- reading files and folders -----
  ls: {
    long: {
      ...flags(
        'all',
        'almost-all',
        'human-readable',
        'si',
        'recursive',
        'reverse',
        'directory',
        'classify',
        'inode',
        'numeric-uid-gid',
        'size',
        'group-directories-first',
        'full-time',
        'dereference-command-line',
        'no-group',
        'author',
        'escape',
        'literal',
        'quote-name',
        'hide-control-chars',
        'show-control-chars',
        'file-type',
      ),
      color: v('name', true),
      sort: v('name'),
      time: v('name'),
      'time-style': v('text'),
      format: v('name'),
      'indicator-style': v('name'),
      ignore: v('text'),
      hide: v('text'),
      width: v('number'),
      'block-size': v('text'),
      'quoting-style': v('name'),
      hyperlink: v('name', true),
    },
    short: {
      ...flags('a', 'A', 'l', 'h', 'R', 't', 'S', 'r', '1', 'd', 'F', 'G', 'i', 'n', 'o', 'g', 'p', 's', 'x', 'C', 'm', 'U', 'u', 'c', 'X', 'v', 'H', 'k', 'b', 'B', 'N', 'q', 'Q'),
      I: v('text'),
      w: v('number'),
      T: v('number'),
    },
    operands: 'path',
    afterDashDash: 'operands',
  },
  cat: {
    long: flags('number', 'number-nonblank', 'squeeze-blank', 'show-all', 'show-ends', 'show-tabs', 'show-nonprinting'),
    short: flags('n', 'b', 's', 'A', 'E', 'T', 'v', 'e', 't', 'u'),
    operands: 'path',
    afterDashDash: 'operands',
  },
  head: {
    long: { ...flags('quiet', 'silent', 'verbose', 'zero-terminated'), lines: v('number'), bytes: v('number') },
    short: { ...flags('q', 'v', 'z'), n: v('number'), c: v('number') },
    numericShort: true,
    operands: 'path',
    afterDashDash: 'operands',
  },
  tail: {
    long: { ...flags('quiet', 'silent', 'verbose', 'zero-terminated', 'retry'), lines: v('number'), bytes: v('number'), follow: v('name', true), 'sleep-interval': v('number') },
    short: { ...flags('q', 'v', 'z', 'f', 'F', 'r'), n: v('number'), c: v('number'), s: v('number') },
    numericShort: true,
    operands: 'path',
    afterDashDash: 'operands',
  },
  wc: { long: flags('lines', 'words', 'chars', 'bytes', 'max-line-length'), short: flags('l', 'w', 'c', 'm', 'L'), operands: 'path', afterDashDash: 'operands' },
  grep: {
    long: GREP_LIKE_LONG,
    short: {
      // Not -R or --dereference-recursive: they follow links a repository can ship (to ~/.ssh).
      ...flags('n', 'i', 'y', 'w', 'v', 'l', 'L', 'c', 'o', 'q', 's', 'E', 'F', 'G', 'P', 'H', 'h', 'x', 'z', 'Z', 'b', 'T', 'U', 'r', 'I', 'a'),
      e: v('text'),
      f: v('path'),
      A: v('number'),
      B: v('number'),
      C: v('number'),
      m: v('number'),
      d: v('name'),
      D: v('name'),
    },
    numericShort: true,
    first: 'text',
    firstGivenBy: ['-e', '--regexp', '-f', '--file'],
    operands: 'path',
    afterDashDash: 'operands',
  },
  rg: {
    long: {
      ...flags(
        'line-number',
        'no-line-number',
        'ignore-case',
        'smart-case',
        'case-sensitive',
        'word-regexp',
        'line-regexp',
        'invert-match',
        'files-with-matches',
        'files-without-match',
        'count',
        'count-matches',
        'only-matching',
        'quiet',
        'fixed-strings',
        'hidden',
        'no-ignore',
        'no-ignore-vcs',
        'no-ignore-parent',
        'no-ignore-dot',
        'no-ignore-global',
        'files',
        'json',
        'vimgrep',
        'no-heading',
        'heading',
        'with-filename',
        'no-filename',
        'column',
        'no-column',
        'multiline',
        'multiline-dotall',
        'pcre2',
        'trim',
        'null',
        'no-messages',
        'stats',
        'type-list',
        'byte-offset',
        'crlf',
        'text',
        'binary',
        'no-config',
        'unrestricted',
        'one-file-system',
        'sort-files',
        'passthru',
        'no-unicode',
        'max-columns-preview',
        'include-zero',
        'glob-case-insensitive',
      ),
      regexp: v('text'),
      glob: v('text'),
      iglob: v('text'),
      type: v('name'),
      'type-not': v('name'),
      context: v('number'),
      'after-context': v('number'),
      'before-context': v('number'),
      'max-count': v('number'),
      'max-depth': v('number'),
      'max-filesize': v('text'),
      'max-columns': v('number'),
      sort: v('name'),
      sortr: v('name'),
      color: v('name'),
      colors: v('text'),
      replace: v('text'),
      encoding: v('name'),
      threads: v('number'),
      'path-separator': v('text'),
      'field-match-separator': v('text'),
      'field-context-separator': v('text'),
      'context-separator': v('text'),
      engine: v('name'),
    },
    short: {
      // Not -L or --follow: they follow links a repository can ship.
      ...flags('n', 'N', 'i', 'S', 's', 'w', 'x', 'v', 'l', 'c', 'o', 'q', 'F', 'u', 'H', 'I', 'U', 'P', '0', 'a', 'b'),
      e: v('text'),
      g: v('text'),
      t: v('name'),
      T: v('name'),
      A: v('number'),
      B: v('number'),
      C: v('number'),
      m: v('number'),
      d: v('number'),
      M: v('number'),
      r: v('text'),
      j: v('number'),
      E: v('name'),
    },
    first: 'text',
    firstGivenBy: ['-e', '--regexp', '--files', '--type-list'],
    operands: 'path',
    afterDashDash: 'operands',
  },
  find: {
    singleDash: true,
    long: {
      ...flags(
        'print',
        'print0',
        'empty',
        'prune',
        'not',
        'o',
        'or',
        'a',
        'and',
        'readable',
        'writable',
        'executable',
        'xdev',
        'mount',
        'depth',
        'ls',
        'true',
        'false',
        'nouser',
        'nogroup',
        'daystart',
        'noleaf',
        'quit',
        'H',
        'P',
      ),
      // Not -L or -follow: they follow links a repository can ship. -newerXY compares with a file, or a date text when Y is t.
      ...newerOptions(),
      name: v('text'),
      iname: v('text'),
      path: v('text'),
      ipath: v('text'),
      wholename: v('text'),
      iwholename: v('text'),
      regex: v('text'),
      iregex: v('text'),
      regextype: v('name'),
      lname: v('text'),
      ilname: v('text'),
      type: v('name'),
      xtype: v('name'),
      maxdepth: v('number'),
      mindepth: v('number'),
      mtime: v('number'),
      mmin: v('number'),
      atime: v('number'),
      amin: v('number'),
      ctime: v('number'),
      cmin: v('number'),
      size: v('text'),
      user: v('name'),
      group: v('name'),
      uid: v('number'),
      gid: v('number'),
      perm: v('text'),
      links: v('number'),
      inum: v('number'),
      newer: v('path'),
      anewer: v('path'),
      cnewer: v('path'),
      samefile: v('path'),
      printf: v('text'),
      fstype: v('name'),
      used: v('number'),
    },
    words: ['(', ')', '!', ','],
    operands: 'path',
  },
  sort: {
    long: {
      ...flags(
        'reverse',
        'numeric-sort',
        'unique',
        'ignore-case',
        'human-numeric-sort',
        'version-sort',
        'month-sort',
        'ignore-leading-blanks',
        'dictionary-order',
        'ignore-nonprinting',
        'general-numeric-sort',
        'random-sort',
        'stable',
        'zero-terminated',
        'check',
        'merge',
        'debug',
      ),
      key: v('text'),
      'field-separator': v('text'),
      'buffer-size': v('text'),
      parallel: v('number'),
      sort: v('name'),
    },
    short: { ...flags('r', 'n', 'u', 'f', 'h', 'V', 'M', 'b', 'd', 'i', 'g', 'R', 's', 'z', 'c', 'C', 'm'), k: v('text'), t: v('text'), S: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
  },
  uniq: {
    long: {
      ...flags('count', 'repeated', 'unique', 'ignore-case', 'zero-terminated'),
      'skip-fields': v('number'),
      'skip-chars': v('number'),
      'check-chars': v('number'),
      'all-repeated': v('name', true),
      group: v('name', true),
    },
    short: { ...flags('c', 'd', 'u', 'i', 'z', 'D'), f: v('number'), s: v('number'), w: v('number') },
    operands: 'path',
    maxOperands: 1,
  },
  echo: { short: flags('n', 'e', 'E'), operands: 'text' },
  pwd: { short: flags('L', 'P'), operands: 'none' },
  which: { short: flags('a', 's'), operands: 'name' },
  stat: {
    long: { ...flags('dereference', 'file-system', 'terse'), format: v('text'), printf: v('text'), cached: v('name') },
    short: { ...flags('L', 'f', 't'), c: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
  },
  du: {
    long: {
      ...flags('all', 'apparent-size', 'bytes', 'total', 'human-readable', 'si', 'summarize', 'one-file-system', 'count-links', 'separate-dirs', 'null', 'inodes'),
      'max-depth': v('number'),
      exclude: v('text'),
      threshold: v('text'),
      time: v('name', true),
      'time-style': v('text'),
      'block-size': v('text'),
    },
    // Not -L or --dereference: they follow links a repository can ship.
    short: { ...flags('a', 'b', 'c', 'h', 's', 'x', 'l', 'S', 'k', 'm', '0'), d: v('number'), t: v('text'), B: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
  },
  tree: {
    long: flags('dirsfirst', 'noreport', 'gitignore', 'prune', 'du', 'inodes', 'device', 'filelimit', 'matchdirs', 'ignore-case', 'info', 'charset', 'sort', 'fromfile'),
    short: {
      // Not -l: it follows links a repository can ship.
      ...flags('a', 'd', 'f', 'i', 's', 'h', 'D', 'F', 'C', 'n', 'J', 'X', 'x', 'p', 'u', 'g', 'q', 'N', 'Q', 'v', 't', 'c', 'r', 'U'),
      L: v('number'),
      I: v('text'),
      P: v('text'),
    },
    operands: 'path',
  },
  jq: {
    long: {
      ...flags(
        'raw-output',
        'compact-output',
        'null-input',
        'exit-status',
        'slurp',
        'sort-keys',
        'join-output',
        'ascii-output',
        'color-output',
        'monochrome-output',
        'tab',
        'raw-input',
        'raw-output0',
        'seq',
        'stream',
        'stream-errors',
      ),
      indent: v('number'),
      arg: v(['name', 'text']),
      argjson: v(['name', 'text']),
      rawfile: v(['name', 'path']),
      slurpfile: v(['name', 'path']),
    },
    short: flags('r', 'c', 'n', 'e', 's', 'S', 'j', 'a', 'C', 'M', 'R'),
    first: 'jq',
    operands: 'path',
    afterDashDash: 'operands',
  },

  // ----- the project's own runners (they run the workspace's own code, which the user asked to test or build) -----
  'npm test': {
    long: { ...flags('silent', 'quiet', 'if-present', 'workspaces', 'include-workspace-root'), workspace: v('name'), loglevel: v('name') },
    short: { ...flags('s', 'q'), w: v('name') },
    afterDashDash: 'forwarded',
    operands: 'path',
  },
  'npm run': {
    long: { ...flags('silent', 'quiet', 'if-present', 'workspaces', 'include-workspace-root'), workspace: v('name'), loglevel: v('name') },
    short: { ...flags('s', 'q'), w: v('name') },
    afterDashDash: 'forwarded',
    operands: 'path',
  },
  'yarn test': { forwardsAll: true },
  'yarn run': { forwardsAll: true },
  'pnpm test': { forwardsAll: true },
  'pnpm run': { forwardsAll: true },
  'cargo test': { long: cargoOptions(), short: cargoShort(), operands: 'text', afterDashDash: 'forwarded' },
  'cargo build': { long: cargoOptions(), short: cargoShort(), operands: 'none' },
  'cargo check': { long: cargoOptions(), short: cargoShort(), operands: 'none' },
  'go test': {
    singleDash: true,
    long: {
      ...goOptions(),
      ...flags('short', 'failfast', 'json', 'benchmem', 'cover', 'fullpath'),
      run: v('text'),
      skip: v('text'),
      count: v('number'),
      timeout: v('text'),
      bench: v('text'),
      benchtime: v('text'),
      parallel: v('number'),
      cpu: v('text'),
      covermode: v('name'),
      list: v('text'),
      shuffle: v('text'),
    },
    operands: 'package',
  },
  'go build': { singleDash: true, long: goOptions(), operands: 'package' },
  'go vet': { singleDash: true, long: { ...goOptions(), json: flag }, operands: 'package' },
  make: {
    long: {
      ...flags(
        'keep-going',
        'silent',
        'quiet',
        'no-print-directory',
        'print-directory',
        'always-make',
        'ignore-errors',
        'no-builtin-rules',
        'no-builtin-variables',
        'question',
        'warn-undefined-variables',
      ),
      jobs: v('number', true),
      'load-average': v('number', true),
      'output-sync': v('name', true),
    },
    short: { ...flags('k', 's', 'w', 'B', 'i', 'r', 'R', 'q'), j: v('number', true), l: v('number', true), O: v('name', true) },
    // The rule names its target (`make test`): a further operand is another target.
    operands: 'none',
  },
  pytest: {
    long: {
      ...flags(
        'verbose',
        'quiet',
        'exitfirst',
        'last-failed',
        'failed-first',
        'new-first',
        'collect-only',
        'co',
        'no-header',
        'no-summary',
        'disable-warnings',
        'showlocals',
        'strict-markers',
        'runxfail',
        'stepwise',
        'sw',
      ),
      maxfail: v('number'),
      tb: v('name'),
      durations: v('number'),
      color: v('name'),
      capture: v('name'),
      'log-level': v('name'),
    },
    short: { ...flags('v', 'q', 'x', 's', 'l'), k: v('text'), m: v('text'), r: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
    responseFiles: true,
  },
  tsc: {
    long: {
      ...flags(
        'noEmit',
        'pretty',
        'listFiles',
        'listFilesOnly',
        'extendedDiagnostics',
        'diagnostics',
        'explainFiles',
        'traceResolution',
        'strict',
        'skipLibCheck',
        'noUnusedLocals',
        'noUnusedParameters',
      ),
      project: v('path'),
      target: v('name'),
      module: v('name'),
      lib: v('text'),
    },
    short: { p: v('path') },
    requires: ['--noEmit'],
    operands: 'path',
    responseFiles: true,
    booleanValues: true,
  },
  eslint: {
    long: {
      ...flags(
        'quiet',
        'color',
        'no-color',
        'no-warn-ignored',
        'report-unused-disable-directives',
        'no-error-on-unmatched-pattern',
        'exit-on-fatal-error',
        'no-inline-config',
        'debug',
        'print-config',
      ),
      'max-warnings': v('number'),
      ext: v('text'),
      'ignore-pattern': v('text'),
    },
    operands: 'path',
    afterDashDash: 'operands',
  },
  prettier: {
    long: {
      ...flags('check', 'list-different', 'no-color', 'color', 'no-editorconfig', 'ignore-unknown', 'no-error-on-unmatched-pattern'),
      'log-level': v('name'),
      'ignore-path': v('path'),
    },
    short: flags('c', 'l', 'u'),
    requires: ['--check', '-c', '--list-different', '-l'],
    operands: 'path',
  },
  // Not --config/-c, --rootDir, --roots, --reporters, --testRunner, --globalSetup, --setupFiles…
  // (they load code from a path), --outputFile, --cacheDirectory, --coverageDirectory, --clearCache
  // (they write or delete where they are told), --watch/--watchAll or --onlyChanged/--changedSince (they run git).
  jest: {
    long: {
      ...flags(
        'ci',
        'verbose',
        'silent',
        'runInBand',
        'passWithNoTests',
        'detectOpenHandles',
        'forceExit',
        'colors',
        'json',
        'listTests',
        'noStackTrace',
        'errorOnDeprecated',
        'no-cache',
        'logHeapUsage',
        'useStderr',
        'coverage',
      ),
      bail: v('number', true),
      testNamePattern: v('text'),
      testPathPattern: v('text'),
      testPathPatterns: v('text'),
      testPathIgnorePatterns: v('text'),
      maxWorkers: v('text'),
      testTimeout: v('number'),
      selectProjects: v('name'),
      shard: v('name'),
    },
    short: { ...flags('i', 'b'), t: v('text'), w: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
    booleanValues: true,
  },
  // The same limits (and not --reporter or --pool: a path loads code); `vitest run` only (bare
  // `vitest` takes sub-commands such as `init`, which writes).
  'vitest run': {
    long: {
      ...flags('silent', 'passWithNoTests', 'allowOnly', 'no-color', 'hideSkippedTests', 'logHeapUsage', 'coverage', 'run', 'no-file-parallelism', 'isolate', 'no-isolate'),
      watch: flag,
      bail: v('number'),
      testNamePattern: v('text'),
      project: v('name'),
      shard: v('name'),
      maxWorkers: v('text'),
      testTimeout: v('number'),
      retry: v('number'),
    },
    short: { t: v('text') },
    operands: 'path',
    afterDashDash: 'operands',
    booleanValues: true,
  },
};

function cargoOptions(): Record<string, OptionSpec> {
  return {
    ...flags(
      'release',
      'workspace',
      'all',
      'lib',
      'bins',
      'tests',
      'benches',
      'examples',
      'all-targets',
      'all-features',
      'no-default-features',
      'quiet',
      'verbose',
      'locked',
      'offline',
      'frozen',
      'no-fail-fast',
      'doc',
      'keep-going',
      'no-run',
      'future-incompat-report',
      'ignore-rust-version',
    ),
    package: v('name'),
    exclude: v('name'),
    bin: v('name'),
    test: v('name'),
    bench: v('name'),
    example: v('name'),
    features: v('text'),
    jobs: v('number'),
    target: v('name'),
    profile: v('name'),
    'message-format': v('name'),
    color: v('name'),
  };
}
function cargoShort(): Record<string, OptionSpec> {
  return { ...flags('q', 'v', 'r'), p: v('name'), j: v('number'), F: v('text') };
}
/** find's -newerXY: X and Y among a (access), B (birth), c (change), m (modification); Y = t reads a date text instead of a file. */
function newerOptions(): Record<string, OptionSpec> {
  const times = ['a', 'B', 'c', 'm'];
  return Object.fromEntries(times.flatMap((x) => [...times.map((y) => [`newer${x}${y}`, v('path')] as const), [`newer${x}t`, v('text')] as const]));
}
function goOptions(): Record<string, OptionSpec> {
  // Not -o (writes), -exec/-toolexec (run programs), -ldflags/-gcflags/-asmflags (-extld names a program), -modfile, -overlay, -pgo (read files), -C (changes folder).
  return { ...flags('v', 'race', 'trimpath', 'x', 'n', 'a', 'work', 'buildvcs', 'msan', 'asan', 'linkshared'), tags: v('text'), p: v('number'), mod: v('name'), vet: v('text') };
}

/** The tool spec a prefix key stands for (`git grep`, `npm run build` → `npm run`, `make test` → `make`), if modelled. */
export function specForPrefix(key: string): { spec: ToolSpec; words: number } | undefined {
  const words = key.trim().split(/\s+/);
  const [first, second] = words;
  if (first === undefined) return undefined;
  if (second !== undefined) {
    const two = KNOWN_TOOLS[`${first} ${second}`];
    if (two && (words.length === 2 || (words.length === 3 && NAMED_RUNS.has(`${first} ${second}`)))) return { spec: two, words: words.length };
  }
  const one = KNOWN_TOOLS[first];
  if (!one) return undefined;
  // `make test` names a target; any other one-word tool rule is the tool alone.
  if (first === 'make') return words.length === 2 && second !== undefined && /^[\w./-]+$/.test(second) ? { spec: one, words: 2 } : undefined;
  return words.length === 1 ? { spec: one, words: 1 } : undefined;
}

/** npm's own other names for the sub-commands modelled here. */
const NPM_ALIASES: Readonly<Record<string, string>> = { t: 'test', tst: 'test', 'run-script': 'run' };
/**
 * Tools `npx --no-install` runs from the workspace's node_modules; plain `npx` downloads what is
 * missing, so it counts only where the tool is installed in the workspace (commandRules.ts asks).
 */
export const NPX_LOCAL: ReadonlySet<string> = new Set(['tsc', 'eslint', 'prettier', 'jest', 'vitest']);

/**
 * The words a rule reads for a spelling that runs the same modelled tool: `git --no-pager log` →
 * `git log`, `npm t` → `npm test`, `python -m pytest` → `pytest`, `npx --no-install tsc` → `tsc`,
 * `make -j4 test` → `make test -j4` (the target first, as the rule names it). Anything else as it is.
 */
export function canonicalWords(words: readonly string[]): readonly string[] {
  const [first, second, third] = words;
  if (first === 'git' && (second === '--no-pager' || second === '-P')) return canonicalWords(['git', ...words.slice(2)]);
  if (first === 'npm' && second !== undefined && Object.hasOwn(NPM_ALIASES, second)) return ['npm', NPM_ALIASES[second]!, ...words.slice(2)];
  if (first !== undefined && /^python3?(\.\d+)?$/.test(first) && second === '-m' && third === 'pytest') return words.slice(2);
  if (first === 'npx' && second === '--no-install' && third !== undefined && NPX_LOCAL.has(third)) return words.slice(2);
  if (first === 'make') {
    const target = words.findIndex((word, i) => i > 0 && !word.startsWith('-'));
    // Only options glued to their values before it (`-j4`, `--jobs=4`): in `-j 4 test` the 4 is not a target.
    if (target > 1 && /^[A-Za-z_][\w./-]*$/.test(words[target]!) && !words.slice(1, target).includes('--'))
      return ['make', words[target]!, ...words.slice(1, target), ...words.slice(target + 1)];
  }
  return words;
}

/** Runners whose rule names the script too: `npm run build`, `yarn run lint`. */
const NAMED_RUNS = new Set(['npm run', 'yarn run', 'pnpm run']);

/** The prefix a rule would name for these words, when the tool is modelled: `git grep`, `npm run build`, `make test`, `ls`. */
export function knownPrefixFor(words: readonly string[]): string | undefined {
  const [first, second, third] = words;
  if (first === undefined || !/^[a-z][a-z0-9._+-]*$/.test(first)) return undefined;
  if (second !== undefined && KNOWN_TOOLS[`${first} ${second}`]) {
    if (NAMED_RUNS.has(`${first} ${second}`)) return third !== undefined && /^[\w:.@/-]+$/.test(third) && !third.startsWith('-') ? `${first} ${second} ${third}` : undefined;
    return `${first} ${second}`;
  }
  if (first === 'make') return second !== undefined && /^[\w./-]+$/.test(second) && !second.startsWith('-') ? `make ${second}` : undefined;
  return KNOWN_TOOLS[first] ? first : undefined;
}

/** What the caller says about a path: where it resolves. */
export type PathCheck = (path: string) => string | undefined;

/**
 * Why `args` (the words after the rule's prefix) are not all known and allowed for `spec`, or
 * undefined when they are. `checkPath` returns why a path may not be covered (outside, protected).
 */
export function unknownArgument(spec: ToolSpec, args: readonly string[], checkPath: PathCheck): string | undefined {
  if (spec.forwardsAll) return forwardedProblem(args, checkPath);
  // Every argument, an option's value included (argparse expands them all), may name a response file.
  const responseFile = spec.responseFiles ? args.find((arg) => arg.startsWith('@')) : undefined;
  if (responseFile !== undefined) return `\`${responseFile}\`: the tool reads more arguments from that file`;
  const present = new Set<string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' && !spec.singleDash) {
      const rest = args.slice(i + 1);
      if (spec.afterDashDash === 'forwarded') {
        const problem = forwardedProblem(rest, checkPath);
        if (problem) return problem;
      } else if (spec.afterDashDash === 'operands') {
        operands.push(...rest);
      } else {
        return '`--` is not modelled for this command';
      }
      break;
    }
    if (spec.words?.includes(arg)) continue;
    if (arg.startsWith('-') && arg !== '-') {
      if (spec.numericShort && /^-\d+$/.test(arg)) continue;
      const rest = args.slice(i + 1);
      const taken = spec.singleDash || arg.startsWith('--') ? longOption(spec, arg, rest, checkPath) : shortCluster(spec, arg, rest, checkPath);
      if (typeof taken === 'string') return taken;
      // A flag set to false (`--noEmit false`, `--watch=false`) is off, as the tool reads it: it satisfies no `requires`.
      for (const name of taken.names) {
        if (taken.off) present.delete(name);
        else present.add(name);
      }
      i += taken.extra;
      continue;
    }
    operands.push(arg);
  }
  if (spec.requires && !spec.requires.some((r) => present.has(r))) return `it lacks ${spec.requires.join(' or ')}`;
  if (operands.length === 0) return undefined;
  if (spec.operands === 'none' || spec.operands === undefined) return `\`${operands[0]}\`: this command takes no operands under a rule`;
  if (spec.operandsOnlyWith && !spec.operandsOnlyWith.some((o) => present.has(o))) return `\`${operands[0]}\` would create or change something`;
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) return `\`${operands[spec.maxOperands]}\`: a further operand is written to`;
  const patternGiven = spec.firstGivenBy?.some((o) => present.has(o)) ?? false;
  for (let k = 0; k < operands.length; k++) {
    const kind = k === 0 && spec.first && !patternGiven ? spec.first : spec.operands;
    const problem = valueProblem(kind, operands[k]!, checkPath);
    if (problem) return problem;
  }
  return undefined;
}

/** The option names a word stands for (every letter of a cluster), how many following words it took as values, and whether it turned a flag off. */
type Taken = { names: string[]; extra: number; off?: boolean } | string;

const BOOLEAN = /^(true|false)$/;

/** A flag, with the `true`/`false` value the tool may read after it (`--watch=false`; `--noEmit false` where the tool takes one). */
function flagTaken(spec: ToolSpec, names: string[], attached: string | undefined, next: string | undefined): Taken {
  if (attached !== undefined) return BOOLEAN.test(attached) ? { names, extra: 0, off: attached === 'false' } : `\`${names[0]}\` takes no value`;
  if (spec.booleanValues && next !== undefined && BOOLEAN.test(next)) return { names, extra: 1, off: next === 'false' };
  return { names, extra: 0 };
}

function longOption(spec: ToolSpec, arg: string, rest: readonly string[], checkPath: PathCheck): Taken {
  const dashes = arg.startsWith('--') ? 2 : 1;
  const body = arg.slice(dashes);
  const eq = body.indexOf('=');
  const name = eq >= 0 ? body.slice(0, eq) : body;
  const shown = `${arg.slice(0, dashes)}${name}`;
  const option = Object.hasOwn(spec.long ?? {}, name) ? spec.long![name] : undefined;
  // find and go spell their options with one dash; a second dash is not modelled for them.
  if (!option || (spec.singleDash && dashes !== 1)) return `\`${shown}\` is not an option this rule knows`;
  if (option.value === undefined) return flagTaken(spec, [shown], eq >= 0 ? body.slice(eq + 1) : undefined, rest[0]);
  if (eq >= 0) return valueProblem(option.value, body.slice(eq + 1), checkPath) ?? { names: [shown], extra: 0 };
  if (option.optional) return { names: [shown], extra: 0 };
  return takeValues(option.value, shown, rest, checkPath);
}

function shortCluster(spec: ToolSpec, arg: string, rest: readonly string[], checkPath: PathCheck): Taken {
  const names: string[] = [];
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j]!;
    const option = Object.hasOwn(spec.short ?? {}, letter) ? spec.short![letter] : undefined;
    const name = `-${letter}`;
    if (!option) return `\`${name}\` is not an option this rule knows`;
    names.push(name);
    if (option.value === undefined) {
      if (j === arg.length - 1) return flagTaken(spec, names, undefined, rest[0]);
      continue;
    }
    const attached = arg.slice(j + 1);
    if (attached !== '') return valueProblem(option.value, attached, checkPath) ?? { names, extra: 0 };
    if (option.optional) return { names, extra: 0 };
    const taken = takeValues(option.value, name, rest, checkPath);
    return typeof taken === 'string' ? taken : { names, extra: taken.extra };
  }
  return { names, extra: 0 };
}

/** An option's value(s) from the following words (jq's --arg takes two). */
function takeValues(kind: ValueKind | readonly ValueKind[], name: string, rest: readonly string[], checkPath: PathCheck): Taken {
  const kinds: readonly ValueKind[] = typeof kind === 'string' ? [kind] : kind;
  for (let k = 0; k < kinds.length; k++) {
    const value = rest[k];
    if (value === undefined) return `\`${name}\` is missing its value`;
    const problem = valueProblem(kinds[k]!, value, checkPath);
    if (problem) return problem;
  }
  return { names: [name], extra: kinds.length };
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/|^[\w.-]+@[\w.-]+:|^[\w-]+(\.[\w-]+)+:[^/]/i;

/** Why a value is not of its kind, or undefined. */
function valueProblem(kind: ValueKind | readonly ValueKind[], value: string, checkPath: PathCheck): string | undefined {
  if (typeof kind !== 'string') return takeValuesInline(kind, value);
  switch (kind) {
    case 'number':
      return /^[+-]?\d+[A-Za-z]{0,2}$/.test(value) ? undefined : `\`${value}\` is not a number`;
    case 'text':
      return undefined;
    case 'name':
      return /^[\w@.:+/,-]+$/.test(value) && !value.startsWith('-') && !URL_LIKE.test(value) && !value.split('/').includes('..') ? undefined : `\`${value}\` is not a plain name`;
    case 'jq':
      return jqProgramProblem(value);
    case 'package':
      return /^\.\.?(\/|$)/.test(value) ? checkPath(value.replace(/\/\.\.\.$/, '') || '.') : `\`${value}\` is not a package path in the workspace (./…)`;
    case 'path':
    case 'ref':
      if (URL_LIKE.test(value)) return `\`${value}\` names another host`;
      if (value.startsWith('-')) return `\`${value}\` looks like an option`;
      return checkPath(kind === 'ref' ? value.replace(/^[^:/]*:(?!\/)/, (m) => (/^[\w.^~@{}-]*:$/.test(m) ? '' : m)) : value);
  }
}

/** A two-value option written with `=` (`--arg=x`) is not how its tool reads it. */
function takeValuesInline(kinds: readonly ValueKind[], value: string): string {
  return `\`${value}\`: this option takes ${kinds.length} separate values`;
}

/** Arguments forwarded to a test runner: only those in FORWARDED. */
function forwardedProblem(args: readonly string[], checkPath: PathCheck): string | undefined {
  const separator = args.indexOf('--');
  const own = separator >= 0 ? [...args.slice(0, separator), ...args.slice(separator + 1)] : args;
  const problem = unknownArgument({ ...FORWARDED, afterDashDash: 'operands' }, own, checkPath);
  return problem ? `${problem} (passed on to the test runner)` : undefined;
}

const KIND_WORDS: Record<ValueKind, string> = {
  number: 'a number',
  text: 'text',
  name: 'a plain name',
  path: 'a path in the workspace',
  ref: 'a revision or a path in the workspace',
  jq: 'a jq program of fields, literals, operators and safe builtins',
  package: 'a package folder in the workspace (./…)',
};

/** The table as markdown, for docs/permissions.md (kept true by test/unit/project/docTables.test.ts). */
export function knownToolsMarkdown(): string {
  const optionText = (spec: ToolSpec): string => {
    const dash = spec.singleDash ? '-' : '--';
    const names = [...Object.keys(spec.short ?? {}).map((letter) => `-${letter}`), ...Object.keys(spec.long ?? {}).map((name) => `${dash}${name}`)];
    return names.length === 0 ? 'none' : names.map((n) => `\`${n}\``).join(' ');
  };
  const operandText = (spec: ToolSpec): string => {
    if (spec.forwardsAll) return 'only what a test runner may take (below)';
    const parts: string[] = [];
    if (spec.first) parts.push(`first ${KIND_WORDS[spec.first]}, then`);
    parts.push(spec.operands === undefined || spec.operands === 'none' ? 'none' : KIND_WORDS[spec.operands]);
    if (spec.maxOperands !== undefined) parts.push(`(at most ${spec.maxOperands})`);
    if (spec.operandsOnlyWith) parts.push(`only with ${spec.operandsOnlyWith.map((o) => `\`${o}\``).join(' or ')}`);
    if (spec.afterDashDash === 'forwarded') parts.push('; after `--` only what a test runner may take');
    if (spec.requires) parts.push(`; needs ${spec.requires.map((o) => `\`${o}\``).join(' or ')}`);
    if (spec.responseFiles) parts.push('; no `@file` (the tool reads more arguments from it)');
    if (spec.booleanValues) parts.push('; a flag followed by `false` is off');
    return parts.join(' ').replace(' ;', ';');
  };
  const rows = Object.entries(KNOWN_TOOLS).map(([prefix, spec]) => {
    const shown = NAMED_RUNS.has(prefix) ? `${prefix} <script>` : prefix === 'make' ? 'make <target>' : prefix;
    return `- \`${shown} …\` — operands: ${operandText(spec)}. Options: ${spec.forwardsAll ? 'as below' : optionText(spec)}.`;
  });
  rows.push(`- *What a test runner may take* (after \`--\`, or anything after a yarn/pnpm script): ${optionText(FORWARDED)}, and paths in the workspace.`);
  return rows.join('\n');
}
