// Finds the messages the code translates: every vscode.l10n.t(…) in src/extension, every l10n.t(…)
// in src/agents (each agent's texts, given vscode.l10n) and every t(…) / tParts(…) in the panel's
// sources (src/webview and the broker files that take the panel's t), by their first argument,
// which must be a string literal.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/repoRoot';

export { ROOT };

const STRING = String.raw`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\`(?:[^\`\\$]|\\.)*\``;
const CALL = {
  extension: /\bl10n\.t\(\s*/g,
  webview: /(?<![\w$])(?<![\w$)\]]\.)(?:t|tParts)\(\s*/g,
};

export interface Found {
  messages: Set<string>;
  /** Calls whose message is not a literal: `file:line`. */
  dynamic: string[];
}

/** Broker files shared with the extension that translate with a `t` they are given (the panel's, or vscode.l10n.t). */
const PANEL_SHARED = ['src/broker/contract/decidedByText.ts'];

/** The panel's messages: those of src/webview and of the broker files it shares with the extension. */
export function panelTranslatedMessages(): Found {
  const all = ['src/webview', ...PANEL_SHARED].map((path) => translatedMessages(path, 'webview'));
  return { messages: new Set(all.flatMap((found) => [...found.messages])), dynamic: all.flatMap((found) => found.dynamic) };
}

/** The messages translated in the .ts files of `path` (relative to the root; a folder, subfolders included, or one file). */
export function translatedMessages(path: string, kind: keyof typeof CALL = 'extension'): Found {
  const found: Found = { messages: new Set(), dynamic: [] };
  const call = CALL[kind];
  const files = statSync(join(ROOT, path)).isFile()
    ? [path]
    : readdirSync(join(ROOT, path), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(path, f));
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(call)) {
      const at = match.index + match[0].length;
      // A definition (`function t(message…`) is not a call.
      if (/function\s+$/.test(text.slice(Math.max(0, match.index - 10), match.index))) continue;
      const literal = new RegExp(`^(?:${STRING})`).exec(text.slice(at))?.[0];
      if (literal) found.messages.add(decode(literal));
      else found.dynamic.push(`${file}:${text.slice(0, at).split('\n').length}`);
    }
  }
  return found;
}

/** A TypeScript string literal's value (the literal comes from our own sources). */
function decode(literal: string): string {
  const body = literal.slice(1, -1);
  return JSON.parse(`"${body.replace(/\\(.)|"/g, (m: string, escaped?: string) => (escaped === undefined ? '\\"' : escaped === "'" || escaped === '`' ? escaped : m))}"`) as string;
}

export function readJson(path: string): Record<string, string> {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as Record<string, string>;
}
