// The known tools that run this workspace's own code: a rule that allows one allows whatever that
// code does, now and after every edit. The card, the offered rule, the protected set (what decides
// what a runner runs) and the sandbox a runner rule is confined to all read this one table.
// Keys are knownTools.ts keys (`npm test`, `make`, `git status`). Pure data; no `vscode`.

export interface Runner {
  /** What it runs, in the card's words: "package.json's scripts". */
  runs: string;
  /**
   * Files and folders (relative to the folder the runner starts in) whose content decides what it
   * runs: a trailing `/` is a folder, `*` any run of characters within one name.
   */
  decidedBy: readonly string[];
}

const PACKAGE_SCRIPTS: Runner = { runs: "package.json's scripts", decidedBy: ['package.json', '.npmrc'] };
const CARGO: Runner = { runs: 'the crate and its build script', decidedBy: ['Cargo.toml', 'build.rs', '.cargo/'] };
const GO: Runner = { runs: 'the module and its tests', decidedBy: ['go.mod', 'go.work'] };
/** git runs the repository's fsmonitor when it refreshes the index (status, diff). */
const GIT_INDEX: Runner = { runs: "the repository's core.fsmonitor program, if set", decidedBy: ['.git/config'] };

export const RUNNERS: Readonly<Record<string, Runner>> = {
  'npm test': PACKAGE_SCRIPTS,
  'npm run': PACKAGE_SCRIPTS,
  'yarn test': PACKAGE_SCRIPTS,
  'yarn run': PACKAGE_SCRIPTS,
  'pnpm test': PACKAGE_SCRIPTS,
  'pnpm run': PACKAGE_SCRIPTS,
  'cargo test': CARGO,
  'cargo build': CARGO,
  'cargo check': CARGO,
  'go test': GO,
  'go build': GO,
  'go vet': GO,
  make: { runs: "the Makefile's recipes", decidedBy: ['Makefile', 'makefile', 'GNUmakefile', '*.mk'] },
  pytest: { runs: 'the tests and conftest.py', decidedBy: ['conftest.py', 'pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg'] },
  tsc: { runs: 'the compiler on tsconfig', decidedBy: ['tsconfig.json', 'tsconfig.*.json'] },
  eslint: { runs: 'the ESLint configuration and its plugins', decidedBy: ['eslint.config.*', '.eslintrc*'] },
  prettier: { runs: 'the Prettier configuration and its plugins', decidedBy: ['prettier.config.*', '.prettierrc*'] },
  jest: { runs: 'the tests and the Jest configuration', decidedBy: ['jest.config.*', 'package.json'] },
  'vitest run': { runs: 'the tests and the Vitest or Vite configuration', decidedBy: ['vitest.config.*', 'vite.config.*', 'vitest.workspace.*', 'package.json'] },
  'git status': GIT_INDEX,
  'git diff': GIT_INDEX,
};

/** The runner a known-tool key stands for (`npm run build` → `npm run`, `make test` → `make`), if it runs the workspace's code. */
export function runnerFor(key: string): Runner | undefined {
  const words = key.trim().split(/\s+/);
  return RUNNERS[words.slice(0, 2).join(' ')] ?? RUNNERS[words[0] ?? ''];
}
