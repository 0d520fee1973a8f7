// Each known tool's examples (knownToolExamples.ts), decided under the tool's own prefix rule
// remembered as "Always allow", with paths placed by real path in a scratch workspace holding the
// files they name; and the tables checked against each other: no option a known tool allows is a
// dangerous argument, and a covered line of a tool that runs no workspace code has no effects.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { summarizeCommandLine } from '../../../../../src/broker/permissions/shell/commandEffects';
import { decideCommandLine, type CommandContext } from '../../../../../src/broker/permissions/shell/commandRules';
import { findDangerousArgument } from '../../../../../src/broker/permissions/shell/dangerousArguments';
import { KNOWN_TOOL_EXAMPLES } from '../../../../../src/broker/permissions/shell/knownToolExamples';
import { FORWARDED, KNOWN_TOOLS, knownPrefixFor, specForPrefix, type ToolSpec } from '../../../../../src/broker/permissions/shell/knownTools';
import { runnerFor } from '../../../../../src/broker/permissions/shell/runners';
import { loadShellParser, SHELL_WASM_FILES, type ShellParser } from '../../../../../src/broker/permissions/shell/shellCommand';
import { placeOf } from '../../../../../src/broker/permissions/toolPaths';
import { workspaceFilesIn } from '../../../../../src/broker/permissions/workspaceFiles';
import { diskReader } from '../../../../../src/extension/diskReader';
import { realPathOf } from '../../../../../src/extension/realPath';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');

/** The files the examples name, inside the workspace. */
const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'tests/test_a.py': 'def test_a():\n    assert True\n',
  'pkg/a.go': 'package pkg\n',
  'README.md': '# x\n',
  'build.log': 'ok\n',
  'data.csv': 'a,1\nb,2\n',
  'package.json': JSON.stringify({ name: 'x', scripts: { test: 'mocha', build: 'tsc -p .', lint: 'eslint src' } }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true } }),
  Makefile: 'test:\n\tmocha\n',
};

suite('known tools: the examples each one covers and asks', () => {
  let parser: ShellParser;
  let root: string;
  let context: CommandContext;
  suiteSetup(async () => {
    parser = await loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });
    root = realpathSync(mkdtempSync(join(tmpdir(), 'aq-examples-')));
    const ws = join(root, 'ws');
    const home = join(root, 'home');
    for (const [path, text] of Object.entries(WORKSPACE_FILES)) {
      mkdirSync(join(ws, path, '..'), { recursive: true });
      writeFileSync(join(ws, path), text);
    }
    mkdirSync(join(ws, 'docs'), { recursive: true });
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), '');
    // A link a repository can ship: the link-following options must not read through it.
    symlinkSync(join(home, '.ssh'), join(ws, 'docs', 'keys'));
    const where = { workspaceFolders: [ws], home, realPath: realPathOf };
    context = { classify: (path, from) => placeOf(path, where, from), files: workspaceFilesIn(ws, diskReader)! };
  });
  suiteTeardown(() => rmSync(root, { recursive: true, force: true }));

  /** The rule the tool's first covered line offers: the tool's key, or `npm run build`, `make test`. */
  const ruleOf = (tool: string): string | undefined => {
    const first = KNOWN_TOOL_EXAMPLES[tool]?.covers[0];
    const parsed = first === undefined ? undefined : parser.parse(first);
    return parsed?.ok ? knownPrefixFor(parsed.commands[0]?.words ?? []) : undefined;
  };

  test('every known tool has at least 2 covered and 2 asked examples, and every example names a known tool', () => {
    const missing = Object.keys(KNOWN_TOOLS).filter((tool) => (KNOWN_TOOL_EXAMPLES[tool]?.covers.length ?? 0) < 2 || (KNOWN_TOOL_EXAMPLES[tool]?.asks.length ?? 0) < 2);
    assert.deepEqual(missing, [], 'add covered and asked examples to knownToolExamples.ts for these tools');
    assert.deepEqual(
      Object.keys(KNOWN_TOOL_EXAMPLES).filter((tool) => !Object.hasOwn(KNOWN_TOOLS, tool)),
      [],
      'examples for a tool knownTools.ts does not have',
    );
  });

  test("each tool's first covered example names the tool's own rule", () => {
    const wrong = Object.keys(KNOWN_TOOL_EXAMPLES).filter((tool) => {
      const rule = ruleOf(tool);
      return rule === undefined || specForPrefix(rule)?.spec !== KNOWN_TOOLS[tool];
    });
    assert.deepEqual(wrong, []);
  });

  test("under the tool's own rule, each covered example is allowed and each asked one is asked", () => {
    const failures: string[] = [];
    for (const [tool, examples] of Object.entries(KNOWN_TOOL_EXAMPLES)) {
      const rule = ruleOf(tool) ?? tool;
      const decide = (line: string) => decideCommandLine(line, parser.parse(line), { [rule]: true }, context);
      for (const line of examples.covers) {
        const decision = decide(line);
        if (decision.decision !== 'allow') failures.push(`«${rule} …» should cover ${line}: ${decision.reason}`);
      }
      for (const line of examples.asks) {
        const decision = decide(line);
        if (decision.decision !== 'ask') failures.push(`«${rule} …» should ask ${line}: ${decision.decision}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('no option a known tool allows is in the dangerous-argument table for that tool', () => {
    const dangerous: string[] = [];
    for (const [tool, spec] of Object.entries(KNOWN_TOOLS)) {
      // The words before an option: the rule's prefix (with a script or target where it names one).
      const prefix = (ruleOf(tool) ?? tool).split(' ');
      const check = (options: readonly string[], before: readonly string[]) => {
        for (const option of options) {
          const danger = findDangerousArgument([...prefix, ...before, option]);
          if (danger) dangerous.push(`${tool} allows ${option}, but: ${danger.why}`);
        }
      };
      check(optionWords(spec), []);
      if (spec.afterDashDash === 'forwarded') check(optionWords(FORWARDED), ['--']);
      if (spec.forwardsAll) check(optionWords(FORWARDED), []);
    }
    assert.deepEqual(dangerous, []);
  });

  test('a covered example of a tool that runs no workspace code writes nothing, deletes nothing and reaches no network', () => {
    const wrong: string[] = [];
    for (const [tool, examples] of Object.entries(KNOWN_TOOL_EXAMPLES)) {
      if (runnerFor(tool)) continue;
      for (const line of examples.covers) {
        const card = summarizeCommandLine(parser.parse(line), context.classify!, context.files);
        if (!/\bWrites nothing, no network, deletes nothing\.$/.test(card)) wrong.push(`${line}: ${card}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});

/** Every option a spec allows, spelled as the tool takes it. */
function optionWords(spec: ToolSpec): string[] {
  const dash = spec.singleDash ? '-' : '--';
  return [...Object.keys(spec.short ?? {}).map((letter) => `-${letter}`), ...Object.keys(spec.long ?? {}).map((name) => `${dash}${name}`)];
}
