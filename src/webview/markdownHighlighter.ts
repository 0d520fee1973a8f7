// The entry of dist/webviewHighlight.js: highlight.js in the panel. It runs after dist/markdown.js
// (markdown-it, the same bundle the host loads) and hands the panel a renderer that highlights code.
// Rendering where the markdown is shown saves sending every tree across the host → webview bridge.
import { highlightCode } from '../broker/markdown/markdownHighlight';
import { MARKDOWN_ENGINE_READY, type MarkdownEngineWindow } from './markdownEngineGlobal';

const engine = window as MarkdownEngineWindow;
const markdown = engine.agentQuestionsMarkdownModule;
if (markdown) {
  engine.agentQuestionsMarkdown = (source: string) => markdown.renderMarkdownTree(source, highlightCode);
  window.dispatchEvent(new Event(MARKDOWN_ENGINE_READY));
} else {
  console.warn('Agent Questions: dist/markdown.js did not load; markdown is shown as plain text.');
}
