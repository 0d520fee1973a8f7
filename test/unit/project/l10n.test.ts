import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_MESSAGES } from '../../../src/broker/contract/panelMessages';
import { panelTranslatedMessages, readJson, ROOT, translatedMessages } from './l10nSources';

const placeholders = (text: string) => [...new Set(text.match(/\{\d+\}/g) ?? [])].sort();
/** Every translation of a bundle beside its English one (`bundle.l10n.json` → `bundle.l10n.zh-cn.json`, …). */
const translationsOf = (folder: string, base: RegExp) =>
  readdirSync(join(ROOT, folder))
    .filter((f) => base.test(f))
    .map((f) => join(folder, f));

function assertSameKeys(english: Record<string, string>, translated: Record<string, string>, name: string): void {
  const missing = Object.keys(english).filter((k) => !(k in translated));
  const extra = Object.keys(translated).filter((k) => !(k in english));
  assert.deepEqual(missing, [], `${name} lacks these keys`);
  assert.deepEqual(extra, [], `${name} has keys the English bundle does not`);
  for (const [key, text] of Object.entries(translated)) {
    assert.ok(typeof text === 'string' && text.trim() !== '', `${name}: "${key}" is empty`);
    assert.deepEqual(placeholders(text), placeholders(english[key]!), `${name}: "${key}" must keep its placeholders`);
  }
}

suite('localization', () => {
  const bundle = readJson('l10n/bundle.l10n.json');
  const extension = translatedMessages('src/extension');
  const agents = translatedMessages('src/agents');
  const webview = panelTranslatedMessages();

  test('the English bundle maps each message to itself', () => {
    for (const [key, text] of Object.entries(bundle)) assert.equal(text, key);
  });

  test('every vscode.l10n.t message in src/extension and src/agents is in the English bundle', () => {
    assert.ok(extension.messages.size > 50, `found only ${extension.messages.size} messages: is the scanner broken?`);
    assert.deepEqual(
      [...extension.messages].filter((m) => !(m in bundle)),
      [],
    );
    // Each agent's configuration says where it goes (src/agents/*/…Config.ts).
    assert.ok(agents.messages.size >= 3, `found only ${agents.messages.size} messages in src/agents: is the scanner broken?`);
    assert.deepEqual(
      [...agents.messages].filter((m) => !(m in bundle)),
      [],
    );
    assert.deepEqual(agents.dynamic, [], 'every l10n.t() call in src/agents takes a string literal');
    // The one call with a variable message translates the panel's list, checked below.
    assert.deepEqual(
      extension.dynamic.map((at) => at.replace(/:\d+$/, '')),
      ['src/extension/questionPanelView.ts'],
    );
  });

  test("the panel's messages are exactly those its sources use, and each is in the English bundle", () => {
    assert.deepEqual(webview.dynamic, [], "every t() call in the panel's sources takes a string literal");
    assert.deepEqual([...webview.messages].sort(), [...PANEL_MESSAGES].sort());
    assert.deepEqual(
      PANEL_MESSAGES.filter((m) => !(m in bundle)),
      [],
    );
  });

  test('the English bundle holds no message the code no longer uses', () => {
    const used = new Set([...extension.messages, ...agents.messages, ...PANEL_MESSAGES]);
    assert.deepEqual(
      Object.keys(bundle).filter((k) => !used.has(k)),
      [],
    );
  });

  test('every l10n bundle has every key of the English one, with the same placeholders', () => {
    const translations = translationsOf('l10n', /^bundle\.l10n\.[\w-]+\.json$/);
    assert.ok(translations.includes(join('l10n', 'bundle.l10n.zh-cn.json')), 'the Simplified Chinese bundle exists');
    for (const file of translations) assertSameKeys(bundle, readJson(file), file);
  });

  test('every package.nls translation has every key of package.nls.json, with the same placeholders', () => {
    const english = readJson('package.nls.json');
    const translations = translationsOf('.', /^package\.nls\.[\w-]+\.json$/);
    assert.ok(translations.includes(join('.', 'package.nls.zh-cn.json')), 'the Simplified Chinese manifest strings exist');
    for (const file of translations) assertSameKeys(english, readJson(file), file);
  });
});
