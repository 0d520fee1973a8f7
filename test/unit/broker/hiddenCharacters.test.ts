// Issue 41: every character that renders as nothing is marked wherever agent text is shown, and a
// command that carries one is always asked. The sets are generated from Unicode's properties, not
// listed by hand, so a code point the list forgot cannot slip through.
import * as assert from 'node:assert/strict';
import { hasInvisible, markInvisible, uiText } from '../../../src/broker/visibleText';
import { neverRemembered } from '../../../src/broker/permissions/permissionRules';
import type { NewPermissionRequest } from '../../../src/broker/broker';

/** Every code point with `property` (a \p{…} name), as strings. */
function everyCodePoint(property: RegExp): string[] {
  const found: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    if (property.test(ch)) found.push(ch);
  }
  return found;
}

const HIDDEN = everyCodePoint(/[\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\u034F\uFE00-\uFE0F\u{E0100}-\u{E01EF}\u180B-\u180D]/u);
const bash = (command: string): NewPermissionRequest => ({
  source: { type: 'mcp', label: 'Claude Code' },
  title: 'Claude Code wants to run a command',
  detail: command,
  toolCall: { tool: 'Bash', command, fields: [{ name: 'command', value: command }], warnings: [] },
});

/** The variation-selector payload of the issue: 33 selectors that decode to a program, between quotes that look empty. */
const PAYLOAD = `node -e "eval([...'${[...'require("fs").rmSync("x")'].map((c) => String.fromCodePoint(0xe0100 + c.charCodeAt(0))).join('')}'].map(c=>String.fromCharCode(c.codePointAt(0)-0xE0100)).join(''))"`;

suite('Hidden characters: marked everywhere, always asked', () => {
  test(`prevents a character that renders as nothing from showing as nothing: all ${HIDDEN.length} default-ignorable code points, line and paragraph separators and variation selectors are marked`, () => {
    assert.ok(HIDDEN.length > 4000, `only ${HIDDEN.length} code points generated`);
    const unmarked = HIDDEN.filter((ch) => !hasInvisible(`a${ch}b`) || markInvisible(`a${ch}b`).includes(ch));
    assert.deepEqual(
      unmarked.map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase()}`),
      [],
    );
    const leaked = HIDDEN.filter((ch) => uiText(`a${ch}b`).includes(ch));
    assert.equal(leaked.length, 0, `uiText kept ${leaked.length} of them`);
  });

  test('prevents the variation-selector payload from looking like an empty string: each of its selectors is marked', () => {
    const shown = markInvisible(PAYLOAD);
    assert.doesNotMatch(shown, /\[\.\.\.''\]/);
    assert.equal(shown.match(/⟨U\+E01[0-9A-F]{2}⟩/g)?.length, 'require("fs").rmSync("x")'.length);
    assert.equal(hasInvisible(PAYLOAD), true);
  });

  test('prevents a rule from deciding a command that carries a hidden character: each one is always asked', () => {
    const asked = HIDDEN.filter((ch) => neverRemembered(bash(`ls${ch} src`)));
    assert.equal(asked.length, HIDDEN.length);
    assert.equal(neverRemembered(bash(PAYLOAD)), true);
  });

  test('prevents combining marks on nothing from hiding: a mark with no base is marked, a mark on a letter is kept', () => {
    assert.equal(hasInvisible('ls \u0301\u0301\u0301 src'), true);
    assert.equal(hasInvisible('\u0300x'), true);
    assert.equal(hasInvisible('café, naïve, e\u0301'), false);
    assert.equal(markInvisible('e\u0301'), 'e\u0301');
  });

  test('ordinary text in any script is left alone', () => {
    for (const text of ['plain text', 'ünïcode 数据库 русский עברית العربية हिन्दी ไทย', 'tab\tand\nnewline']) assert.equal(hasInvisible(text), false, text);
  });
});
