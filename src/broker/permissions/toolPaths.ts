// The paths a tool call touches and where each one really is: in the workspace, outside it, or in
// a protected file (agent and editor configuration, Git's folder, shell start-up files, what
// decides what a runner runs or what an agent believes: writing those is how an agent raises its
// own permissions or runs code, so no rule covers them). Paths
// are found by key name and by how a value looks, folded (`//`, `.`, `..`, `~`, `file:` URIs) and
// resolved through symlinks when the caller can. Pure: no file system here (the caller passes
// `realPath`), so the module stays safe for any bundle.

import { RUNNERS } from './shell/runners';

/** What placeOf needs to know about this machine. */
export interface PathContext {
  workspaceFolders: readonly string[];
  /**
   * The folder relative paths are against: where the agent runs the call (absolute); '' when it is
   * not known (relative paths then cannot be placed). Absent: the first workspace folder.
   */
  folder?: string;
  /** Whether git takes this folder (absolute, resolved) as a repository's top: it holds `.git` or is a bare repository. */
  isRepositoryTop?: (folder: string) => boolean;
  /** The user's home folder. */
  home?: string;
  /** VS Code's User folder: settings.json, keybindings.json, tasks.json, mcp.json, prompts/, extension state. */
  userSettingsFolder?: string;
  /** Compare paths case-insensitively (macOS and Windows file systems). */
  caseInsensitive?: boolean;
  /** Whether a real folder holds a bare Git repository (`HEAD`, `objects/`, `refs/`, or two of them): protected like `.git`. */
  isBareRepository?: (folder: string) => boolean;
  /**
   * Resolves the existing components of an absolute path through symlinks (synchronously), the
   * missing tail kept. Returns '' when it cannot tell (a symlink loop): the path is then outside.
   */
  realPath?: (absolute: string) => string;
  /**
   * The paths bash may give for a plain glob (`src/*.ts`) run in `folder` (absolute, resolved), as
   * bash writes them; undefined when it cannot tell (too many, unreadable). Without it, globs are asked.
   */
  expandGlob?: (pattern: string, folder: string) => string[] | undefined;
  /** Whether `<folder>/node_modules/.bin/<name>` exists (this one folder): `npx <name>` then runs it without downloading. */
  hasBinIn?: (folder: string, name: string) => boolean;
}

/** Where a path is. `resolved` is the absolute real path ('' when the path cannot be resolved). */
export interface PathPlace {
  place: 'workspace' | 'outside' | 'protected';
  resolved: string;
  /** For a protected path: what it is, for the warning. */
  what?: string;
  /** A protected path only guarded against writes (what decides what runs or what an agent believes): reading it may be covered. */
  readable?: true;
}

// ---------------------------------------------------------------------------------------------
// Finding paths in an input

/** A key that names a path: path, file, dir, folder, cwd, root, pattern(s), glob, in any case and spelling. */
const PATH_KEY = /path|file|dir|folder|cwd|root|pattern|glob/i;
/** Short key names that name a path when they are the whole key (move_file's source and destination, a link's target…). */
const PATH_NAMES = new Set(['to', 'from', 'src', 'source', 'sources', 'dest', 'dst', 'destination', 'target', 'targets', 'uri', 'uris', 'location', 'output', 'out']);
/** Keys whose values are text to write or read, never a path: their values are not guessed at (Write's content starting with "/**"). */
const CONTENT_KEYS = new Set([
  'content',
  'contents',
  'oldstring',
  'newstring',
  'text',
  'body',
  'description',
  'message',
  'prompt',
  'query',
  'code',
  'diff',
  'patch',
  'explanation',
  'title',
]);
export const MAX_DEPTH = 8;

const keyName = (key: string) => key.toLowerCase().replace(/[_-]/g, '');
const isPathKey = (key: string) => PATH_KEY.test(key) || PATH_NAMES.has(keyName(key));
const isWebUrl = (value: string) => /^https?:/i.test(value);
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Whether a string value, whatever its key, is a path. Precisely: no control characters (so
 * never multi-line text), at most 4,096 characters, and one of
 *   - a `file:` URI;
 *   - rooted or explicitly relative: starts with `/` (not `//` or `/*`, comment openers), `\`,
 *     `./`, `../`, `~/`, a drive letter and a slash (`C:\`), or is `~`, `.` or `..` (spaces
 *     allowed: "Application Support");
 *   - a single word (no whitespace) holding `/` or `\` (`x/y`, `.git/hooks/pre-commit`);
 *   - a single word that names protected configuration by itself (`.mcp.json`, `.git`).
 * Any other URL (`https:`, `mailto:`, `vscode-remote:`) is not a path.
 */
export function looksLikePath(value: string): boolean {
  if (!value || value.length > 4096 || CONTROL.test(value)) return false;
  if (/^file:/i.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]+:/i.test(value)) return false;
  if (/^(~|\.{1,2})$/.test(value) || /^(\/(?![/*\s])|\\|\.{1,2}[\\/]|~[\\/]|[a-z]:[\\/])/i.test(value)) return true;
  if (/\s/.test(value)) return false;
  return /[\\/]/.test(value) || protectedTarget(value) !== undefined;
}

/**
 * Every path in an input, in order, each once: every string under a path-like key (PATH_KEY, or a
 * whole key in PATH_NAMES; http(s) URLs left out), every string anywhere that looksLikePath (but
 * under CONTENT_KEYS), and object keys that look like paths (`{ files: { "a/b.ts": … } }`).
 * Arrays count at any depth. Nesting deeper than MAX_DEPTH is not read: see tooDeep.
 */
export function pathsIn(input: Record<string, unknown>): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key: string | undefined, depth: number) => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      const underPathKey = key !== undefined && isPathKey(key);
      const underContent = key !== undefined && CONTENT_KEYS.has(keyName(key));
      if (underPathKey ? value.trim() && !isWebUrl(value) : !underContent && looksLikePath(value)) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item, key, depth + 1);
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, item] of Object.entries(value)) {
        if (depth > 0 && looksLikePath(name) && (/[\\/]/.test(name) || protectedTarget(name) !== undefined)) found.push(name);
        visit(item, name, depth + 1);
      }
    }
  };
  visit(input, undefined, 0);
  return [...new Set(found)];
}

/** Whether an input nests deeper than pathsIn reads: its paths cannot all be checked, so no rule decides it. */
export function tooDeep(input: unknown, depth = 0): boolean {
  if (typeof input !== 'object' || input === null) return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.values(input).some((item) => tooDeep(item, depth + 1));
}

// ---------------------------------------------------------------------------------------------
// Protected configuration

type Where = 'anywhere' | 'home' | 'userSettings';

/** One entry of the protected set. `readable`: only writing it is guarded (see PROTECTED). */
interface Protected {
  where: Where;
  pattern: RegExp;
  what: string;
  readable?: true;
}

/** A pattern for a name of shell/runners.ts (`*` within one name, a trailing `/` a folder), at any depth, lower case. */
function nameAnywhere(name: string): RegExp {
  const body = name
    .replace(/\/$/, '')
    .toLowerCase()
    .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*');
  return new RegExp(`(^|/)${body}${name.endsWith('/') ? '(/|$)' : '$'}`);
}

/** What decides what each runner runs, one entry a name, named for the first runner that loads it. */
function runnerConfiguration(): Protected[] {
  const runnerOf = new Map<string, string>();
  for (const [key, runner] of Object.entries(RUNNERS)) for (const name of runner.decidedBy) if (!runnerOf.has(name)) runnerOf.set(name, key);
  return [...runnerOf].map(([name, key]) => ({
    where: 'anywhere',
    pattern: nameAnywhere(name),
    what: `the configuration that decides what ${key} runs (${name})`,
    readable: true,
  }));
}

/**
 * Configuration that grants permissions or runs code. `anywhere`: the pattern matches the path at
 * any depth (in the workspace, its sub-folders, the home folder, elsewhere), as the lower-case
 * path with forward slashes. `home`: relative to the home folder (or a path written `~/…`).
 * `userSettings`: VS Code's User folder, whole. Always matched case-insensitively (fail closed);
 * the first entry that matches decides. `readable` entries decide what a runner runs or what an
 * agent believes at its next start: only writing them is guarded, so a shell command that reads
 * them (`jq .version package.json`) can still be covered; a tool call that names them is asked,
 * as we cannot tell a tool that reads from one that writes. ~/.npmrc holds registry tokens: all
 * of it is guarded, before the workspace's .npmrc below.
 */
const PROTECTED: readonly Protected[] = [
  { where: 'anywhere', pattern: /(^|\/)\.git(\/|$)/, what: "Git's folder (.git: hooks and configuration run code)" },
  { where: 'anywhere', pattern: /(^|\/)\.vscode(\/|$)/, what: "VS Code's workspace settings, tasks or launch configurations (.vscode/)" },
  { where: 'anywhere', pattern: /(^|\/)[^/]*\.code-workspace$/, what: 'a VS Code workspace file (its settings)' },
  { where: 'anywhere', pattern: /(^|\/)\.claude(\/|\.json$|$)/, what: "Claude Code's settings and hooks (.claude/, .claude.json)" },
  { where: 'anywhere', pattern: /(^|\/)\.codex(\/|$)/, what: "Codex's configuration and hooks (.codex/)" },
  { where: 'anywhere', pattern: /(^|\/)\.opencode(\/|$)/, what: "OpenCode's configuration and plugins (.opencode/)" },
  { where: 'anywhere', pattern: /(^|\/)opencode\.jsonc?$/, what: "OpenCode's configuration (opencode.json)" },
  { where: 'anywhere', pattern: /(^|\/)\.(cursor|gemini)(\/|$)/, what: "Cursor's or Gemini's configuration, rules and MCP servers (.cursor/, .gemini/)" },
  { where: 'anywhere', pattern: /(^|\/)\.mcp\.json$/, what: 'MCP servers an agent starts (.mcp.json)' },
  { where: 'anywhere', pattern: /(^|\/)\.github\/(hooks|instructions)(\/|$)/, what: "GitHub Copilot's agent hooks or instructions (.github/hooks/, .github/instructions/)" },
  { where: 'anywhere', pattern: /(^|\/)\.github\/(.+\/)?([^/]*\.instructions\.md|copilot-instructions\.md)$/, what: "GitHub Copilot's instructions (.github/*.instructions.md)" },
  // Without the User folder known (or in a command's words): its files by their usual place.
  {
    where: 'anywhere',
    pattern: /(^|\/)user\/((settings|keybindings|tasks|mcp)\.json$|(prompts|globalstorage|workspacestorage)(\/|$))/,
    what: "VS Code's user settings folder (settings, keybindings, tasks, MCP servers, extension state)",
  },
  {
    where: 'home',
    pattern: /^\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|inputrc)$/,
    what: 'a shell start-up file (it runs in every new shell)',
  },
  { where: 'home', pattern: /^\.config\/fish(\/|$)/, what: "fish's start-up configuration (~/.config/fish/)" },
  { where: 'home', pattern: /^\.ssh(\/|$)/, what: 'your SSH keys and authorized keys (~/.ssh/)' },
  { where: 'home', pattern: /^(\.gitconfig$|\.config\/git(\/|$))/, what: 'your Git configuration (it can run code in every repository)' },
  { where: 'home', pattern: /^\.npmrc$/, what: "npm's user configuration (~/.npmrc: script-shell runs code in every npm run)" },
  { where: 'home', pattern: /^\.config\/opencode(\/|$)/, what: "OpenCode's user configuration (~/.config/opencode/)" },
  { where: 'userSettings', pattern: /^/, what: "VS Code's user settings folder (settings, keybindings, tasks, MCP servers, extension state)" },
  {
    where: 'anywhere',
    pattern: /(^|\/)((claude(\.local)?|agents(\.override)?|gemini)\.md$|\.github\/(prompts|agents|chatmodes)(\/|$))/,
    what: "an agent's instructions (CLAUDE.md, AGENTS.md, GEMINI.md, .github/prompts/, agents/, chatmodes/: later sessions follow them)",
    readable: true,
  },
  {
    where: 'anywhere',
    pattern: /(^|\/)(\.(husky|githooks)(\/|$)|\.pre-commit-config\.ya?ml$|\.?lefthook(-local)?\.(ya?ml|json|jsonc|toml)$)/,
    what: 'Git hooks (.husky/, .githooks/, .pre-commit-config.yaml, lefthook.yml: they run at your next commit)',
    readable: true,
  },
  {
    where: 'anywhere',
    pattern: /(^|\/)(\.github\/workflows(\/|$)|\.devcontainer(\/|\.json$|$))/,
    what: 'CI workflows or a dev container (.github/workflows/, .devcontainer/: they run code with its secrets or on your machine)',
    readable: true,
  },
  ...runnerConfiguration(),
];

const BARE_REPOSITORY = 'a bare Git repository (HEAD, objects/, refs/: its config and hooks run code, as in .git)';

const slashes = (path: string) => path.replace(/\\/g, '/');

/** The path relative to `folder` (both absolute, forward slashes), or undefined when it is not inside; '' when equal. */
function relativeTo(path: string, folder: string, caseInsensitive: boolean): string | undefined {
  const [p, f] = caseInsensitive ? [path.toLowerCase(), folder.toLowerCase()] : [path, folder];
  const root = f.endsWith('/') ? f : `${f}/`;
  if (p === f || p === root.slice(0, -1)) return '';
  return p.startsWith(root) ? path.slice(root.length) : undefined;
}

/** The protected entry an absolute, folded path falls in (home and the User folder from the context). */
function protectedAt(path: string, context: Pick<PathContext, 'home' | 'userSettingsFolder'>): Protected | undefined {
  if (!path) return undefined;
  const lower = path.toLowerCase();
  const home = context.home ? normalizePath(context.home) : '';
  const user = context.userSettingsFolder ? normalizePath(context.userSettingsFolder) : '';
  const inHome = home ? relativeTo(lower, home.toLowerCase(), false) : undefined;
  const inUser = user ? relativeTo(lower, user.toLowerCase(), false) : undefined;
  return PROTECTED.find((p) => (p.where === 'anywhere' ? p.pattern.test(lower) : p.where === 'home' ? inHome !== undefined && p.pattern.test(inHome) : inUser !== undefined));
}

/** The protected entry a path falls in, read as written: patterns at any depth, home files written `~/…`, `$HOME/…`, `${HOME}/…`. */
function protectedAsWritten(path: string): Protected | undefined {
  const text = slashes(path.trim()).toLowerCase();
  const home = /^(~|\$home|\$\{home\})\/(.*)$/.exec(text)?.[2];
  return PROTECTED.find((p) => (p.where === 'anywhere' ? p.pattern.test(text) : p.where === 'home' && home !== undefined && p.pattern.test(home)));
}

/** What a path is, when it is protected configuration, read as written (no context). */
export function protectedTarget(path: string): string | undefined {
  return protectedAsWritten(path)?.what;
}

/** Whether a real path is a folder holding a bare repository or inside one, when the context can tell. */
function inBareRepository(path: string, context: PathContext): boolean {
  if (!context.isBareRepository) return false;
  for (let folder = path; ; folder = parentOf(folder)) {
    if (context.isBareRepository(folder)) return true;
    if (parentOf(folder) === folder) return false;
  }
}

/**
 * The protected files a text names anywhere, every file guarded even against reading (a shell
 * command's words, say): inside any word, however written — as written (`~/`, `$HOME/`,
 * `${HOME}/`), absolute under the home folder, relative to `cwd` (default: the first workspace
 * folder), or starting inside a word (`-f/home/me/.ssh/x`, `print > "$HOME/.bashrc"` in a program).
 * A file only guarded against writes is found by the command's write analysis instead.
 */
export function protectedMentions(
  text: string,
  context: PathContext = { workspaceFolders: [] },
  cwd: string | undefined = context.folder ?? context.workspaceFolders[0],
): string[] {
  const home = context.home ? normalizePath(context.home).toLowerCase() : '';
  const markers = ['~/', '$home/', '${home}/', ...(home ? [`${home.replace(/\/$/, '')}/`] : [])];
  const found = new Set<string>();
  for (const word of text.split(/[\s'"`=;&|<>(),]+/)) {
    const lower = slashes(word).toLowerCase();
    const starts = new Set([0]);
    for (const marker of markers) for (let i = lower.indexOf(marker, 1); i > 0; i = lower.indexOf(marker, i + 1)) starts.add(i);
    for (const start of starts) {
      const spelling = word.slice(start);
      const hit = protectedAsWritten(spelling) ?? protectedAt(normalizePath(spelling, cwd, context.home), context);
      if (hit && !hit.readable) found.add(hit.what);
    }
  }
  return [...found];
}

// ---------------------------------------------------------------------------------------------
// Folding and placing paths

const GLOB = /[*?[\]{}]/;
const DRIVE = /^[a-zA-Z]:\//;

/** An absolute path with forward slashes (not folded yet), or undefined when the text is no usable path. */
function absoluteOf(path: string, cwd: string | undefined, home: string | undefined): string | undefined {
  if (!path || path !== path.trim() || CONTROL.test(path)) return undefined;
  let p = path;
  if (/^file:/i.test(p)) {
    // file:///x and file://localhost/x; another host is a network share: not placed.
    const uri = /^file:\/\/([^/]*)(\/[^?#]*)$/i.exec(p);
    if (!uri || (uri[1] !== '' && uri[1]!.toLowerCase() !== 'localhost')) return undefined;
    try {
      p = decodeURIComponent(uri[2]!);
    } catch {
      return undefined;
    }
    if (CONTROL.test(p)) return undefined;
    if (/^\/[a-zA-Z]:\//.test(p)) p = p.slice(1);
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(p) && !/^[a-z]:[\\/]/i.test(p)) {
    return undefined;
  }
  p = slashes(p);
  if (p.startsWith('~')) {
    if (!home || !/^~(\/|$)/.test(p)) return undefined;
    p = `${slashes(home)}${p.slice(1)}`;
  }
  if (p.startsWith('/') || DRIVE.test(p)) return p;
  if (/^[a-zA-Z]:/.test(p) || cwd === undefined) return undefined;
  const base = absoluteOf(cwd, undefined, home);
  return base === undefined ? undefined : `${base}/${p}`;
}

/** Splits an absolute path into its root ('/' or 'C:/') and its components. */
function rootAndParts(absolute: string): { root: string; parts: string[] } {
  const root = DRIVE.test(absolute) ? `${absolute.slice(0, 2).toUpperCase()}/` : '/';
  return { root, parts: absolute.slice(root.length).split('/') };
}

const join = (folder: string, name: string) => (folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`);
const parentOf = (path: string) => {
  const { root, parts } = rootAndParts(path);
  return `${root}${parts.filter(Boolean).slice(0, -1).join('/')}`;
};

/**
 * A path made absolute with `//`, `.` and `..` folded, as text (no symlinks): relative paths
 * against `cwd`, `~` and `~/x` against `home`, `file:` URIs decoded, backslashes as slashes,
 * no trailing slash. Returns '' when the text is no usable path: empty, padded with blanks, a
 * control character, `~user`, `~` without a home, a relative path without a `cwd`, a URL of
 * another scheme or host.
 */
export function normalizePath(path: string, cwd?: string, home?: string): string {
  const absolute = absoluteOf(path, cwd, home);
  if (absolute === undefined) return '';
  const { root, parts } = rootAndParts(absolute);
  const kept: string[] = [];
  for (const part of parts) {
    if (part === '..') kept.pop();
    else if (part !== '.' && part !== '') kept.push(part);
  }
  return `${root}${kept.join('/')}`;
}

/** A normalised path through the context's realPath ('' stays ''; a realPath that cannot tell gives ''). */
function real(path: string, context: PathContext): string {
  if (!path || !context.realPath) return path;
  const resolved = context.realPath(path);
  return resolved ? normalizePath(resolved) : '';
}

const insideAny = (path: string, roots: readonly string[], caseInsensitive: boolean) => roots.some((root) => relativeTo(path, root, caseInsensitive) !== undefined);

/** The workspace folders as real paths. */
export function realWorkspaceFolders(context: PathContext): string[] {
  return context.workspaceFolders.map((folder) => real(normalizePath(folder), context)).filter(Boolean);
}

/**
 * Where a path really is. Relative paths are against `cwd` (default: the context's folder, else the
 * first workspace folder; '' places none).
 * The path is folded and resolved through `realPath` component by component when it has `..`
 * (so `link/..` is the link target's parent, as the system reads it); a `..` that steps out of a
 * workspace folder makes the path `outside` even if the text comes back in. A glob pattern is
 * placed by its folder before the first glob character; with `..` or `~` after that, it cannot be
 * placed. A path that cannot be placed (empty, padded with blanks, `~user`, `~` without a home, a
 * control character, another URL scheme or host, a symlink loop) is `outside` with `resolved: ''`:
 * fail closed, no rule can name it. Protected wins over both: the text as written, folded, and
 * resolved are each checked.
 */
export function placeOf(path: string, context: PathContext, cwd: string | undefined = context.folder ?? context.workspaceFolders[0]): PathPlace {
  const { resolved, inside, found } = locate(path, context, cwd);
  if (found) return { place: 'protected', resolved, what: found.what, ...(found.readable ? { readable: found.readable } : {}) };
  return { place: inside ? 'workspace' : 'outside', resolved };
}

function locate(path: string, context: PathContext, cwd: string | undefined): { resolved: string; inside: boolean; found: Pick<Protected, 'what' | 'readable'> | undefined } {
  const caseInsensitive = context.caseInsensitive === true;
  const written = protectedAsWritten(path);
  const absolute = absoluteOf(path, cwd, context.home);
  const folded = absolute === undefined ? '' : normalizePath(absolute);
  const unplaced = () => ({ resolved: '', inside: false, found: written ?? protectedAt(folded, context) });
  if (absolute === undefined) return unplaced();
  const roots = realWorkspaceFolders(context);
  const { root, parts } = rootAndParts(absolute);
  const stepwise = parts.includes('..');
  let current = root;
  let left = false;
  let globbed: string[] | undefined;
  for (const part of parts) {
    if (globbed) {
      if (part.includes('..') || part.startsWith('~')) return unplaced();
      if (part !== '' && part !== '.') globbed.push(part);
    } else if (part === '' || part === '.') {
      continue;
    } else if (GLOB.test(part)) {
      globbed = [part];
    } else if (part === '..') {
      const wasInside = insideAny(current, roots, caseInsensitive);
      current = parentOf(current);
      if (wasInside && !insideAny(current, roots, caseInsensitive)) left = true;
    } else {
      current = join(current, part);
      if (stepwise) current = real(current, context);
      if (!current) return unplaced();
    }
  }
  if (!stepwise) current = real(current, context);
  if (!current) return unplaced();
  const resolved = globbed ? join(current, globbed.join('/')) : current;
  // An all-access entry wins over one only guarded against writes, whichever spelling finds it.
  const hits: Array<Pick<Protected, 'what' | 'readable'> | undefined> = [
    written,
    protectedAt(folded, context),
    protectedAt(resolved, context),
    inBareRepository(current, context) ? { what: BARE_REPOSITORY } : undefined,
  ];
  const found = hits.find((hit) => hit && !hit.readable) ?? hits.find(Boolean);
  return { resolved, inside: !left && insideAny(current, roots, caseInsensitive), found };
}

/** Whether two resolved paths are the same (case-insensitively when the context says so). */
export function samePath(a: string, b: string, context: PathContext): boolean {
  return context.caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** Whether a resolved path is `folder` or inside it (both absolute; case as the context says). */
export function isUnderFolder(path: string, folder: string, context: PathContext): boolean {
  return relativeTo(path, folder.replace(/\/+$/, '') || '/', context.caseInsensitive === true) !== undefined;
}

/** The folder of a path, with a trailing slash. */
export function folderOf(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return slash >= 0 ? path.slice(0, slash + 1) : './';
}

/** Whether a path (absolute, or relative to the first folder) stays inside one of the workspace folders, as text (no symlinks). */
export function isInside(path: string, workspaceFolders: readonly string[]): boolean {
  return locate(path, { workspaceFolders }, workspaceFolders[0]).inside;
}

/** A list of workspace folders read as a context (the signature earlier callers use). */
export function toPathContext(where: readonly string[] | PathContext): PathContext {
  return 'workspaceFolders' in where ? where : { workspaceFolders: where };
}
