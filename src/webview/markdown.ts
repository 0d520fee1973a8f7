// The agent's markdown in the panel. The host renders it (markdown-it, highlight.js) into an
// allowlisted tree, validated on arrival; this file turns a tree into DOM through el(), text only.
// A source without a tree shows as plain text; one whose tree is still on its way is upgraded in place
// when it arrives. Links open only through the host, which asks VS Code.
import { MarkdownTreeSchema } from '../broker/markdownSchema';
import type { MarkdownElement, MarkdownNode, MarkdownTree } from '../broker/markdownTree';
import { el } from './dom';
import { t } from './l10n';

const KEPT = 500;
/** Trees as they arrived; checked against the schema the first time one is shown. */
const trees = new Map<string, unknown>();
const checked = new Map<string, MarkdownTree | undefined>();
/** Elements showing a source as plain text until its tree arrives (previews follow their request). */
const awaiting = new Map<string, HTMLElement[]>();
let openLink: (href: string) => void = () => undefined;

/** Keeps the host's trees (the most recent ones, looked up by their exact source). */
export function rememberMarkdown(rendered: readonly { source: string; tree: unknown }[]): void {
  for (const { source, tree } of rendered) {
    trees.delete(source);
    trees.set(source, tree);
    checked.delete(source);
    for (const element of awaiting.get(source) ?? []) if (element.isConnected) element.replaceChildren(...renderBlocks(source));
    awaiting.delete(source);
  }
  for (const source of trees.keys()) {
    if (trees.size <= KEPT) break;
    trees.delete(source);
    checked.delete(source);
  }
}

/** The tree for `source`, once checked; a tree that fails the check is dropped (logged) and the source shows as text. */
function treeFor(source: string): MarkdownTree | undefined {
  if (checked.has(source)) return checked.get(source);
  const raw = trees.get(source);
  const parsed = raw === undefined ? undefined : MarkdownTreeSchema.safeParse(raw);
  if (parsed && !parsed.success) console.warn('Agent Questions: dropped a malformed markdown tree from the host.');
  const tree = parsed?.success ? parsed.data : undefined;
  if (raw !== undefined) checked.set(source, tree);
  return tree;
}

/** What a click on a link does: the host validates the link and asks VS Code to open it. */
export function setLinkOpener(open: (href: string) => void): void {
  openLink = open;
}

export function renderMarkdown(source: string): HTMLElement {
  const element = el('div', { class: 'markdown' }, ...renderBlocks(source));
  if (!trees.has(source)) {
    awaiting.set(source, [...(awaiting.get(source) ?? []), element]);
    if (awaiting.size > KEPT) awaiting.delete(awaiting.keys().next().value!);
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
    openLink(href);
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
