// The folder a tool call runs in, and the git repository that folder belongs to. Relative paths are
// placed against the agent's own folder (its hook's `cwd`, moved by the call's `cwd` or `workdir`),
// never against the first workspace folder by default: an agent started in the home folder reads
// `.ssh/id_rsa` from the home folder. Pure: the file system is asked through the PathContext.
import type { NewPermissionRequest } from '../broker';
import type { CommandContext } from './shell/commandRules';
import { isUnderFolder, normalizePath, placeOf, realWorkspaceFolders, samePath, type PathContext } from './toolPaths';

/** Input keys that name the folder a call runs in (compared in lower case, without `_` and `-`). */
const FOLDER_KEYS = new Set(['cwd', 'workdir', 'workingdirectory']);

/**
 * The folder a call runs in, absolute: the input's `cwd` or `workdir` against the agent's folder,
 * else the agent's folder. '' when it cannot be told (two such keys, a value that is not a string,
 * a relative folder with the agent's unknown). Undefined when neither the agent nor the input names
 * one: the caller is inside VS Code, and the first workspace folder stands for it.
 */
export function callFolder(agentFolder: string | undefined, input: Record<string, unknown>, context: PathContext): string | undefined {
  const keys = Object.keys(input).filter((key) => FOLDER_KEYS.has(key.toLowerCase().replace(/[_-]/g, '')) && input[key] !== undefined && input[key] !== null);
  const base = agentFolder === undefined ? undefined : normalizePath(agentFolder, undefined, context.home);
  if (keys.length === 0) return base;
  const value = keys.length === 1 ? input[keys[0]!] : undefined;
  if (typeof value !== 'string') return '';
  return normalizePath(value, base ?? context.workspaceFolders[0], context.home);
}

/** The path context for one request: the folder its call runs in, when it names one. */
export function contextFor(request: NewPermissionRequest, context: PathContext): PathContext {
  const cwd = request.toolCall?.cwd;
  return cwd === undefined ? context : { ...context, folder: cwd };
}

/** The folder holding `folder` ('/' for '/'). */
const parentFolder = (folder: string) => folder.replace(/\/[^/]*$/, '') || '/';

/**
 * The folder git takes as the repository's top when run in `folder` (absolute, resolved): the first
 * folder up from it that holds `.git` (a folder or a file) or is a bare repository. Undefined when
 * none is found or the context cannot look (no `isRepositoryTop`).
 */
export function repositoryTop(folder: string, context: PathContext): string | undefined {
  if (!context.isRepositoryTop || !folder) return undefined;
  for (let current = folder; ;) {
    if (context.isRepositoryTop(current)) return current;
    const parent = parentFolder(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Whether `<name>` is in `node_modules/.bin` of `folder` or of a parent up to the workspace folder holding it (never above). */
function hasLocalBin(name: string, folder: string, roots: readonly string[], context: PathContext): boolean {
  for (let current = folder; context.hasBinIn && roots.some((root) => isUnderFolder(current, root, context));) {
    if (context.hasBinIn(current, name)) return true;
    const parent = parentFolder(current);
    if (parent === current) return false;
    current = parent;
  }
  return false;
}

/** Where a command's paths resolve, which repository its git commands use, what its globs match and which tools npx finds, as the command rules ask. */
export function commandPlaces(context: PathContext): Required<Pick<CommandContext, 'classify'>> & Pick<CommandContext, 'repository' | 'expandGlob' | 'hasLocalBin'> {
  const roots = realWorkspaceFolders(context);
  return {
    classify: (path, from) => placeOf(path, context, from),
    ...(context.expandGlob ? { expandGlob: context.expandGlob } : {}),
    ...(context.hasBinIn ? { hasLocalBin: (name: string, folder: string) => hasLocalBin(name, folder, roots, context) } : {}),
    // Without a way to look (unit tests, older callers), git is taken to work on the workspace's repository.
    ...(context.isRepositoryTop
      ? {
          repository: (folder: string) => {
            const top = repositoryTop(folder, context);
            return top === undefined ? undefined : { top, isWorkspaceFolder: roots.some((root) => samePath(root, top, context)) };
          },
        }
      : {}),
  };
}
