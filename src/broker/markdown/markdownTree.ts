// The agent's markdown as rendered for the panel: a small tree of allowlisted nodes, never HTML.
// The panel builds DOM from it with text nodes only.
import type { PendingRequest } from '../contract/schemas';

export const MARKDOWN_LIMITS = {
  /** Element levels below the root; legitimate markdown (quote › list › item › strong › link, or pre › code › token) stays far below. */
  depth: 24,
  /** Elements and text nodes in one tree; past it the host drops the highlighting, then falls back to plain text. */
  nodes: 5000,
  children: 5000,
  text: 20_000,
  href: 2048,
} as const;

export const MARKDOWN_TAGS = [
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  's',
  'br',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  /** A clickable link: `href` is http, https or mailto. */
  'a',
  /** An image, never loaded: shown as its alt text and address. */
  'image',
  /** A highlighted code token: `cls` holds only hljs-* classes. */
  'span',
] as const;

export type MarkdownTag = (typeof MARKDOWN_TAGS)[number];

export interface MarkdownElement {
  tag: MarkdownTag;
  children?: MarkdownNode[];
  /** a: the target; image: the address (shown, never fetched). */
  href?: string;
  /** image: the alt text. */
  alt?: string;
  /** span: highlight.js token classes. */
  cls?: string[];
  /** pre: the fence's language. */
  lang?: string;
  /** ol: the first number. */
  start?: number;
  /** th, td: the column's alignment. */
  align?: 'left' | 'center' | 'right';
}

export type MarkdownNode = string | MarkdownElement;

/**
 * A rendered source: `blocks` is the tree; `plain` means the source is shown as text, as it is
 * (it was too deep or too large to render, or the renderer could not load).
 */
export type MarkdownTree = { blocks: MarkdownNode[] } | { plain: true };

/** Only these schemes become clickable; everything else stays text. */
const OPENABLE = /^(https?:\/\/|mailto:)/i;
export const HLJS_CLASS = /^hljs-[a-z0-9_-]{1,40}$/;
export const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,30}$/;

/** Whether a link may be opened (through VS Code's external-link confirmation). */
export function isOpenableHref(href: string): boolean {
  if (href.length > MARKDOWN_LIMITS.href || !OPENABLE.test(href)) return false;
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** Elements and text nodes in a tree, and its depth, counted without recursion. */
export function measureTree(blocks: readonly MarkdownNode[]): { nodes: number; depth: number } {
  let nodes = 0;
  let depth = 0;
  const stack: Array<{ node: MarkdownNode; level: number }> = blocks.map((node) => ({ node, level: 1 }));
  while (stack.length > 0) {
    const { node, level } = stack.pop()!;
    nodes++;
    depth = Math.max(depth, level);
    if (typeof node !== 'string') for (const child of node.children ?? []) stack.push({ node: child, level: level + 1 });
  }
  return { nodes, depth };
}

/** Every markdown source a request shows: the context, each question's detail, each option's preview, a permission's detail. */
export function markdownSources(request: PendingRequest): string[] {
  const sources: string[] = [];
  if (request.kind === 'permission') {
    if (!request.toolCall) sources.push(request.detail);
  } else {
    if (request.context) sources.push(request.context);
    for (const question of request.questions) {
      if (question.detail) sources.push(question.detail);
      for (const option of question.options) if (option.preview) sources.push(option.preview);
    }
  }
  return [...new Set(sources.filter((s) => s.trim() !== ''))];
}
