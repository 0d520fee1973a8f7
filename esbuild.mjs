// One build script: the extension (node, cjs), the panel (browser), the test bundles, and the
// `ask_user` inputSchema in package.json, generated from the zod source.
//   node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = import.meta.dirname;

const common = { bundle: true, metafile: true, logLevel: 'warning', sourcemap: !production, minify: production, target: 'es2022' };

/** Every .ts file under test/<folder>, subfolders included (unit tests are laid out like src/). */
const testEntries = (folder) =>
  readdirSync(join(root, 'test', folder), { recursive: true })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(root, 'test', folder, f));

/**
 * The MCP SDK's Server makes an ajv JSON Schema validator unless given one; it validates only
 * elicitation replies, which the endpoint never asks for. mcpTools.ts gives its own, so ajv (and its
 * URI and format packages, 130 KB) stay out of dist/mcp.js.
 */
const withoutAjv = {
  name: 'without-ajv',
  setup(build) {
    build.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, () => ({ path: 'ajv-provider', namespace: 'without-ajv' }));
    build.onLoad({ filter: /.*/, namespace: 'without-ajv' }, () => ({
      contents: 'export class AjvJsonSchemaValidator { constructor() { throw new Error("ajv is not bundled: pass a jsonSchemaValidator"); } }',
      loader: 'js',
    }));
  },
};

const builds = [
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  // Loaded only when the external-agent endpoint is on (see src/extension/externalAgents.ts).
  { ...common, entryPoints: ['src/mcp/mcpModule.ts'], outfile: 'dist/mcp.js', platform: 'node', format: 'cjs', plugins: [withoutAjv] },
  // Loaded only when the answer page is on (see src/extension/answerPageAdapter.ts).
  { ...common, entryPoints: ['src/extension/answerPageModule.ts'], outfile: 'dist/answerPage.js', platform: 'node', format: 'cjs', external: ['vscode'] },
  // Loaded on the first shell command a permission prompt decides (see src/extension/policyAdapter.ts).
  { ...common, entryPoints: ['src/extension/shellModule.ts'], outfile: 'dist/shell.js', platform: 'node', format: 'cjs' },
  // markdown-it, once for both sides: a script the panel loads (it sets the global) that the host also
  // requires (it sets module.exports) when the panel first asks to open a link (see src/extension/markdownRenderer.ts).
  {
    ...common,
    entryPoints: ['src/broker/markdown/markdownModule.ts'],
    outfile: 'dist/markdown.js',
    platform: 'browser',
    format: 'iife',
    globalName: 'agentQuestionsMarkdownModule',
    footer: { js: "if (typeof module === 'object') module.exports = agentQuestionsMarkdownModule;" },
  },
  // The command agents' permission hooks run (src/hook, each agent's adapter from src/agents): Node builtins only, started once per tool call.
  { ...common, entryPoints: ['src/hook/approvalHook.ts'], outfile: 'dist/approvalHook.js', platform: 'node', format: 'cjs' },
  // The PreToolUse hook VS Code's own agent runs on every tool call (media/chat-plugin): Node builtins only, kept small.
  { ...common, entryPoints: ['src/hook/vscodeAgentHook.ts'], outfile: 'dist/vscodeAgentHook.js', platform: 'node', format: 'cjs' },
  { ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife' },
  // highlight.js for the panel, a script of its own that runs after dist/markdown.js (see src/webview/markdown.ts).
  { ...common, entryPoints: ['src/webview/markdownHighlighter.ts'], outfile: 'dist/webviewHighlight.js', platform: 'browser', format: 'iife' },
];
/**
 * Libraries (and sources) and the one bundle that may hold each (none: no bundle, see withoutAjv):
 * activation and the panel's main script stay small, and markdown-it ships once.
 */
const ONLY_IN = [
  [/node_modules\/(markdown-it|linkify-it|mdurl|punycode\.js|entities|uc\.micro)\//, 'dist/markdown.js'],
  [/node_modules\/highlight\.js\//, 'dist/webviewHighlight.js'],
  [/node_modules\/(ajv|ajv-formats|fast-uri)\//, undefined],
  // What "Connect an External Agent…" hands out (src/agents: each agent's config and plugin): only
  // the lazily loaded endpoint, never activation nor the hook command agents start per tool call.
  // The answer page: only while it is on, never activation.
  [/^src\/answerPage\//, 'dist/answerPage.js'],
  [/^src\/agents\/(configRegistry\.ts|agentConfig\.ts|\w+\/\w+(Config\.ts|Plugin\.js))/, 'dist/mcp.js'],
];
// Bundles of renamed entries must not linger (and be counted, or shipped).
if (!watch) rmSync(join(root, 'dist'), { recursive: true, force: true });
if (!production) {
  // Test bundles of deleted or moved test files must not linger and run.
  rmSync(join(root, 'out', 'test'), { recursive: true, force: true });
  const testBuild = {
    ...common,
    sourcemap: true,
    minify: false,
    platform: 'node',
    format: 'cjs',
    outbase: 'test',
    outdir: 'out/test',
    external: ['vscode', 'mocha', 'playwright-core'],
  };
  builds.push({
    ...testBuild,
    entryPoints: [
      ...testEntries('unit'),
      ...testEntries('integration'),
      ...testEntries('ui'),
      ...testEntries('agent'),
      ...testEntries('external'),
      ...testEntries('bench'),
      'test/harness/runLayer.ts',
    ],
  });
}

/** Writes ask_user's and get_answers' model descriptions and JSON Schemas into package.json when they changed. */
async function generateToolSchema() {
  const outfile = join(root, 'out', 'build', 'toolSchema.cjs');
  await esbuild.build({ ...common, sourcemap: false, entryPoints: ['src/broker/contract/toolSchema.ts'], outfile, platform: 'node', format: 'cjs' });
  const { askUserJsonSchema, ASK_USER_DESCRIPTION, getAnswersJsonSchema, GET_ANSWERS_DESCRIPTION } = createRequire(import.meta.url)(outfile);
  const manifestPath = join(root, 'package.json');
  const text = readFileSync(manifestPath, 'utf8');
  const manifest = JSON.parse(text);
  const tool = manifest.contributes.languageModelTools.find((t) => t.name === 'ask_user');
  tool.modelDescription = ASK_USER_DESCRIPTION;
  tool.inputSchema = askUserJsonSchema();
  const getAnswers = manifest.contributes.languageModelTools.find((t) => t.name === 'get_answers');
  getAnswers.modelDescription = GET_ANSWERS_DESCRIPTION;
  getAnswers.inputSchema = getAnswersJsonSchema();
  const updated = `${JSON.stringify(manifest, null, 2)}\n`;
  if (updated !== text) {
    writeFileSync(manifestPath, updated);
    console.log("esbuild.mjs: updated the tools' modelDescription and inputSchema in package.json");
  }
}

await generateToolSchema();
if (watch) {
  for (const options of builds) await (await esbuild.context(options)).watch();
  console.log('esbuild.mjs: watching for changes');
} else {
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  for (const [index, result] of results.entries()) {
    const { outfile } = builds[index];
    // The test bundles (an outdir, no outfile) hold what they test.
    if (!outfile) continue;
    for (const input of Object.keys(result.metafile.inputs)) {
      const home = ONLY_IN.find(([library]) => library.test(input));
      if (home && home[1] !== outfile) throw new Error(`esbuild.mjs: ${outfile} must not bundle ${input}; ${home[1] ? `only ${home[1]} holds it` : 'no bundle holds it'}`);
    }
  }
  if (production) checkBudgets();
}

// The shell parser (src/broker/permissions/shell/shellCommand.ts) loads tree-sitter's WASM files at run time from dist/;
// esbuild bundles only the JavaScript, so the two .wasm files are copied beside the bundles.
mkdirSync(join(root, 'dist'), { recursive: true });
for (const file of ['tree-sitter.wasm', 'tree-sitter-bash.wasm']) {
  copyFileSync(join(root, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm', file), join(root, 'dist', file));
}
// Node reads the nearest package.json to learn how a .js file loads: without this one, every hook run
// (dist/approvalHook.js, dist/vscodeAgentHook.js) reads and parses the extension's 30 KB manifest.
writeFileSync(join(root, 'dist', 'package.json'), '{ "type": "commonjs" }\n');

/** What activation and the panel load, minified: the issue's budgets (lazily loaded bundles have none). */
function checkBudgets() {
  // extension.js: 200 KB until issues 31 and 32 (paths by real path with the protected-files table,
  // Check a Command, the question shown at prepareInvocation); activation time is benched on its own.
  // 219 KB with issue 34: the answer page's switch, the nudge's link (the page itself is dist/answerPage.js)
  // and Show History's line on who decided (the panel's sentences, shared).
  // 228 KB with issue 40: the protected set grew (runner, hook, instruction and CI files, paths however
  // written), rules read the agent's folder, and a runner rule's confinement reads the runners' table.
  // 232 KB with issue 40's one decision (decidePermission.ts; 228.1 KB), the Queue's write-and-run row,
  // the markers in Check a Command, and issue 42's setting that starts the endpoint with its discovery
  // file (the file's writer loads with dist/mcp.js). The decision stays in this bundle: in dist/shell.js
  // every request, not only a shell command, would wait on the first one for the WASM parser to load.
  // 233 KB with issue 43's Claude Code grants in Manage Remembered Permissions (232.9 KB): only the
  // quick pick's rows and the file reader; reading and translating the grants load with dist/shell.js.
  // 244 KB with issue 43 (243.5 KB): where Codex's, OpenCode's and VS Code's stores are and one heading
  // per agent in the quick pick (reading and translating them load with dist/shell.js); the rules' end in
  // the store, the ledger and the panel's message; the grant file watcher, its notification and the
  // replacement's preview; the test run's clock and message probes.
  // vscodeAgentHook.js: started on every tool call of VS Code's agent, so its load time counts.
  const budgets = { 'dist/extension.js': 244 * 1024, 'dist/webview.js': 256 * 1024, 'dist/vscodeAgentHook.js': 24 * 1024 };
  for (const [file, budget] of Object.entries(budgets)) {
    const size = statSync(join(root, file)).size;
    if (size > budget) throw new Error(`esbuild.mjs: ${file} is ${(size / 1024).toFixed(1)} KB, over its ${budget / 1024} KB budget`);
  }
}
