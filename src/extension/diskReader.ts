// Reads the workspace's files for the permission card and the offered rules (what a runner runs,
// what a tsconfig writes): small regular files only, synchronously, as realPath.ts resolves paths.
// No 'vscode' import.
import * as fs from 'node:fs';
import type { FileSystemReader } from '../broker/permissions/workspaceFiles';

/** Larger files are not read: a package.json, a Makefile or a tsconfig is far smaller. */
const MAX_BYTES = 256 * 1024;

export const diskReader: FileSystemReader = {
  readFile(absolute) {
    try {
      // Only a regular file: a FIFO named package.json would block the extension host.
      const stat = fs.statSync(absolute);
      return stat.isFile() && stat.size <= MAX_BYTES ? fs.readFileSync(absolute, 'utf8') : undefined;
    } catch {
      return undefined;
    }
  },
  listFolder(absolute) {
    try {
      return fs.readdirSync(absolute);
    } catch {
      return undefined;
    }
  },
  // A stat, not a listing: asked on every shell command's decision, whatever the folder holds.
  canList(absolute) {
    try {
      fs.accessSync(absolute, fs.constants.R_OK | fs.constants.X_OK);
      return fs.statSync(absolute).isDirectory();
    } catch {
      return false;
    }
  },
};
