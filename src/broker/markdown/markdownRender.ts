// Markdown to the panel's allowlisted tree (see markdownTree.ts), with markdown-it: no raw HTML
// (it stays text), links only to http, https and mailto (others stay text), images as text,
// fenced code highlighted. Too deep or too large: the source is shown as plain text. Only dist/markdown.js
// bundles this file; the panel and the host (for link checks) both load that bundle.
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { isOpenableHref, LANGUAGE, MARKDOWN_LIMITS, measureTree, type MarkdownElement, type MarkdownNode, type MarkdownTag, type MarkdownTree } from './markdownTree';

const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
// Bare addresses only with their scheme: "README.md" stays a file name, not http://README.md.
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });
// Links and images to anything else are not links at all: their markdown shows as text.
md.validateLink = isOpenableHref;

const BLOCK_TAGS: Record<string, MarkdownTag> = {
  paragraph_open: 'p',
  bullet_list_open: 'ul',
  ordered_list_open: 'ol',
  list_item_open: 'li',
  blockquote_open: 'blockquote',
  table_open: 'table',
  thead_open: 'thead',
  tbody_open: 'tbody',
  tr_open: 'tr',
  th_open: 'th',
  td_open: 'td',
};
const INLINE_TAGS: Record<string, MarkdownTag> = { em_open: 'em', strong_open: 'strong', s_open: 's' };
const HEADINGS: Record<string, MarkdownTag> = { h1: 'h1', h2: 'h2', h3: 'h3', h4: 'h4', h5: 'h5', h6: 'h6' };

class TooLarge extends Error {}

/** Code highlighting, given by the panel's bundle only: the host renders to check links and needs none (nor highlight.js). */
export type Highlighter = (code: string, language: string) => MarkdownNode[] | undefined;

export function renderMarkdownTree(source: string, highlighter?: Highlighter): MarkdownTree {
  const tokens = md.parse(source, {});
  // Highlighting adds a node per code token: a large code block may fit without it.
  for (const highlight of highlighter ? [highlighter, undefined] : [undefined]) {
    const blocks = new TreeBuilder(highlight).build(tokens);
    if (!blocks) continue;
    const { nodes, depth } = measureTree(blocks);
    if (depth > MARKDOWN_LIMITS.depth) break;
    if (nodes <= MARKDOWN_LIMITS.nodes) return { blocks };
  }
  return { plain: true };
}

/** Turns markdown-it's flat open/close token stream into nested nodes. */
class TreeBuilder {
  private readonly root: MarkdownNode[] = [];
  /** Open containers; a transparent one (a link that may not be opened) passes its children to its parent. */
  private readonly stack: Array<{ children: MarkdownNode[]; after?: string }> = [{ children: this.root }];
  private count = 0;

  constructor(private readonly highlight: Highlighter | undefined) {}

  /** The nodes, or undefined past MARKDOWN_LIMITS.nodes. */
  build(tokens: Token[]): MarkdownNode[] | undefined {
    try {
      this.tokens(tokens);
    } catch (error) {
      if (error instanceof TooLarge) return undefined;
      throw error;
    }
    return this.root;
  }

  private tokens(tokens: Token[]): void {
    for (const token of tokens) this.token(token);
  }

  private token(token: Token): void {
    if (token.hidden) return; // tight lists: the paragraph inside an item adds nothing
    const tag = BLOCK_TAGS[token.type] ?? INLINE_TAGS[token.type] ?? (token.type === 'heading_open' ? HEADINGS[token.tag] : undefined);
    if (tag) return this.open(this.element(tag, token));
    if (token.nesting === -1) return this.close();
    switch (token.type) {
      case 'inline':
        return this.tokens(token.children ?? []);
      case 'text':
      case 'text_special':
      case 'html_inline':
      case 'html_block':
        return this.text(token.content);
      case 'softbreak':
        return this.text('\n');
      case 'hardbreak':
        return this.add({ tag: 'br' });
      case 'hr':
        return this.add({ tag: 'hr' });
      case 'code_inline':
        return this.add({ tag: 'code', children: [token.content] });
      case 'fence':
      case 'code_block':
        return this.code(token);
      case 'image':
        return this.add({ tag: 'image', href: token.attrGet('src') ?? '', alt: plainText(token.children ?? []) });
      case 'link_open': {
        const href = token.attrGet('href') ?? '';
        if (isOpenableHref(href)) return this.open({ tag: 'a', href, children: [] });
        // Not openable: the text stays, followed by its target as text.
        return void this.stack.push({ children: this.top(), ...(href ? { after: ` (${href})` } : {}) });
      }
      default:
        // Anything markdown-it adds later shows its text rather than vanishing; an unknown container
        // passes its children through, so its closing token still closes the right one.
        if (token.nesting === 1) return void this.stack.push({ children: this.top() });
        if (token.content) this.text(token.content);
    }
  }

  private element(tag: MarkdownTag, token: Token): MarkdownElement {
    const element: MarkdownElement = { tag, children: [] };
    const start = Number(token.attrGet('start') ?? 1);
    if (tag === 'ol' && start !== 1 && Number.isInteger(start) && start >= 0 && start <= 1_000_000_000) element.start = start;
    const align = /^text-align:(left|center|right)$/.exec(token.attrGet('style') ?? '')?.[1];
    if ((tag === 'th' || tag === 'td') && align) element.align = align as MarkdownElement['align'];
    return element;
  }

  private code(token: Token): void {
    const language = token.info.trim().split(/\s+/)[0] ?? '';
    const code = token.content.replace(/\n$/, '');
    const highlighted = this.highlight && language ? this.highlight(code, language) : undefined;
    const pre: MarkdownElement = { tag: 'pre', children: [{ tag: 'code', children: highlighted ?? [code] }] };
    if (LANGUAGE.test(language)) pre.lang = language;
    this.add(pre);
  }

  private top(): MarkdownNode[] {
    return this.stack[this.stack.length - 1]!.children;
  }

  private open(element: MarkdownElement): void {
    this.add(element);
    this.stack.push({ children: element.children! });
  }

  private close(): void {
    // Unbalanced input never pops the root.
    if (this.stack.length === 1) return;
    const closed = this.stack.pop()!;
    if (closed.after) this.text(closed.after);
  }

  private add(node: MarkdownNode): void {
    if (++this.count > MARKDOWN_LIMITS.nodes) throw new TooLarge();
    this.top().push(node);
  }

  private text(text: string): void {
    if (!text) return;
    const children = this.top();
    const last = children.length - 1;
    if (typeof children[last] === 'string') children[last] = children[last] + text;
    else this.add(text);
  }
}

/** The text of inline tokens (an image's alt). */
function plainText(tokens: Token[]): string {
  return tokens.map((t) => (t.type === 'softbreak' || t.type === 'hardbreak' ? ' ' : t.children ? plainText(t.children) : t.content)).join('');
}
