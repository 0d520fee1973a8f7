// How git finds a repository, as far as the permission rules need it (agentFolder.ts walks up with
// this): a folder is a repository's top when it holds `.git` or is a bare repository. No `vscode`
// import, so unit tests use it as the extension does.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Whether git takes a folder as a repository's top: it holds `.git` (a folder, or a file naming one), or is a bare repository. */
export function isRepositoryTop(folder: string): boolean {
  const is = (name: string, kind: 'file' | 'folder') => {
    try {
      const stat = statSync(join(folder, name));
      return kind === 'file' ? stat.isFile() : stat.isDirectory();
    } catch {
      return false;
    }
  };
  return existsSync(join(folder, '.git')) || (is('HEAD', 'file') && is('objects', 'folder') && is('refs', 'folder'));
}
