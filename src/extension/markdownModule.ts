// The entry of dist/markdown.js: markdown-it, bundled apart and loaded only when the panel first asks
// to open a link (see markdownRenderer.ts), so activation never pays for it. Links are the same
// highlighted or not, so the host's copy carries no highlight.js: the panel's bundle has it.
export { renderMarkdownTree } from '../broker/markdownRender';
