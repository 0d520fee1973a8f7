// The entry of dist/webviewMarkdown.js: markdown-it and highlight.js in the panel, a script of its own
// beside dist/webview.js (which stays small) that hands the panel its renderer through one global.
// Rendering where the markdown is shown saves sending every tree across the host → webview bridge.
import { highlightCode } from '../broker/markdownHighlight';
import { renderMarkdownTree } from '../broker/markdownRender';
import { MARKDOWN_ENGINE_READY, type MarkdownEngineWindow } from './markdownEngineGlobal';

(window as MarkdownEngineWindow).agentQuestionsMarkdown = (source: string) => renderMarkdownTree(source, highlightCode);
window.dispatchEvent(new Event(MARKDOWN_ENGINE_READY));
