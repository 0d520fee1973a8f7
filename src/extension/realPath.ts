// Where a path really leads on this machine, for the permission rules: the longest existing part
// resolved through symlinks, the missing tail kept. A dangling symlink is followed to where a
// write would land; a loop gives '' (the rules then treat the path as outside). No 'vscode' import.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The most symlinks followed by hand (the system's own limit is 40). */
const MAX_LINKS = 40;

/** Resolves an absolute path through symlinks (synchronously); the part that does not exist yet is appended as written. */
export function realPathOf(absolute: string, links = 0): string {
  if (links > MAX_LINKS) return '';
  let head = absolute;
  const tail: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync.native(head);
      return tail.length ? path.join(real, ...tail.reverse()) : real;
    } catch {
      // A dangling symlink: a write through it lands at its target, so follow it.
      const target = readLink(head);
      if (target !== undefined) return realPathOf(path.join(path.resolve(path.dirname(head), target), ...[...tail].reverse()), links + 1);
      const parent = path.dirname(head);
      if (parent === head) return absolute;
      tail.push(path.basename(head));
      head = parent;
    }
  }
}

function readLink(file: string): string | undefined {
  try {
    return fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a folder holds a bare Git repository as git finds one (`HEAD`, `objects/`, `refs/`), or
 * two of the three: writing the third would make one, so it is guarded already.
 */
export function isBareRepository(folder: string): boolean {
  return ['HEAD', 'objects', 'refs'].filter((name) => fs.existsSync(path.join(folder, name))).length >= 2;
}

/** Whether the file system under `folder` ignores case: its name in the other case is the same file. */
export function ignoresCase(folder: string): boolean {
  const other = folder.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  if (other === folder) return process.platform !== 'linux';
  let a: fs.Stats;
  try {
    a = fs.statSync(folder);
  } catch {
    return process.platform !== 'linux';
  }
  try {
    const b = fs.statSync(other);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** The most paths one glob may expand to, and the most names read from one folder, before it is asked instead. */
const MAX_MATCHES = 1_000;
const MAX_NAMES = 10_000;

/**
 * The paths bash may give for a plain glob (`src/*.ts`, SubCommand.globs) run in `folder`, as bash
 * writes them (`src/a.ts`), sorted. A superset: hidden names and names in any case match too (a
 * shell with dotglob or nocaseglob set), and a part starting with `.` also matches `.` and `..`
 * (bash before 5.2). [] when nothing matches. Undefined when it cannot tell: `**` (globstar
 * recurses), an empty part, a bracket, a folder it cannot read, more than MAX_MATCHES paths
 * or MAX_NAMES names in a folder.
 */
export function expandGlob(pattern: string, folder: string): string[] | undefined {
  if (pattern.includes('**')) return undefined;
  const absolute = pattern.startsWith('/');
  const parts = (absolute ? pattern.slice(1) : pattern).split('/');
  if (parts.includes('')) return undefined;
  let found = [absolute ? '/' : ''];
  for (const [index, part] of parts.entries()) {
    const slash = index < parts.length - 1 ? '/' : '';
    if (!/[*?[]/.test(part)) {
      found = found.map((prefix) => `${prefix}${part}${slash}`);
      continue;
    }
    const matcher = globPart(part);
    if (!matcher) return undefined;
    const next: string[] = [];
    for (const prefix of found) {
      const names = namesIn(path.resolve(folder, prefix || '.'));
      if (names === undefined) return undefined;
      if (part.startsWith('.')) names.push('.', '..');
      for (const name of names) if (matcher.test(name)) next.push(`${prefix}${name}${slash}`);
      if (next.length > MAX_MATCHES) return undefined;
    }
    found = next;
  }
  return found.filter((match) => exists(path.resolve(folder, match))).sort();
}

/**
 * One part of a glob as a pattern, in any case: `*`, and `?` read as `*` (one character or one byte,
 * as the locale says: `*` matches both). Undefined for a bracket (`[a-z]` depends on the locale).
 */
function globPart(part: string): RegExp | undefined {
  if (part.includes('[')) return undefined;
  const source = part.replace(/[.+^$()|{}\\\]]/g, '\\$&').replace(/[*?]/g, '.*');
  return new RegExp(`^${source}$`, 'is');
}

/** The names in a folder (links followed, as bash does); [] when it is no folder; undefined when it cannot be read or holds too many. */
function namesIn(folder: string): string[] | undefined {
  let dir: fs.Dir;
  try {
    dir = fs.opendirSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? [] : undefined;
  }
  const names: string[] = [];
  try {
    for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
      if (names.length >= MAX_NAMES) return undefined;
      names.push(entry.name);
    }
  } catch {
    return undefined;
  } finally {
    dir.closeSync();
  }
  return names;
}

/** Whether a path exists, a dangling link included (bash lists it). */
function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Whether `<folder>/node_modules/.bin/<name>` is there (one folder; the caller walks up). */
export function hasBinIn(folder: string, name: string): boolean {
  return /^[\w.-]+$/.test(name) && fs.existsSync(path.join(folder, 'node_modules', '.bin', name));
}
