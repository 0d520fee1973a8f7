// The entry of dist/markdown.js, markdown-it's one bundle: the extension host requires it to check
// links (src/extension/markdownRenderer.ts) and the panel loads it as a script, then highlights code
// with dist/webviewHighlight.js (src/webview/markdownHighlighter.ts). Built as a script that also
// sets module.exports (esbuild.mjs), it is loaded only when first needed, so activation never pays for it.
export { renderMarkdownTree } from './markdownRender';
