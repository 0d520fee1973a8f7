// Agent text is hostile: characters that render as nothing (bidi overrides, zero-width and other
// format characters) are shown as markers, and text bound for VS Code's own UI (notifications,
// tree, status bar, quick picks, the log) loses link syntax, control characters and newlines.

/** Format characters (bidi controls, zero-width, BOM, …) and fillers that render blank. */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
/** Control characters other than newline and tab (those the panel keeps in code). */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;

const codePoint = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The marker shown in place of an invisible character. */
export const invisibleMarker = (ch: string) => `⟨${codePoint(ch)}⟩`;

export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text) || CONTROL.test(text);
}

/** Splits text into visible runs and invisible characters, in order, for renderers that style markers. */
export function splitInvisible(text: string): Array<{ text: string; invisible: boolean }> {
  const parts: Array<{ text: string; invisible: boolean }> = [];
  let run = '';
  for (const ch of text) {
    if (INVISIBLE.test(ch) || CONTROL.test(ch)) {
      if (run) parts.push({ text: run, invisible: false });
      run = '';
      parts.push({ text: ch, invisible: true });
    } else run += ch;
  }
  if (run) parts.push({ text: run, invisible: false });
  return parts;
}

/** The text as the panel shows it: each invisible character replaced by its marker. */
export function markInvisible(text: string): string {
  return splitInvisible(text)
    .map((part) => (part.invisible ? invisibleMarker(part.text) : part.text))
    .join('');
}

/** The invisible characters in a text, as code points ("U+202E"), each once, for a warning. */
export function invisibleCodePoints(text: string): string[] {
  return [...new Set(splitInvisible(text).filter((p) => p.invisible).map((p) => codePoint(p.text)))];
}

/**
 * One line of agent text for VS Code's UI: control characters and newlines become spaces,
 * invisible characters become markers, link and codicon syntax is broken, and the length capped.
 */
export function uiText(text: string, max = 200): string {
  const line = text
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/gu, ' ')
    .replace(INVISIBLE_ALL, invisibleMarker)
    // "[label](command:…)" would become a link in a notification; "$(icon)" an icon in a quick pick.
    .replace(/\]\s*\(/g, '] (')
    .replace(/\$\(/g, '$ (')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}
