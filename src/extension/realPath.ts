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
