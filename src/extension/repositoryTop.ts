// How git finds a repository, as far as the permission rules need it (agentFolder.ts walks up with
// this): a folder is a repository's top when it holds `.git` or is a bare repository. No `vscode`
// import, so unit tests use it as the extension does.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isBareRepository } from './realPath';

/** Whether git takes a folder as a repository's top: it holds `.git` (a folder, or a file naming one), or looks like a bare repository. */
export function isRepositoryTop(folder: string): boolean {
  return existsSync(join(folder, '.git')) || isBareRepository(folder);
}
