// The agent's markdown as HTML for the answer page, from the panel's allowlisted tree
// (src/broker/markdown/markdownTree.ts): every text escaped, only allowlisted tags and attributes,
// links shown with their target but not followed, images never loaded.
import type { MarkdownElement, MarkdownNode, MarkdownTree } from '../broker/markdown/markdownTree';
import { splitInvisible, invisibleMarker } from '../broker/visibleText';
import { format, type AnswerPageStrings } from './answerPageStrings';

/** markdownRender.ts's renderMarkdownTree, injected: markdown-it lives in its own bundle (dist/markdown.js). */
export type RenderMarkdown = (source: string) => MarkdownTree;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** Text, escaped, each invisible character (or run of one) shown as a marker such as ⟨U+202E⟩. */
export function visibleHtml(text: string): string {
  return splitInvisible(text)
    .map((part) => (part.invisible ? `<span class="inv">${escapeHtml(invisibleMarker(part.text, part.count))}</span>` : escapeHtml(part.text)))
    .join('');
}

/** Tags written as they are, with no attributes. */
const PLAIN_TAGS = new Set(['p', 'ul', 'li', 'blockquote', 'code', 'em', 'strong', 's', 'table', 'thead', 'tbody', 'tr']);

export function markdownHtml(source: string, render: RenderMarkdown | undefined, strings: AnswerPageStrings): string {
  let tree: MarkdownTree = { plain: true };
  try {
    if (render) tree = render(source);
  } catch {
    // Shown as plain text, as the panel does when its renderer fails.
  }
  if ('plain' in tree) return `<div class="md"><p class="plain">${visibleHtml(source)}</p></div>`;
  return `<div class="md">${nodesHtml(tree.blocks, strings)}</div>`;
}

function nodesHtml(nodes: readonly MarkdownNode[], strings: AnswerPageStrings): string {
  return nodes.map((node) => (typeof node === 'string' ? visibleHtml(node) : elementHtml(node, strings))).join('');
}

function elementHtml(node: MarkdownElement, strings: AnswerPageStrings): string {
  const inner = nodesHtml(node.children ?? [], strings);
  switch (node.tag) {
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6': {
      // The page's own headings are h1 and h2: the agent's start below them.
      const level = Math.min(6, Number(node.tag[1]) + 2);
      return `<h${level}>${inner}</h${level}>`;
    }
    case 'ol':
      return node.start !== undefined && Number.isInteger(node.start) ? `<ol start="${node.start}">${inner}</ol>` : `<ol>${inner}</ol>`;
    case 'th':
    case 'td':
      return node.align ? `<${node.tag} class="al-${node.align}">${inner}</${node.tag}>` : `<${node.tag}>${inner}</${node.tag}>`;
    case 'pre':
      return `<pre>${inner}</pre>`;
    case 'br':
      return '<br>';
    case 'hr':
      return '<hr>';
    case 'span':
      // Highlighting classes are dropped: the page carries no highlighting styles.
      return inner;
    case 'a':
      // Not followed from the page: its text, then where it leads.
      return `<span class="link">${inner}</span> <span class="target">(${visibleHtml(node.href ?? '')})</span>`;
    case 'image':
      return `<span class="target">${visibleHtml(format(strings.imageNotLoaded, node.alt ?? ''))} (${visibleHtml(node.href ?? '')})</span>`;
    default:
      return PLAIN_TAGS.has(node.tag) ? `<${node.tag}>${inner}</${node.tag}>` : inner;
  }
}
