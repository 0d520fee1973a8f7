// How dist/webviewMarkdown.js hands its renderer to the panel (see markdownEngine.ts).
import type { MarkdownTree } from '../broker/markdownTree';

export const MARKDOWN_ENGINE_READY = 'agent-questions-markdown-ready';

export type MarkdownEngineWindow = Window & { agentQuestionsMarkdown?: (source: string) => MarkdownTree };
