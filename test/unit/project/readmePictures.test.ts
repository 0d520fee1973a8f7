import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/repoRoot';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const PICTURES = join(ROOT, 'media', 'readme');

suite('README pictures (media/readme, taken by npm run pictures)', () => {
  // The dark picture's address is absolute: vsce rewrites an <img src> for the Marketplace, not a <source srcset>.
  const pictures = [
    ...README.matchAll(
      /<picture>\s*<source media="\(prefers-color-scheme: dark\)" srcset="https:\/\/github\.com\/openoxide\/agent-questions\/raw\/HEAD\/media\/readme\/([\w-]+)-dark\.(png|webp)">\s*<img alt="([^"]*)" src="media\/readme\/([\w-]+)-light\.(png|webp)" width="\d+">\s*<\/picture>/g,
    ),
  ];

  test('each picture has a light and a dark version, at most 150 KB each, and meaningful alt text', () => {
    assert.ok(pictures.length >= 5, `the README shows the five pictures (found ${pictures.length})`);
    for (const [, dark, darkExt, alt, light, lightExt] of pictures) {
      assert.equal(dark, light, 'the light and dark sources are the same picture');
      for (const file of [`${dark}-dark.${darkExt}`, `${light}-light.${lightExt}`]) {
        assert.ok(existsSync(join(PICTURES, file)), `${file} is committed`);
        assert.ok(statSync(join(PICTURES, file)).size <= 150 * 1024, `${file} is at most 150 KB`);
      }
      assert.ok(alt!.length > 40, `the alt text of ${dark} says what the picture shows`);
    }
  });

  test('no picture in media/readme is left unreferenced', () => {
    const referenced = new Set(pictures.flatMap(([, dark, darkExt, , light, lightExt]) => [`${dark}-dark.${darkExt}`, `${light}-light.${lightExt}`]));
    assert.deepEqual(
      readdirSync(PICTURES).filter((f) => !referenced.has(f)),
      [],
    );
  });
});
