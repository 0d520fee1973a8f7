// `import text from './file.js?text' with { type: 'text' }`: the file's contents as a string.
// esbuild reads the file as text (the import attribute; it drops the `?text` query), and the query
// gives TypeScript a module to type instead of the file itself.
declare module '*?text' {
  const text: string;
  export default text;
}
