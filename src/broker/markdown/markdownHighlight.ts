// Syntax highlighting for fenced code, as markdown tree nodes: highlight.js's output is read by a
// strict parser that knows only its own `<span class="…">`, `</span>` and five escapes (anything
// else and the code stays plain), and keeps only hljs-* class names. Only the lazy markdown bundle
// imports this file.
import hljs from 'highlight.js/lib/common';
import { HLJS_CLASS, LANGUAGE, type MarkdownElement, type MarkdownNode } from './markdownTree';

const ESCAPES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const PIECE = /<span class="([^"<>]*)">|<\/span>|&(?:amp|lt|gt|quot|#x27);|[^<&]+/y;

/** Code longer than this is not highlighted. */
export const MAX_HIGHLIGHTED_CHARS = 4000;

/** The code as highlighted nodes, or undefined when the language is unknown (the caller shows it plain). */
export function highlightCode(code: string, language: string): MarkdownNode[] | undefined {
  // highlight.js took 620 ms on 10,000 characters: longer code is shown plain, at once.
  if (code.length > MAX_HIGHLIGHTED_CHARS || !LANGUAGE.test(language) || !hljs.getLanguage(language)) return undefined;
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return parseHighlighted(html);
}

/** Exported for tests: highlight.js HTML to nodes; undefined if it holds anything unexpected. */
export function parseHighlighted(html: string): MarkdownNode[] | undefined {
  const root: MarkdownNode[] = [];
  const stack: Array<{ element: MarkdownElement | undefined; children: MarkdownNode[] }> = [{ element: undefined, children: root }];
  PIECE.lastIndex = 0;
  while (PIECE.lastIndex < html.length) {
    const match = PIECE.exec(html);
    if (!match) return undefined;
    const top = stack[stack.length - 1]!;
    const [piece, classes] = match;
    if (classes !== undefined) {
      const cls = hljsClasses(classes);
      const element: MarkdownElement = { tag: 'span', cls, children: [] };
      stack.push({ element: cls.length > 0 ? element : undefined, children: element.children! });
    } else if (piece === '</span>') {
      if (stack.length === 1) return undefined;
      const closed = stack.pop()!;
      const parent = stack[stack.length - 1]!.children;
      // A span without hljs classes (a sub-language wrapper) leaves only its children.
      if (closed.element) parent.push(closed.element);
      else for (const child of closed.children) appendText(parent, child);
    } else {
      appendText(top.children, ESCAPES[piece] ?? piece);
    }
  }
  return stack.length === 1 ? root : undefined;
}

/** highlight.js writes `hljs-title function_`: each part becomes an hljs-* class, anything else is dropped. */
function hljsClasses(value: string): string[] {
  return value
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => (part.startsWith('hljs-') ? part : `hljs-${part}`))
    .filter((part) => HLJS_CLASS.test(part) && !part.startsWith('hljs-language-'))
    .slice(0, 8);
}

function appendText(children: MarkdownNode[], node: MarkdownNode): void {
  const last = children[children.length - 1];
  if (typeof node === 'string' && typeof last === 'string') children[children.length - 1] = last + node;
  else children.push(node);
}
