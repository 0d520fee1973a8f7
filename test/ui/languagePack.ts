// The test-only language pack for a display language (test/fixtures/language-pack-<locale>), as a
// .vsix: VS Code runs in a language only when a pack for it is installed, and the marketplace's
// packs are out of reach here. It translates nothing of VS Code; the extension's own bundles do the rest.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

export function packageLanguagePack(locale: string): string {
  const folder = join(ROOT, 'test', 'fixtures', `language-pack-${locale}`);
  const out = join(ROOT, 'out', `agent-questions-language-pack-${locale}.vsix`);
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const vsce = require.resolve('@vscode/vsce/vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: folder, stdio: ['ignore', 'ignore', 'inherit'] });
  return out;
}
