// The host's copy of the panel's markdown rendering: for saying which links the panel may ask to
// open, and for the answer page (same sanitising rules). Loads dist/markdown.js on first use and keeps recent trees by their source.
import { join } from 'node:path';
import { markdownSources, type MarkdownNode, type MarkdownTree } from '../broker/markdown/markdownTree';
import type { PendingRequest } from '../broker/contract/schemas';

export type MarkdownModule = typeof import('../broker/markdown/markdownModule');
// A computed path, so esbuild leaves the require alone: dist/markdown.js is its own bundle.
const loadBundled = (): MarkdownModule => require(join(__dirname, 'markdown.js')) as MarkdownModule;

const CACHED = 500;

export class MarkdownRenderer {
  private module: MarkdownModule | undefined;
  private failed = false;
  private readonly cache = new Map<string, MarkdownTree>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly load: () => MarkdownModule = loadBundled,
  ) {}

  /** Whether `href` is a link in the markdown of one of these requests (the panel may only open those). */
  hasLink(requests: readonly PendingRequest[], href: string): boolean {
    const sources = new Set(requests.flatMap(markdownSources));
    return [...sources].some((source) => {
      const tree = this.tree(source);
      return 'blocks' in tree && containsLink(tree.blocks, href);
    });
  }

  /** The panel's tree for `source` (plain when dist/markdown.js cannot load): the answer page renders it. */
  tree(source: string): MarkdownTree {
    const cached = this.cache.get(source);
    if (cached) {
      // Most recently used last, so the oldest goes first.
      this.cache.delete(source);
      this.cache.set(source, cached);
      return cached;
    }
    const tree = this.renderNow(source);
    this.cache.set(source, tree);
    if (this.cache.size > CACHED) this.cache.delete(this.cache.keys().next().value!);
    return tree;
  }

  private renderNow(source: string): MarkdownTree {
    const module = this.loaded();
    if (!module) return { plain: true };
    try {
      return module.renderMarkdownTree(source);
    } catch (error) {
      this.log(`Could not render markdown (${error instanceof Error ? error.name : 'error'}); it is shown as plain text.`);
      return { plain: true };
    }
  }

  private loaded(): MarkdownModule | undefined {
    if (this.module || this.failed) return this.module;
    try {
      this.module = this.load();
    } catch (error) {
      this.failed = true;
      this.log(`Could not load the markdown renderer (${error instanceof Error ? error.message : String(error)}); markdown is shown as plain text.`);
    }
    return this.module;
  }
}

function containsLink(nodes: readonly MarkdownNode[], href: string): boolean {
  const stack = [...nodes];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') continue;
    if (node.tag === 'a' && node.href === href) return true;
    stack.push(...(node.children ?? []));
  }
  return false;
}
