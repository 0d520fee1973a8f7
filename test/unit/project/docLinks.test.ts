// Links between the README, CONTRIBUTING.md and docs/ are followed by users: each file and heading
// they name must exist. So must every README section that the manifest, the settings' descriptions
// or the code send users to.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from './docTables';

const REPO = 'https://github.com/openoxide/agent-questions';
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown without its fenced code blocks (a `#` there is a comment, a `](` is code). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a markdown file has, numbered as GitHub numbers repeated headings. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && keep(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

suite('documentation links', () => {
  test('every relative link in the README, CONTRIBUTING.md and docs/ names a file and heading that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const [, target] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?|mailto):/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const linked = path === '' ? file : relative(ROOT, join(dirname(join(ROOT, file)), path));
        if (!existsSync(join(ROOT, linked))) broken.push(`${file}: ${target} (no file ${linked})`);
        else if (anchor !== undefined && linked.endsWith('.md') && !anchors(linked).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${linked})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  test('every source path the README, CONTRIBUTING.md and docs/ name in code spans exists (a moved file takes its mentions along)', () => {
    const missing: string[] = [];
    for (const file of DOCS) {
      for (const [, path] of prose(readFileSync(join(ROOT, file), 'utf8')).matchAll(/`((?:src|test|scripts|docs|media|l10n)\/[^`\s]*)`/g)) {
        // A pattern (`src/agents/<agent>/`, `*.test.ts`) names no one file.
        if (/[<>*{}…]/.test(path!)) continue;
        if (!existsSync(join(ROOT, path!.replace(/:.*$/, '')))) missing.push(`${file}: ${path}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  test('every link to a README section from the manifest, the settings, the walkthrough or the code names a heading the README has', () => {
    const readme = anchors('README.md');
    const manifests = readdirSync(ROOT).filter((name) => name === 'package.json' || /^package\.nls.*\.json$/.test(name));
    const sources = [...manifests, ...filesUnder('media', (name) => name.endsWith('.md')), ...filesUnder('src', (name) => name.endsWith('.ts'))];
    const broken: string[] = [];
    let links = 0;
    for (const file of sources) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, anchor] of text.matchAll(new RegExp(`${REPO.replace(/[./]/g, '\\$&')}(?:/blob/[^/]+/README\\.md)?#([\\w-]+)`, 'g'))) {
        links++;
        if (anchor !== 'readme' && !readme.has(anchor!)) broken.push(`${file}: #${anchor}`);
      }
      // A comment or message naming a README section by its title: "How Always allow decides" in the README.
      for (const [, title] of text.matchAll(/"([^"\n]+)" in the README/g)) {
        links++;
        if (!readme.has(slug(title!))) broken.push(`${file}: "${title}" in the README`);
      }
    }
    assert.ok(links >= 2, `found only ${links} links to README sections`);
    assert.deepEqual(broken, []);
  });
});
