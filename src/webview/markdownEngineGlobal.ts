// How the panel's markdown scripts hand over: dist/markdown.js sets agentQuestionsMarkdownModule
// (its esbuild globalName), then dist/webviewHighlight.js sets agentQuestionsMarkdown and fires the event.
import type { renderMarkdownTree } from '../broker/markdown/markdownRender';
import type { MarkdownTree } from '../broker/markdown/markdownTree';

export const MARKDOWN_ENGINE_READY = 'agent-questions-markdown-ready';

export type MarkdownEngineWindow = Window & {
  agentQuestionsMarkdownModule?: { renderMarkdownTree: typeof renderMarkdownTree };
  agentQuestionsMarkdown?: (source: string) => MarkdownTree;
};
