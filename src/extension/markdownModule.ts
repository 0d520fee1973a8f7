// The entry of dist/markdown.js: markdown-it and highlight.js, bundled apart and loaded only when a
// request first shows markdown, so activation never pays for them.
export { renderMarkdownTree } from '../broker/markdownRender';
