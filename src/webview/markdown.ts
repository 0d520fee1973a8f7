// The agent's markdown in the panel: dist/webviewMarkdown.js renders it (markdown-it, highlight.js)
// into an allowlisted tree (src/broker/markdown/markdownRender.ts); this file turns a tree into DOM through
// el(), text only. Until that script has loaded, a source shows as plain text and is upgraded in place.
// Links open only through the host, which asks VS Code.
import type { MarkdownElement, MarkdownNode, MarkdownTree } from '../broker/markdown/markdownTree';
import { el } from './dom';
import { t } from './l10n';
import { MARKDOWN_ENGINE_READY, type MarkdownEngineWindow } from './markdownEngineGlobal';

const KEPT = 500;
/** Recent trees by their exact source: moving back to an option renders nothing again. */
const trees = new Map<string, MarkdownTree>();
/** Elements showing a source as plain text until the renderer has loaded. */
const awaiting: Array<{ element: HTMLElement; source: string }> = [];
let openLink: (href: string, requestId: string) => void = () => undefined;

window.addEventListener(MARKDOWN_ENGINE_READY, () => {
  for (const { element, source } of awaiting.splice(0)) if (element.isConnected) element.replaceChildren(...renderBlocks(source));
});

function treeFor(source: string): MarkdownTree | undefined {
  const render = (window as MarkdownEngineWindow).agentQuestionsMarkdown;
  if (!render) return undefined;
  let tree = trees.get(source);
  if (tree) trees.delete(source);
  else {
    try {
      tree = render(source);
    } catch {
      console.warn('Agent Questions: could not render markdown; it is shown as plain text.');
      tree = { plain: true };
    }
  }
  // Most recently used last, so the oldest goes first.
  trees.set(source, tree);
  if (trees.size > KEPT) trees.delete(trees.keys().next().value!);
  return tree;
}

/** What a click on a link does: the host validates the link and asks VS Code to open it. */
export function setLinkOpener(open: (href: string, requestId: string) => void): void {
  openLink = open;
}

export function renderMarkdown(source: string): HTMLElement {
  const element = el('div', { class: 'markdown' }, ...renderBlocks(source));
  if (!(window as MarkdownEngineWindow).agentQuestionsMarkdown) {
    awaiting.push({ element, source });
    if (awaiting.length > KEPT) awaiting.shift();
  }
  return element;
}

function renderBlocks(source: string): Array<Node | string> {
  const tree = treeFor(source);
  if (!tree || 'plain' in tree) return [el('div', { class: 'markdown-plain' }, source)];
  return tree.blocks.map(renderNode);
}

function renderNode(node: MarkdownNode): Node | string {
  return typeof node === 'string' ? node : renderElement(node);
}

function renderElement(node: MarkdownElement): HTMLElement {
  const children = (node.children ?? []).map(renderNode);
  switch (node.tag) {
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      // The panel's own headings are h2: the agent's start below them.
      return el(`h${Math.min(6, Number(node.tag[1]) + 2)}`, { class: 'md-heading' }, ...children);
    case 'ol':
      return el('ol', { start: node.start !== undefined && node.start !== 1 ? String(node.start) : undefined }, ...children);
    case 'th':
    case 'td':
      return el(node.tag, { class: node.align ? `md-align-${node.align}` : undefined }, ...children);
    case 'pre':
      return el('pre', { class: 'md-code', 'data-lang': node.lang }, ...children);
    case 'span':
      return el('span', { class: node.cls?.join(' ') }, ...children);
    case 'a':
      return renderLink(node.href ?? '', children);
    case 'image':
      // Never loaded: its alt text and address, as text.
      return el('span', { class: 'md-image' }, t('[image: {0}]', node.alt ?? ''), el('span', { class: 'link-target' }, ` (${node.href ?? ''})`));
    default:
      return el(node.tag, {}, ...children);
  }
}

/** A link shows its text and its target; it has no href, so only our handler (through the host) can follow it. */
function renderLink(href: string, children: Array<Node | string>): HTMLElement {
  const link = el('a', { class: 'md-link', role: 'link', tabindex: '0', title: href, 'data-href': href }, ...children);
  const follow = (event: Event) => {
    event.preventDefault();
    event.stopPropagation();
    // The host checks only the request this link is shown in.
    const requestId = link.closest('[data-request-id]')?.getAttribute('data-request-id');
    if (requestId) openLink(href, requestId);
  };
  link.addEventListener('click', follow);
  link.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') follow(event);
  });
  const text = link.textContent ?? '';
  // An autolink's text is its target already.
  if (text === href || `mailto:${text}` === href || text === decodeSafely(href)) return link;
  return el('span', { class: 'md-link-group' }, link, el('span', { class: 'link-target' }, ` (${href})`));
}

function decodeSafely(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}
