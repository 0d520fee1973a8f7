// The zod schema of a rendered markdown tree (markdownTree.ts), checked by the panel on arrival.
// It bounds the depth by construction (no recursion past MARKDOWN_LIMITS.depth) and the size by a count.
import * as z from 'zod';
import { HLJS_CLASS, isOpenableHref, LANGUAGE, MARKDOWN_LIMITS, MARKDOWN_TAGS, measureTree, type MarkdownNode, type MarkdownTree } from './markdownTree';

function nodeSchema(depth: number): z.ZodType<MarkdownNode> {
  const text = z.string().max(MARKDOWN_LIMITS.text);
  if (depth === 0) return text;
  return z.union([
    text,
    z
      .object({
        tag: z.enum(MARKDOWN_TAGS),
        children: z.array(nodeSchema(depth - 1)).max(MARKDOWN_LIMITS.children).optional(),
        href: z.string().max(MARKDOWN_LIMITS.href).optional(),
        alt: z.string().max(MARKDOWN_LIMITS.text).optional(),
        cls: z.array(z.string().regex(HLJS_CLASS)).max(8).optional(),
        lang: z.string().regex(LANGUAGE).optional(),
        start: z.number().int().min(0).max(1_000_000_000).optional(),
        align: z.enum(['left', 'center', 'right']).optional(),
      })
      .strict()
      .refine((e) => e.tag !== 'a' || (e.href !== undefined && isOpenableHref(e.href)), { message: 'a link needs an http, https or mailto href' }),
  ]);
}

export const MarkdownTreeSchema: z.ZodType<MarkdownTree> = z.union([
  z
    .object({ blocks: z.array(nodeSchema(MARKDOWN_LIMITS.depth)).max(MARKDOWN_LIMITS.children) })
    .strict()
    .refine((tree) => measureTree(tree.blocks).nodes <= MARKDOWN_LIMITS.nodes, { message: `more than ${MARKDOWN_LIMITS.nodes} markdown nodes` }),
  z.object({ plain: z.literal(true) }).strict(),
]);

