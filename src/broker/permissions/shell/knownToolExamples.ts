// What each known tool's prefix rule covers and what it still asks, as everyday command lines (as
// Codex's policy entries carry `match` / `not_match`). knownToolExamples.test.ts decides every line
// under the tool's own rule remembered as "Always allow", in a workspace holding the files they
// name; docs/permissions.md shows them. A tool in knownTools.ts without examples fails that test.
// The first covered line names the rule (`npm run build` → «npm run build …»). Pure data.

export interface ToolExamples {
  /** Lines the rule allows: known options, paths inside the workspace. */
  covers: readonly string[];
  /** Lines it asks, each showing an edge: an unknown or dangerous option, a path outside, a second target… */
  asks: readonly string[];
}

/** By knownTools.ts key. */
export const KNOWN_TOOL_EXAMPLES: Readonly<Record<string, ToolExamples>> = {
  // ----- read-only git -----
  'git status': {
    covers: ['git status -sb', 'git status --porcelain=v2 src'],
    asks: ['git status ../other', 'git status --untracked-cache'],
  },
  'git log': {
    covers: ['git log --oneline -n 5', 'git log -5 --stat main..feature -- src'],
    asks: ['git log --output=/tmp/log.txt', 'git log -p -- ../other'],
  },
  'git show': {
    covers: ['git show --stat HEAD', 'git show HEAD~2:src/a.ts'],
    asks: ['git show --textconv HEAD:src/a.ts', 'git show HEAD:../other/x'],
  },
  'git diff': {
    covers: ['git diff --cached --stat', 'git diff main -- src/a.ts'],
    asks: ['git diff --output=diff.txt', 'git diff --no-index src/a.ts /etc/passwd'],
  },
  'git grep': {
    covers: ['git grep -n TODO -- src', 'git grep -e foo -e bar src/a.ts'],
    asks: ['git grep --open-files-in-pager=vim foo', 'git grep foo ../other'],
  },
  'git branch': {
    covers: ['git branch -a', 'git branch --list "feat*"'],
    asks: ['git branch evil', 'git branch -D main'],
  },
  'git tag': {
    covers: ['git tag -l "v1*"', 'git tag --sort=-creatordate'],
    asks: ['git tag v2.0', 'git tag -d v1.0'],
  },
  'git rev-parse': {
    covers: ['git rev-parse --abbrev-ref HEAD', 'git rev-parse --show-toplevel'],
    asks: ['git rev-parse --local-env-vars', 'git rev-parse HEAD -- /etc/passwd'],
  },
  'git ls-files': {
    covers: ['git ls-files -m src', 'git ls-files --others --exclude-standard'],
    asks: ['git ls-files --exclude-from=/etc/passwd', 'git ls-files --with-tree=HEAD'],
  },
  'git blame': {
    covers: ['git blame -L 1,20 src/a.ts', 'git blame -w src/a.ts'],
    asks: ['git blame ~/.bashrc', 'git blame --contents /etc/passwd src/a.ts'],
  },

  // ----- reading files and folders -----
  ls: {
    covers: ['ls -la src', 'ls -lh src/a.ts README.md'],
    asks: ['ls ~/.ssh', 'ls -RL docs'],
  },
  cat: {
    covers: ['cat src/a.ts', 'cat -n README.md'],
    asks: ['cat ~/.ssh/id_rsa', 'cat .git/config'],
  },
  head: {
    covers: ['head -n 20 src/a.ts', 'head -5 build.log'],
    asks: ['head /etc/passwd', 'head -n 5 src/a.ts > out.txt'],
  },
  tail: {
    covers: ['tail -n 50 build.log', 'tail -f build.log'],
    asks: ['tail -n 5 ~/.bash_history', 'tail --pid=1 build.log'],
  },
  wc: {
    covers: ['wc -l src/a.ts src/b.ts', 'wc -w README.md'],
    asks: ['wc -l /etc/passwd', 'wc --files0-from=list.txt'],
  },
  grep: {
    covers: ['grep -rn TODO src', "grep -i --include='*.ts' foo src"],
    asks: ['grep -R PRIVATE docs', 'grep root /etc/passwd'],
  },
  rg: {
    covers: ['rg -n TODO src', "rg --hidden -g '*.ts' foo"],
    asks: ['rg --pre ./x.sh foo', 'rg -L key docs'],
  },
  find: {
    covers: ['find src -name "*.ts"', 'find . -type f -newermt 2024-01-01'],
    asks: ['find . -name "*.log" -delete', 'find -L docs -name id_rsa'],
  },
  sort: {
    covers: ['sort -u build.log', 'sort -t, -k2 -n data.csv'],
    asks: ['sort -o out.txt build.log', 'sort --compress-program=gzip build.log'],
  },
  uniq: {
    covers: ['uniq -c build.log', 'uniq -d data.csv'],
    asks: ['uniq build.log out.txt', 'uniq ~/.bash_history'],
  },
  echo: {
    covers: ['echo hello', 'echo -n "build done"'],
    asks: ['echo export X=1 >> ~/.bashrc', 'echo "$(cat ~/.ssh/id_rsa)"'],
  },
  pwd: {
    covers: ['pwd', 'pwd -P'],
    asks: ['pwd src', 'pwd --logical'],
  },
  which: {
    covers: ['which node', 'which -a git'],
    asks: ['which --read-alias node', 'which -i node'],
  },
  stat: {
    covers: ['stat src/a.ts', 'stat -c %s README.md'],
    asks: ['stat ~/.ssh/id_rsa', 'stat -x src/a.ts'],
  },
  du: {
    covers: ['du -sh src', 'du -h --max-depth=1 .'],
    asks: ['du -sh ~', 'du -L docs'],
  },
  tree: {
    covers: ['tree -L 2 src', 'tree -a --dirsfirst src'],
    asks: ['tree -o out.txt src', 'tree -l docs'],
  },
  jq: {
    covers: ['jq -r .name package.json', "jq '.scripts | keys' package.json"],
    asks: ['jq -n env', 'jq --rawfile k ~/.ssh/id_rsa .'],
  },

  // ----- the project's own runners -----
  'npm test': {
    covers: ['npm test', 'npm test -- --grep parser'],
    asks: ['npm test --script-shell=./x.sh', 'npm test -- --require ./x.js'],
  },
  'npm run': {
    covers: ['npm run build', 'npm run build -- --watch'],
    asks: ['npm run lint', 'npm run build -- --loader ./x.mjs'],
  },
  'yarn test': {
    covers: ['yarn test', 'yarn test --verbose src'],
    asks: ['yarn test --config ./x.js', 'yarn test ../other'],
  },
  'yarn run': {
    covers: ['yarn run build', 'yarn run build --watch'],
    asks: ['yarn run deploy', 'yarn run build --out-dir /tmp/x'],
  },
  'pnpm test': {
    covers: ['pnpm test', 'pnpm test --bail'],
    asks: ['pnpm test --reporter ./x.js', 'pnpm test /etc'],
  },
  'pnpm run': {
    covers: ['pnpm run lint', 'pnpm run lint --quiet'],
    asks: ['pnpm run lint --config x', 'pnpm run release'],
  },
  'cargo test': {
    covers: ['cargo test', 'cargo test --release parser -- --nocapture'],
    asks: ['cargo test --config build.rustc-wrapper=x', 'cargo test --manifest-path ../x/Cargo.toml'],
  },
  'cargo build': {
    covers: ['cargo build --release', 'cargo build -p core --locked'],
    asks: ['cargo build --manifest-path ../x/Cargo.toml', 'cargo build --target-dir /tmp/out'],
  },
  'cargo check': {
    covers: ['cargo check', 'cargo check --all-targets'],
    asks: ['cargo check --config x', 'cargo check src'],
  },
  'go test': {
    covers: ['go test ./...', 'go test -run TestParse -v ./pkg/...'],
    asks: ['go test -exec ./x ./...', 'go test example.com/x'],
  },
  'go build': {
    covers: ['go build ./...', 'go build -v ./pkg'],
    asks: ['go build -o /usr/local/bin/x ./...', 'go build -toolexec=x ./...'],
  },
  'go vet': {
    covers: ['go vet ./...', 'go vet -json ./pkg/...'],
    asks: ['go vet -vettool=./x ./...', 'go vet ../other/...'],
  },
  make: {
    covers: ['make test', 'make -j4 test'],
    asks: ['make test install', 'make test -f ../Makefile'],
  },
  pytest: {
    covers: ['pytest tests', 'pytest -x -k parser tests/test_a.py'],
    asks: ['pytest @tests/ci.args tests', 'pytest -p evil'],
  },
  tsc: {
    covers: ['tsc --noEmit', 'tsc --noEmit -p tsconfig.json'],
    asks: ['tsc -p tsconfig.json', 'tsc --noEmit false'],
  },
  eslint: {
    covers: ['eslint src', 'eslint --max-warnings 0 src tests'],
    asks: ['eslint --fix src', 'eslint --plugin x src'],
  },
  prettier: {
    covers: ['prettier --check src', 'prettier -l "src/**/*.ts"'],
    asks: ['prettier --write src', 'prettier --check --plugin ./x.js src'],
  },
  jest: { covers: ['jest', 'jest -t parser src/a.ts'], asks: ['jest --config ../jest.config.js', 'jest --watch'] },
  'vitest run': { covers: ['vitest run', 'vitest run -t parser src'], asks: ['vitest run --reporter ./x.js', 'vitest run /etc'] },
};
