// Agent text is hostile: characters that render as nothing (bidi overrides, zero-width and other
// format characters) are shown as markers, and text bound for VS Code's own UI (notifications,
// tree, status bar, quick picks, the log) loses link syntax, control characters and newlines.

/**
 * Characters that render as nothing or as a blank: every default-ignorable code point (format
 * characters, bidi controls, zero-width, the variation selectors of both blocks, the combining
 * grapheme joiner, Mongolian free variation selectors, fillers, tags), line and paragraph
 * separators, every space separator but the plain space (U+00A0, U+2000–U+200A, U+3000, …), and
 * U+2800 (Braille blank), U+17B4/U+17B5 and the musical format symbols. A command can hide its tail,
 * or a whole program, behind them.
 */
const INVISIBLE = /[\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800\u17B4\u17B5\u{1D159}\u{1D173}-\u{1D17A}]/u;
/** Control characters other than newline and tab (those the panel keeps in code). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
const MARK = /\p{M}/u;

/** Each character with whether it is invisible: the sets above, and a combining mark on nothing (at the start, after a blank or after a hidden character). */
function* charactersOf(text: string): Generator<[ch: string, invisible: boolean]> {
  let baseBefore = false;
  for (const ch of text) {
    const invisible: boolean = ch !== ' ' && (INVISIBLE.test(ch) || CONTROL.test(ch) || (MARK.test(ch) && !baseBefore));
    if (!MARK.test(ch) || invisible) baseBefore = !invisible && !/\s/u.test(ch);
    yield [ch, invisible];
  }
}

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The marker shown in place of an invisible character, or of a run of the same one (⟨U+2800 ×3000⟩). */
export const invisibleMarker = (ch: string, count = 1) => `⟨${codePoint(ch)}${count > 1 ? ` ×${count}` : ''}⟩`;

/** Printable ASCII, tab and newline: nothing hidden (the common case, told without a test per character). */
const PLAIN = /^[\t\n\x20-\x7E]*$/;

export function hasInvisible(text: string): boolean {
  if (PLAIN.test(text)) return false;
  for (const [, invisible] of charactersOf(text)) if (invisible) return true;
  return false;
}

/**
 * Splits text into visible runs and invisible characters, in order, for renderers that style
 * markers. A run of one invisible character is one part with its count, so 3,000 blanks take one
 * marker's width and cannot push what follows out of sight.
 */
export function splitInvisible(text: string): Array<{ text: string; invisible: boolean; count?: number }> {
  const parts: Array<{ text: string; invisible: boolean; count?: number }> = [];
  let run = '';
  for (const [ch, invisible] of charactersOf(text)) {
    if (invisible) {
      if (run) parts.push({ text: run, invisible: false });
      run = '';
      const last = parts[parts.length - 1];
      if (last?.invisible && last.text === ch) last.count = (last.count ?? 1) + 1;
      else parts.push({ text: ch, invisible: true });
    } else run += ch;
  }
  if (run) parts.push({ text: run, invisible: false });
  return parts;
}

/** The text as the panel shows it: each invisible character (or run of one) replaced by its marker. */
export function markInvisible(text: string): string {
  return splitInvisible(text)
    .map((part) => (part.invisible ? invisibleMarker(part.text, part.count) : part.text))
    .join('');
}

/** The invisible characters in a text, as code points ("U+202E"), each once, for a warning. */
export function invisibleCodePoints(text: string): string[] {
  return [
    ...new Set(
      splitInvisible(text)
        .filter((p) => p.invisible)
        .map((p) => codePoint(p.text)),
    ),
  ];
}

/** How many invisible characters a text carries, each of a run counted (a warning says how many markers to look for). */
export function invisibleCount(text: string): number {
  return splitInvisible(text).reduce((n, part) => n + (part.invisible ? (part.count ?? 1) : 0), 0);
}

/**
 * One line of agent text for VS Code's UI: control characters and newlines become spaces,
 * invisible characters become markers, link and codicon syntax is broken, and the length capped.
 */
export function uiText(text: string, max = 200): string {
  const line = markInvisible(text.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/gu, ' '))
    // "[label](command:…)" would become a link in a notification; "$(icon)" an icon in a quick pick.
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
