// The repository's root, found from the running bundle (out/test/unit/<folder…>/x.js) whatever its depth.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'esbuild.mjs'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no repository root above ${from}`);
  }
}

export const ROOT = findRoot(__dirname);
