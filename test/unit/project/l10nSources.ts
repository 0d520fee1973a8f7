// Finds the messages the code translates: every vscode.l10n.t(…) in src/extension, every l10n.t(…)
// in src/agents (each agent's texts, given vscode.l10n) and every t(…) / tParts(…) in src/webview,
// by their first argument, which must be a string literal.
import { readdirSync, readFileSync } from 'node:fs';
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

/** The messages translated in the .ts files of `folder` (relative to the root), subfolders included. */
export function translatedMessages(folder: 'src/extension' | 'src/agents' | 'src/webview'): Found {
  const found: Found = { messages: new Set(), dynamic: [] };
  const call = CALL[folder === 'src/webview' ? 'webview' : 'extension'];
  for (const file of readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(ROOT, folder, file), 'utf8');
    for (const match of text.matchAll(call)) {
      const at = match.index + match[0].length;
      // A definition (`function t(message…`) is not a call.
      if (/function\s+$/.test(text.slice(Math.max(0, match.index - 10), match.index))) continue;
      const literal = new RegExp(`^(?:${STRING})`).exec(text.slice(at))?.[0];
      if (literal) found.messages.add(decode(literal));
      else found.dynamic.push(`${folder}/${file}:${text.slice(0, at).split('\n').length}`);
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
