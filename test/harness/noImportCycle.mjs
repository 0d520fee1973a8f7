// An ESLint rule: no import cycles between our files. Type-only imports count (a cycle of types
// still ties two files together, and the issue counts them), which is why this is not import-x's
// no-cycle: that rule skips `import type`. Relative imports only: a package cannot import us back.
import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** How a relative specifier may end on disk, first match wins (the bundler's order for ours). */
const ENDINGS = ['', '.ts', '.mts', '.mjs', '.js', '/index.ts'];

/** file -> its relative imports, re-read when the file changes (an editor keeps this process alive). */
const parsed = new Map();

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every relative import, export-from, import() and require() in a text, type-only ones too. */
function importsIn(file, text) {
  const imports = [];
  for (const { fileName, pos, end } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = resolve(dirname(file), fileName);
    const target = ENDINGS.map((ending) => base + ending).find(isFile);
    if (target) imports.push({ target, pos, end });
  }
  return imports;
}

function importsOf(file, checked) {
  if (checked.has(file)) return checked.get(file);
  let imports = [];
  try {
    const { mtimeMs } = statSync(file);
    const known = parsed.get(file);
    if (known?.mtimeMs === mtimeMs) imports = known.imports;
    else {
      imports = importsIn(file, readFileSync(file, 'utf8'));
      parsed.set(file, { mtimeMs, imports });
    }
  } catch {
    // Gone since it was imported: no edges.
  }
  const targets = [...new Set(imports.map((i) => i.target))];
  checked.set(file, targets);
  return targets;
}

/** The shortest import path from `start` back to `file`, or undefined (breadth-first). */
function pathBack(start, file, checked) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const at = queue.shift();
    if (at === file) {
      const path = [];
      for (let step = at; step !== undefined; step = cameFrom.get(step)) path.unshift(step);
      return path;
    }
    for (const next of importsOf(at, checked)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between our files, type-only imports included' },
    schema: [],
    messages: {
      cycle: 'Import cycle: {{cycle}}. Move what both files need into a file that neither imports back (type-only imports count).',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const source = context.sourceCode;
    // Each file's imports are read once per linted file, so an edit elsewhere is seen next time.
    const checked = new Map();
    return {
      'Program:exit'() {
        const imports = importsIn(file, source.text);
        checked.set(file, [...new Set(imports.map((i) => i.target))]);
        const reported = new Set();
        for (const { target, pos, end } of imports) {
          if (reported.has(target)) continue;
          reported.add(target);
          const path = pathBack(target, file, checked);
          if (!path) continue;
          const cycle = [file, ...path].map((p) => relative(context.cwd, p)).join(' -> ');
          context.report({ loc: { start: source.getLocFromIndex(pos), end: source.getLocFromIndex(end) }, messageId: 'cycle', data: { cycle } });
        }
      },
    };
  },
};
