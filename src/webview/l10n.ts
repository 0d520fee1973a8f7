// The panel's strings, translated by the host from the extension's l10n bundle (vscode.l10n.t)
// and embedded in the page once (see questionPanelView.ts). Without a table (English, or the
// unit tests in Node) the English message is the text.
import { PanelStringsSchema, PANEL_STRINGS_ELEMENT_ID } from '../broker/contract/protocol';
import type { PanelMessage } from '../broker/contract/panelMessages';

let table: Record<string, string> | undefined;

/** Read on first use, so that strings built while modules load are translated too. */
function strings(): Record<string, string> {
  if (table) return table;
  table = {};
  const text = typeof document === 'undefined' ? undefined : document.getElementById(PANEL_STRINGS_ELEMENT_ID)?.textContent;
  if (!text) return table;
  try {
    const parsed = PanelStringsSchema.safeParse(JSON.parse(text));
    if (parsed.success) table = parsed.data;
    else console.warn('Agent Questions: dropped a malformed strings table from the host');
  } catch {
    console.warn('Agent Questions: the strings table from the host is not JSON');
  }
  return table;
}

/** The translated message, with `{0}`, `{1}`, … replaced by `args` (as vscode.l10n.t does). */
export function t(message: PanelMessage, ...args: Array<string | number>): string {
  const text = strings()[message] ?? message;
  return args.length === 0 ? text : text.replace(/\{(\d+)\}/g, (match, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : match));
}

/** Like `t`, for a sentence around elements: the text split at its placeholders, each replaced by its argument. */
export function tParts(message: PanelMessage, ...args: Array<string | number | Node>): Array<string | Node> {
  return (strings()[message] ?? message)
    .split(/(\{\d+\})/)
    .filter((part) => part !== '')
    .map((part) => {
      const index = /^\{(\d+)\}$/.exec(part)?.[1];
      const arg = index === undefined ? undefined : args[Number(index)];
      return arg === undefined ? part : typeof arg === 'number' ? String(arg) : arg;
    });
}
