// Programs whose arguments are code the analysis cannot see, named once for the rules that never
// offer them a prefix (commandRules.ts) and for what a line is said to run (commandEffects.ts).

/** Shells: anything can follow. */
export const SHELLS: readonly string[] = [
  'sh',
  'bash',
  'zsh',
  'fish',
  'ksh',
  'mksh',
  'csh',
  'tcsh',
  'dash',
  'ash',
  'busybox',
  'pwsh',
  'powershell',
  'cmd',
  'nu',
  'xonsh',
  'elvish',
];

/** Interpreters and debuggers: they run whatever program they are given. */
export const CODE_RUNNERS: readonly string[] = [
  'python',
  'pypy',
  'pypy3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'ruby',
  'irb',
  'perl',
  'php',
  'lua',
  'luajit',
  'Rscript',
  'osascript',
  'tclsh',
  'wish',
  'java',
  'jshell',
  'groovy',
  'scala',
  'kotlin',
  'expect',
  'gdb',
  'lldb',
];

/** Editors that can run commands (`:!`, `M-x shell`). */
export const EDITORS: readonly string[] = ['vi', 'vim', 'nvim', 'ex', 'view', 'emacs'];
