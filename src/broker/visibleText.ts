// Agent text is hostile: characters that render as nothing (bidi overrides, zero-width and other
// format characters) are shown as markers, and text bound for VS Code's own UI (notifications,
// tree, status bar, quick picks, the log) loses link syntax, control characters and newlines.

/**
 * Format characters (bidi controls, zero-width, BOM, …), fillers and blanks other than the plain
 * space: every space separator (U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000), the Hangul
 * fillers, U+2800 (Braille blank), U+17B4/U+17B5 and the musical format symbols. All render as
 * nothing or as a space, so a command can hide its tail behind them.
 */
const INVISIBLE = /[\p{Cf}\p{Zs}\u115F\u1160\u3164\uFFA0\u2800\u17B4\u17B5\u{1D159}\u{1D173}-\u{1D17A}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
const isInvisible = (ch: string) => ch !== ' ' && (INVISIBLE.test(ch) || CONTROL.test(ch));
/** Control characters other than newline and tab (those the panel keeps in code). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The marker shown in place of an invisible character, or of a run of the same one (⟨U+2800 ×3000⟩). */
export const invisibleMarker = (ch: string, count = 1) => `⟨${codePoint(ch)}${count > 1 ? ` ×${count}` : ''}⟩`;

export function hasInvisible(text: string): boolean {
  for (const ch of text) if (isInvisible(ch)) return true;
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
  for (const ch of text) {
    if (isInvisible(ch)) {
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

/**
 * One line of agent text for VS Code's UI: control characters and newlines become spaces,
 * invisible characters become markers, link and codicon syntax is broken, and the length capped.
 */
export function uiText(text: string, max = 200): string {
  const line = text
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/gu, ' ')
    .replace(INVISIBLE_ALL, (ch) => (ch === ' ' ? ch : invisibleMarker(ch)))
    // "[label](command:…)" would become a link in a notification; "$(icon)" an icon in a quick pick.
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
