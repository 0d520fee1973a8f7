// Which compiled test files of a layer's folder run: every *.test.js under it, subfolders included,
// or a part of them (`only` / `except` a list of names).
import { readdirSync } from 'node:fs';
import { sep } from 'node:path';

/**
 * `files`: only these test files, or every one but these when `except`. A name is a file's path
 * under the layer's folder without `.test.js` (`broker/policy`), or its base name alone (`policy`),
 * which names that file in whichever subfolder (and every file of that name, if several).
 */
export interface FileChoice {
  files: readonly string[];
  except: boolean;
}

/** The chosen test files' paths relative to `folder` (with the platform's separator), sorted. */
export function listTestFiles(folder: string, choice?: FileChoice): string[] {
  const all = readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort();
  if (!choice) return all;
  const names = (file: string) => {
    const path = file
      .split(sep)
      .join('/')
      .replace(/\.test\.js$/, '');
    return [path, path.slice(path.lastIndexOf('/') + 1)];
  };
  // A mistyped name must not quietly run nothing (only) or everything (except).
  const unknown = choice.files.filter((name) => !all.some((file) => names(file).includes(name)));
  if (unknown.length) throw new Error(`no test file named ${unknown.map((n) => `"${n}"`).join(', ')} in ${folder}`);
  return all.filter((file) => names(file).some((name) => choice.files.includes(name)) !== choice.except);
}
