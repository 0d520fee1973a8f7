// What a runner will run, read from the workspace's own files: package.json's script, the first
// lines of a make recipe, the configuration files the tool loads; and what tsc writes, read from
// its tsconfig. The card and the offered rule name it (a runner rule allows whatever that code does,
// now and after every edit). Pure: the files come through a reader the caller passes (the extension
// reads the disk, tests pass a fake); no `vscode`.
import { runnerFor } from './runners';

/** The workspace's files as seen from the folder a command runs in. */
export interface WorkspaceFiles {
  /** A file's text by its path relative to that folder; undefined when missing, unreadable, too large or outside the workspace. */
  read(relative: string): string | undefined;
  /** The names in a folder ('.': the folder itself), or undefined. */
  list(relative: string): readonly string[] | undefined;
}

const shortText = (text: string, max = 80) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
const quoted = (text: string) => `\`${shortText(text.replace(/\s+/g, ' ').trim())}\``;

/** npm's, yarn's and pnpm's ways to run a script, by the script they run (undefined: the operand names it). */
const SCRIPT_SUBS: Readonly<Record<string, string | undefined>> = {
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
  run: undefined,
  'run-script': undefined,
  rum: undefined,
  urn: undefined,
};

/**
 * What of this workspace's code a command runs, as a phrase for "Runs this workspace's code: …",
 * or undefined when it is not a runner (or, for git, when the repository sets no fsmonitor).
 */
export function workspaceCodeOf(name: string, sub: string | undefined, args: readonly string[], files: WorkspaceFiles | undefined): string | undefined {
  if (/^(npm|yarn|pnpm)$/.test(name) && sub !== undefined && Object.hasOwn(SCRIPT_SUBS, sub)) return packageScript(args, sub, files);
  const runner = runnerFor(`${name} ${sub ?? ''}`);
  if (!runner) return undefined;
  if (name === 'make') return makeRecipes(args, files) ?? runner.runs;
  // git's global options (-C, --git-dir, -c) point it at another repository or configuration.
  if (name === 'git') return args[0] === sub ? fsmonitor(files) : runner.runs;
  const loaded = presentFiles(runner.decidedBy, files);
  return loaded.length ? `${runner.runs} (it loads ${loaded.join(', ')})` : runner.runs;
}

/** The script `npm test` (or `npm run <name>`) runs, with npm's pre and post scripts. */
function packageScript(args: readonly string[], sub: string, files: WorkspaceFiles | undefined): string {
  const operands = args.filter((a) => !a.startsWith('-'));
  const script = SCRIPT_SUBS[sub] ?? operands[1];
  if (script === undefined) return "package.json's scripts";
  const scripts = packageScripts(files);
  if (!scripts) return `package.json's ${script} script`;
  const run = [`pre${script}`, script, `post${script}`].filter((s) => typeof scripts[s] === 'string');
  if (!run.includes(script)) return `package.json's scripts (it has no ${script} script)`;
  return `${run.map((s) => quoted(scripts[s] as string)).join(', ')} (package.json's ${run.join(', ')} script${run.length > 1 ? 's' : ''})`;
}

function packageScripts(files: WorkspaceFiles | undefined): Record<string, unknown> | undefined {
  const text = files?.read('package.json');
  if (text === undefined) return undefined;
  try {
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  } catch {
    return undefined;
  }
}

/** make's options that take a value in the next word (`-f FILE`, `-C DIR`). */
const MAKE_VALUES = new Set([
  '-f',
  '-C',
  '-I',
  '-o',
  '-W',
  '--file',
  '--makefile',
  '--directory',
  '--include-dir',
  '--old-file',
  '--what-if',
  '--new-file',
  '--assume-old',
  '--assume-new',
]);

/** The first lines of the recipe of each target make is asked for (the first target when none is named). */
function makeRecipes(args: readonly string[], files: WorkspaceFiles | undefined): string | undefined {
  const targets: string[] = [];
  let makefile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const file = /^(?:-f|--file=|--makefile=)(.+)$/.exec(arg);
    if (file) makefile = file[1];
    else if (arg === '-f' || arg === '--file' || arg === '--makefile') makefile = args[++i];
    // Another folder (-C) or an include path: what runs is not read here.
    else if (/^(-C|--directory|-I|--include-dir)/.test(arg)) return undefined;
    else if (MAKE_VALUES.has(arg)) i++;
    else if (!arg.startsWith('-') && !arg.includes('=')) targets.push(arg);
  }
  const name = makefile ?? ['GNUmakefile', 'makefile', 'Makefile'].find((f) => files?.read(f) !== undefined);
  const text = name !== undefined ? files?.read(name) : undefined;
  if (name === undefined || text === undefined) return undefined;
  const rules = makeRules(text);
  const first = rules.find((r) => !r.target.startsWith('.') && !r.target.includes('%'))?.target;
  const wanted = targets.length ? targets : first !== undefined ? [first] : [];
  // A rule may come from an included makefile, not read here.
  if (wanted.length === 0 || (wanted.some((t) => !rules.some((r) => r.target === t)) && /^\s*-?s?include\s/m.test(text))) return undefined;
  return wanted
    .map((target) => {
      const rule = rules.find((r) => r.target === target && r.recipe.length) ?? rules.find((r) => r.target === target);
      if (!rule) return `the ${name}'s ${target} rule, which it does not have (make's built-in rules)`;
      const shown = rule.recipe.slice(0, 2).map(quoted);
      const more = rule.recipe.length > 2 ? ` and ${rule.recipe.length - 2} more line${rule.recipe.length > 3 ? 's' : ''}` : '';
      const after = rule.prerequisites.length ? `, after ${shortText(rule.prerequisites.join(' '), 40)}` : '';
      return `${shown.length ? shown.join(', ') : 'no recipe'}${more} (the ${name}'s ${target} recipe${after})`;
    })
    .join('; ');
}

interface MakeRule {
  target: string;
  prerequisites: string[];
  recipe: string[];
}

/** A makefile's explicit rules, each target apart, with its recipe lines (continuations joined). */
function makeRules(text: string): MakeRule[] {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const rules: MakeRule[] = [];
  let current: MakeRule[] = [];
  for (const line of lines) {
    if (line.startsWith('\t')) {
      if (line.trim() && !line.trim().startsWith('#')) for (const rule of current) rule.recipe.push(line.trim());
      continue;
    }
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const match = /^([^:=#]+?)\s*::?(?!=)([^;]*)(?:;(.*))?$/.exec(line);
    current = [];
    if (!match || /^\s*(export|override|define|ifn?eq|ifn?def|else|endif|include|-include|sinclude|vpath)\b/.test(line)) continue;
    const prerequisites = match[2]!.split(/\s+/).filter(Boolean);
    for (const target of match[1]!.trim().split(/\s+/)) {
      const rule: MakeRule = { target, prerequisites, recipe: match[3]?.trim() ? [match[3].trim()] : [] };
      rules.push(rule);
      current.push(rule);
    }
  }
  return rules;
}

/** The repository's core.fsmonitor program (git status and git diff run it), or undefined when .git/config sets none. */
function fsmonitor(files: WorkspaceFiles | undefined): string | undefined {
  const config = files?.read('.git/config');
  if (config === undefined) return "the repository's core.fsmonitor program, if set";
  let section = '';
  for (const line of config.split(/\r?\n/)) {
    const header = /^\s*\[\s*([^\]\s"]+)/.exec(line);
    if (header) section = header[1]!.toLowerCase();
    const entry = /^\s*fsmonitor\s*=\s*(.*)$/i.exec(line);
    if (section === 'core' && entry && !/^(false|no|off|0)?$/i.test(entry[1]!.trim())) return `${quoted(entry[1]!)} (the repository's core.fsmonitor)`;
    // An include brings settings from elsewhere: fsmonitor may be set there.
    if (section === 'include' || section === 'includeif') return "the repository's core.fsmonitor program, if set";
  }
  return undefined;
}

/** Which of a runner's configuration files are in the folder (`*` any run of characters in one name, a trailing `/` a folder). */
function presentFiles(patterns: readonly string[], files: WorkspaceFiles | undefined): string[] {
  const names = files?.list('.');
  if (!names) return [];
  const regexes = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/\/$/, '')
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')}$`,
      ),
  );
  return names.filter((n) => regexes.some((r) => r.test(n))).sort();
}

// ----- tsc -----

/** What tsc writes: files named (relative to the folder it runs in), and why other writes are not known. */
export interface TscWrites {
  writes: string[];
  unknown: string[];
}

/**
 * What `tsc <args>` writes. tsc reads a boolean option's next word when it is `true` or `false`
 * (`--noEmit false` emits), and writes a build-info file under `incremental`, `composite` or
 * `tsBuildInfoFile` even with `--noEmit`. Without a reader only the command line is read.
 */
export function tscWrites(args: readonly string[], files: WorkspaceFiles | undefined): TscWrites {
  const result: TscWrites = { writes: [], unknown: [] };
  const options = new Map<string, string | boolean>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    // tsc's option names ignore case; `-p` is `--project`, `-b` is `--build`.
    const name = ({ p: 'project', b: 'build' } as Record<string, string>)[arg.replace(/^-+/, '')] ?? arg.replace(/^-+/, '').toLowerCase();
    const next = args[i + 1];
    if (TSC_VALUES.has(name)) options.set(name, next ?? '');
    else options.set(name, next === 'false' ? false : true);
    if (TSC_VALUES.has(name) || next === 'true' || next === 'false') i++;
  }
  if (options.get('build')) return { writes: [], unknown: ['tsc --build writes what each project it builds says'] };
  const fromLine = (key: string) => options.get(key);
  // Files on the command line: tsc ignores tsconfig.json.
  const config = operands.length ? undefined : tsconfigOf(typeof fromLine('project') === 'string' ? (fromLine('project') as string) : undefined, files);
  if (config && 'unknown' in config) {
    result.unknown.push(config.unknown);
    return result;
  }
  const set = (key: string): string | boolean | undefined => fromLine(key) ?? config?.options[key];
  // Options from a tsconfig are already placed relative to where tsc runs.
  const text = (key: string) => (typeof set(key) === 'string' ? (set(key) as string) : undefined);
  const outDir = text('outdir');
  const outFile = text('outfile');
  if (set('noemit') !== true) {
    if (outDir !== undefined || outFile !== undefined) result.writes.push(...[outDir, outFile].filter((p): p is string => p !== undefined));
    else result.unknown.push('tsc writes its output beside the sources it compiles');
  }
  const buildInfo = text('tsbuildinfofile');
  if (buildInfo !== undefined) result.writes.push(buildInfo);
  else if (set('incremental') === true || set('composite') === true) {
    const base = config ? config.name.replace(/\.json$/, '') : 'tsconfig';
    result.writes.push(joinPath(outDir ?? config?.folder ?? '.', `${base}.tsbuildinfo`));
  }
  return result;
}

/** tsc options that take the next word as their value (the ones read here, and the ones that name files). */
const TSC_VALUES = new Set(
  [
    'project',
    'outDir',
    'outFile',
    'tsBuildInfoFile',
    'declarationDir',
    'rootDir',
    'rootDirs',
    'baseUrl',
    'target',
    'module',
    'lib',
    'moduleResolution',
    'moduleDetection',
    'jsx',
    'jsxFactory',
    'jsxFragmentFactory',
    'jsxImportSource',
    'types',
    'typeRoots',
    'locale',
    'generateTrace',
    'generateCpuProfile',
    'mapRoot',
    'sourceRoot',
    'newLine',
    'maxNodeModuleJsDepth',
    'customConditions',
    'ignoreDeprecations',
    'watchFile',
    'watchDirectory',
    'fallbackPolling',
  ].map((n) => n.toLowerCase()),
);

interface Tsconfig {
  /** Its file name and folder, relative to where tsc runs. */
  name: string;
  folder: string;
  /** compilerOptions with what it extends, names in lower case; file options placed relative to where tsc runs. */
  options: Record<string, string | boolean>;
}

/** The tsconfig tsc reads (the -p one, a folder's tsconfig.json, or ./tsconfig.json), or why what it sets is not known. */
function tsconfigOf(project: string | undefined, files: WorkspaceFiles | undefined): Tsconfig | { unknown: string } | undefined {
  if (!files) return undefined;
  // -p names a file or a folder holding tsconfig.json.
  const path = project === undefined ? 'tsconfig.json' : /\.json$/i.test(project) || files.read(project) !== undefined ? project : joinPath(project, 'tsconfig.json');
  // Not there: a -p project stops tsc; without -p it looks in the folders above, outside the workspace, where the agent's writes are asked.
  const slash = path.lastIndexOf('/');
  if (files.list(slash < 0 ? '.' : path.slice(0, slash))?.includes(path.slice(slash + 1)) === false) return undefined;
  const options: Record<string, string | boolean> = {};
  const problem = readTsconfig(path, files, options, 0);
  if (problem) return { unknown: problem };
  return { name: path.slice(slash + 1), folder: slash < 0 ? '.' : path.slice(0, slash), options };
}

/** Options that name a file or folder: relative to the tsconfig that sets them. */
const TSC_PATH_OPTIONS = new Set(['outdir', 'outfile', 'tsbuildinfofile', 'declarationdir']);

/** Reads a tsconfig and what it extends into `options` (a file's own settings win over what it extends); why not, when it cannot. */
function readTsconfig(path: string, files: WorkspaceFiles, options: Record<string, string | boolean>, depth: number): string | undefined {
  if (depth > 8) return `${path} extends too deeply to be read here`;
  const text = files.read(path);
  // tsc looks for tsconfig.json in the folders above too: outside what is read here.
  if (text === undefined) return `tsc reads ${path}, which is not readable here: it may write where that says`;
  const parsed = parseJsonc(text);
  if (!parsed) return `tsc reads ${path}, which could not be read as JSON here`;
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';
  const raw = typeof parsed.compilerOptions === 'object' && parsed.compilerOptions !== null ? (parsed.compilerOptions as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(raw)) {
    const name = key.toLowerCase();
    if (Object.hasOwn(options, name) || (typeof value !== 'string' && typeof value !== 'boolean')) continue;
    options[name] = typeof value === 'string' && TSC_PATH_OPTIONS.has(name) ? joinPath(folder, value) : value;
  }
  const parents: unknown[] = parsed.extends === undefined ? [] : Array.isArray(parsed.extends) ? parsed.extends : [parsed.extends];
  // In an extends array the later file wins: read it first.
  for (const parent of parents.reverse()) {
    if (typeof parent !== 'string') return `${path} extends something not read here`;
    const problem = readTsconfig(extendedPath(folder, parent), files, options, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/** Where `extends` leads: a relative file, or a package's file under ./node_modules (the only one read here). */
function extendedPath(folder: string, spec: string): string {
  const withJson = (p: string) => (p.endsWith('.json') ? p : `${p}.json`);
  if (/^\.\.?\//.test(spec)) return withJson(joinPath(folder, spec));
  if (/^([\\/~]|[a-zA-Z]:)/.test(spec)) return spec;
  return `node_modules/${spec.endsWith('.json') ? spec : `${spec}/tsconfig.json`}`;
}

/** JSON with comments and trailing commas, as tsconfig files are written. */
function parseJsonc(text: string): Record<string, unknown> | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      const end = /"(?:[^"\\]|\\.)*"/y;
      end.lastIndex = i;
      const match = end.exec(text);
      if (!match) return undefined;
      out += match[0];
      i += match[0].length - 1;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
    } else {
      out += char;
    }
  }
  try {
    const value: unknown = JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A path relative to a folder, `.` and `x/..` folded (an absolute or ~ path stays as it is). */
function joinPath(folder: string, path: string): string {
  if (/^([\\/~]|[a-zA-Z]:)/.test(path)) return path;
  const parts: string[] = [];
  for (const part of `${folder}/${path}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length && parts[parts.length - 1] !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/') || '.';
}
