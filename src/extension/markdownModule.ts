// The entry of dist/markdown.js: markdown-it and highlight.js, bundled apart and loaded only when the
// panel first asks to open a link (see markdownRenderer.ts), so activation never pays for them.
export { renderMarkdownTree } from '../broker/markdownRender';
