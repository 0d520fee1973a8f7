// The lint the build runs (npm run lint, and npm test before it builds): the layers the design
// draws between src/ folders, no import cycles, exhaustive switches, consistent type imports, and
// typescript-eslint's recommended set.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './test/harness/noImportCycle.mjs';

const root = import.meta.dirname;
const src = (path) => join(root, 'src', path);

const NO_VSCODE = { name: 'vscode', message: "Only src/extension talks to VS Code: keep 'vscode' out of this layer." };
const ONE_DECISION =
  'Decide a permission request with decidePermission (src/broker/permissions/decidePermission.ts), the one entry point: it reads the rules in policy order and analyses a command line once.';
// One decision: decidePermission.ts alone decides a permission request; the parts it is made of are
// imported nowhere else in src (the shell bundle's entry hands them to it as the checker).
const ONE_DECISION_PATTERNS = [
  {
    group: ['**/shell/commandRules', './shell/commandRules', './commandRules'],
    importNames: ['decideCommandLine', 'decideAnalysed', 'offeredRules', 'offersFor', 'ruleCovers'],
    message: ONE_DECISION,
  },
  {
    group: ['**/permissionRules', './permissionRules', '../permissionRules'],
    importNames: ['ruleMatches', 'neverRemembered', 'rememberOptionsFor'],
    message: ONE_DECISION,
  },
];
const ONE_DECISION_FILES = ['src/broker/permissions/decidePermission.ts', 'src/broker/permissions/permissionRules.ts', 'src/extension/shellModule.ts'];
const NO_NODE = 'The panel runs in a browser: no Node built-ins.';
// Written bare ('fs'); the node:… forms are one pattern below.
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('node:'));

// The broker modules the panel (a browser page) may import: pure TS, no Node, no 'vscode'. An
// allowlist: a new one is a decision, made here.
const WEBVIEW_BROKER = [
  'age.ts',
  'visibleText.ts',
  'contract/protocol.ts',
  'contract/schemas.ts',
  'contract/panelMessages.ts',
  'contract/decidedByText.ts',
  'contract/questionKinds.ts',
  'markdown/markdownTree.ts',
  'markdown/markdownRender.ts',
  'markdown/markdownHighlight.ts',
  'questions/imageFormat.ts',
  'secrets/envVarPolicy.ts',
];

// What the approval hook (dist/approvalHook.js, started once per tool call) is built from: its own
// folder, the wire contract, and each agent's hook-side files in src/agents (the adapter *Hook.ts,
// the transcript reader *Transcript.ts, the registry hookRegistry.ts and the type hookAgent.ts).
const HOOK_SIDE_AGENT_FILES = ['src/agents/**/*Hook.ts', 'src/agents/**/*Transcript.ts', 'src/agents/{hookRegistry,hookAgent}.ts'];
const HOOK_MAY_IMPORT = ['src/hook/**', 'src/broker/contract/{wireNames,eventStream,agentIds,endpointDiscovery}.ts', ...HOOK_SIDE_AGENT_FILES];

const zones = [
  {
    target: src('broker'),
    from: ['extension', 'webview', 'hook', 'mcp', 'agents', 'answerPage'].map(src),
    message: 'The broker is the domain: it imports no adapter (extension, webview, hook, mcp, agents, answerPage).',
  },
  {
    target: src('webview'),
    from: src('broker'),
    except: WEBVIEW_BROKER.map((file) => `./${file}`),
    message: 'The panel may import only the browser-safe broker modules listed in eslint.config.mjs (WEBVIEW_BROKER).',
  },
  {
    target: src('webview'),
    from: ['extension', 'hook', 'mcp', 'agents'].map(src),
    message: 'The panel is browser code: it talks to the host through messages only.',
  },
  {
    target: [src('hook'), ...HOOK_SIDE_AGENT_FILES.map((glob) => join(root, glob))],
    from: join(root, 'src/**'),
    except: HOOK_MAY_IMPORT.map((glob) => join(root, glob)),
    message:
      "The approval hook is Node built-ins and the wire contract only (src/broker/contract/wireNames.ts, eventStream.ts, agentIds.ts, endpointDiscovery.ts) plus the agents' hook-side files.",
  },
  {
    target: src('agents'),
    from: ['extension', 'webview', 'mcp'].map(src),
    message: 'An agent is data and adapters the hook and the MCP server load: it imports neither VS Code adapters, the panel nor the server.',
  },
  {
    target: src('mcp'),
    from: ['extension', 'webview'].map(src),
    message: 'The MCP server runs without VS Code: it imports neither src/extension nor the panel.',
  },
  {
    target: src('answerPage'),
    from: ['extension', 'webview', 'hook', 'mcp', 'agents'].map(src),
    message: 'The answer page server runs without VS Code: it imports the broker only, neither src/extension nor the panel.',
  },
];

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', 'test-results/**', '.vscode-test/**', 'test/fixtures/**/*.js', 'media/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  // Every file, the .mjs scripts too.
  {
    files: ['**/*.ts', '**/*.mts', '**/*.mjs'],
    plugins: { 'import-x': importX, local: { rules: { 'no-import-cycle': noImportCycle } } },
    languageOptions: { globals: globals.node },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.mts', '.mjs', '.js', '.d.ts'] })] },
    rules: {
      'local/no-import-cycle': 'error',
      // As the code writes them: `import { a, type B }`, and `import type { A }` when all are types.
      // `typeof import('…')` stays allowed: it types a bundle loaded with require() on first use.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // `const { dropped, ...rest } = value` is how the code leaves a key out.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
      // require() loads a separately bundled dist/*.js on first use (see esbuild.mjs); import() would be bundled in.
      '@typescript-eslint/no-require-imports': 'off',
      // Stripping and flagging control characters is what those regular expressions are for.
      'no-control-regex': 'off',
      // The invisible-character classes list combining marks (U+1160, U+17B4…) one by one on purpose.
      'no-misleading-character-class': 'off',
    },
  },
  // Type-aware rules, on the TypeScript sources (each file with the nearest tsconfig.json; the .mjs
  // scripts and .d.mts declarations are in no project).
  {
    files: ['**/*.ts'],
    ignores: ['**/*.d.ts'],
    languageOptions: {
      parserOptions: {
        projectService: {
          // The benchmarks are type-checked in test/ui's project, not in the nearest (the root) one.
          allowDefaultProject: ['test/bench/*.ts'],
          defaultProject: 'test/ui/tsconfig.json',
          // Above the default 8: room for more benchmarks (7 today).
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 20,
        },
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ONE_DECISION_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: ONE_DECISION_PATTERNS,
        },
      ],
    },
  },
  {
    // The OpenCode plugin: plain JavaScript that OpenCode loads in Node (handed out as text).
    files: ['src/agents/**/*.js'],
    languageOptions: { globals: globals.node, sourceType: 'module' },
  },
  {
    // A text import's type (textImports.d.ts) must follow the importing file into every project that
    // reaches it (the tests' too), which only a reference in that file does.
    files: ['src/agents/**/*Config.ts'],
    rules: { '@typescript-eslint/triple-slash-reference': ['error', { path: 'always' }] },
  },
  {
    files: ['src/broker/**/*.ts', 'src/mcp/**/*.ts', 'src/agents/**/*.ts', 'src/answerPage/**/*.ts'],
    ignores: ONE_DECISION_FILES,
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE], patterns: ONE_DECISION_PATTERNS }] },
  },
  {
    files: ONE_DECISION_FILES.filter((file) => file.startsWith('src/broker/')),
    rules: { 'no-restricted-imports': ['error', { paths: [NO_VSCODE] }] },
  },
  {
    files: ['src/webview/**/*.ts'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE, ...NODE_BUILTINS.map((name) => ({ name, message: NO_NODE }))],
          patterns: [{ regex: '^node:', message: NO_NODE }],
        },
      ],
    },
  },
  {
    files: ['src/hook/**/*.ts', ...HOOK_SIDE_AGENT_FILES],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_VSCODE],
          patterns: [{ regex: '^(?!node:|\\.)', message: "The approval hook uses Node built-ins ('node:…') and the wire contract only: no packages." }],
        },
      ],
    },
  },
);
