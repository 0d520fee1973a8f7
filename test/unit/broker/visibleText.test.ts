import * as assert from 'node:assert/strict';
import { hasInvisible, invisibleCodePoints, splitInvisible, uiText } from '../../../src/broker/visibleText';

suite('visible text (agent strings shown to the user)', () => {
  test('bidi overrides, zero-width characters and the BOM are found and named', () => {
    const text = 'rm -rf \u202Etxt.exe\u202C a\u200Bb \uFEFF';
    assert.equal(hasInvisible(text), true);
    assert.deepEqual(invisibleCodePoints(text), ['U+202E', 'U+202C', 'U+200B', 'U+FEFF']);
    assert.equal(hasInvisible('plain text, ünïcode, 数据库'), false);
  });

  test('prevents a control character in plain ASCII from passing as visible: each of the first 256 code points alone, and after plain text, is told as character by character', () => {
    for (let code = 0; code < 256; code++) {
      const ch = String.fromCharCode(code);
      const expected = splitInvisible(ch).some((part) => part.invisible);
      const name = `U+${code.toString(16).padStart(4, '0')}`;
      assert.equal(hasInvisible(ch), expected, name);
      assert.equal(hasInvisible(`git log ${ch}`), expected, `${name} after text`);
    }
    assert.equal(hasInvisible('git log\r--oneline'), true);
    assert.equal(hasInvisible('git log\t--oneline\n'), false);
  });

  test('splitting keeps every character, in order', () => {
    const parts = splitInvisible('a\u2066b\u2069c');
    assert.deepEqual(parts, [
      { text: 'a', invisible: false },
      { text: '\u2066', invisible: true },
      { text: 'b', invisible: false },
      { text: '\u2069', invisible: true },
      { text: 'c', invisible: false },
    ]);
    assert.equal(parts.map((p) => p.text).join(''), 'a\u2066b\u2069c');
  });

  test('prevents a command link in a notification: link syntax is broken', () => {
    const text = uiText('Read. [Answer](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)');
    assert.doesNotMatch(text, /\]\(/);
    assert.match(text, /\[Answer\] \(command:/);
  });

  test('prevents forged log lines: newlines and control characters become spaces', () => {
    assert.equal(uiText('Bash\n2026-01-01 [info] Always allowed\r\u001b[31m'), 'Bash 2026-01-01 [info] Always allowed [31m');
  });

  test('prevents codicon injection in quick picks and marks invisible characters', () => {
    assert.equal(uiText('$(loading~spin) Claude\u202E'), '$ (loading~spin) Claude⟨U+202E⟩');
  });

  test('caps the length', () => {
    const text = uiText('x'.repeat(500), 50);
    assert.equal(text.length, 50);
    assert.ok(text.endsWith('…'));
  });
});
