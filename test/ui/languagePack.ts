// The test-only language pack for a display language (test/fixtures/language-pack-<locale>): VS Code
// runs in a language only when a pack for it is installed, and the marketplace's packs are out of
// reach here. It translates nothing of VS Code; the extension's own bundles do the rest.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { installExtension } from '../harness/codeServer.mjs';

const ROOT = join(__dirname, '..', '..', '..');

interface Localization {
  languageId: string;
  languageName: string;
  localizedLanguageName?: string;
  translations: Array<{ id: string; path: string }>;
}

/**
 * Installs the pack into the profile under `stateDir`, and records it in the profile's
 * languagepacks.json as VS Code does when a pack is installed in a running window: the command-line
 * install that tests use does not, and the server reads only that file to pick a display language.
 */
export function installLanguagePack(stateDir: string, locale: string): void {
  const folder = join(ROOT, 'test', 'fixtures', `language-pack-${locale}`);
  const vsix = join(ROOT, 'out', `agent-questions-language-pack-${locale}.vsix`);
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const vsce = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: folder,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  installExtension({ stateDir, vsix });

  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    publisher: string;
    name: string;
    version: string;
    contributes: { localizations: Localization[] };
  };
  const id = `${manifest.publisher}.${manifest.name}`;
  const installed = join(stateDir, 'extensions', `${id}-${manifest.version}`);
  // The same entry VS Code's language pack cache writes (src/vs/platform/languagePacks/node/languagePacks.ts).
  const packs = Object.fromEntries(
    manifest.contributes.localizations.map((l) => [
      l.languageId,
      {
        hash: createHash('md5').update(id).update(manifest.version).digest('hex'),
        extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
        translations: Object.fromEntries(l.translations.map((t) => [t.id, join(installed, t.path)])),
        label: l.localizedLanguageName ?? l.languageName,
      },
    ]),
  );
  writeFileSync(join(stateDir, 'user-data', 'languagepacks.json'), JSON.stringify(packs));
}
