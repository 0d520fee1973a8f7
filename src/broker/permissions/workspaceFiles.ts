// The workspace's files as the permission card reads them (what a runner runs, what a tsconfig
// writes): paths relative to the folder relative paths are placed against, never climbing out of it.
// The reading itself is injected (the extension reads the disk; tests pass a map).
import type { WorkspaceFiles } from './shell/runnerCode';

/** Reads a file or a folder's names by absolute path; undefined when missing or unreadable. `canList`: whether a folder could be listed, without listing it. */
export interface FileSystemReader {
  readFile(absolute: string): string | undefined;
  listFolder(absolute: string): readonly string[] | undefined;
  canList(absolute: string): boolean;
}

/**
 * The files under `folder`, or undefined without a folder or a reader, or when the folder cannot be
 * listed (then only the command line is read, as without a reader). A path that is absolute or
 * climbs out (`..`) reads nothing. Nothing is read until a command's card needs it: a workspace
 * root of thousands of names is not listed for a command that runs none of the workspace's code.
 */
export function workspaceFilesIn(folder: string | undefined, fs: FileSystemReader | undefined): WorkspaceFiles | undefined {
  if (folder === undefined || !fs || !fs.canList(folder)) return undefined;
  const inside = (relative: string): string | undefined => {
    const parts = relative.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
    if (/^([\\/~]|[a-zA-Z]:)/.test(relative) || parts.includes('..')) return undefined;
    return [folder.replace(/[\\/]+$/, ''), ...parts].join('/');
  };
  return {
    read: (relative) => {
      const path = inside(relative);
      return path === undefined ? undefined : fs.readFile(path);
    },
    list: (relative) => {
      const path = inside(relative);
      return path === undefined ? undefined : fs.listFolder(path);
    },
  };
}
