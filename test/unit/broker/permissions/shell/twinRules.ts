// Decides a later command under each rule the prompt offers for its twin, each remembered alone, with
// paths placed by real path in a scratch workspace (as alwaysAllowCorpus.test.ts does through the
// store). Shared by operandInstructions.test.ts and everydayCommands.test.ts.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decideCommandLine, offeredRules } from '../../../../../src/broker/permissions/shell/commandRules';
import { loadShellParser, SHELL_WASM_FILES, type ShellParser } from '../../../../../src/broker/permissions/shell/shellCommand';
import { commandPlaces } from '../../../../../src/broker/permissions/agentFolder';
import { expandGlob, hasBinIn, realPathOf } from '../../../../../src/extension/realPath';
import { ROOT } from '../../../helpers/repoRoot';

const WASM = join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm');

export interface Twins {
  ws: string;
  home: string;
  /** Labels of the rules offered for `twin` (none: the test proves nothing). */
  offered(twin: string): string[];
  /** Labels of the rules offered for `twin` that, each alone, allow `later`. */
  allowing(twin: string, later: string): string[];
  dispose(): void;
}

/** A workspace with src/, tests/ and `docs/keys -> ~/.ssh` (a link a repository can ship), and a home with ~/.ssh/id_rsa. */
export async function loadTwins(): Promise<Twins> {
  const parser: ShellParser = await loadShellParser({ treeSitterWasm: join(WASM, SHELL_WASM_FILES.treeSitter), bashWasm: join(WASM, SHELL_WASM_FILES.bash) });
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'aq-twins-')));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  for (const dir of [join(ws, 'src'), join(ws, 'tests'), join(ws, 'docs'), join(home, '.ssh')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(ws, 'src', 'a.ts'), '');
  writeFileSync(join(home, '.ssh', 'id_rsa'), '');
  symlinkSync(join(home, '.ssh'), join(ws, 'docs', 'keys'));
  // The extension's own probes: real paths, what a glob matches, what npx finds installed.
  const places = commandPlaces({ workspaceFolders: [ws], home, realPath: realPathOf, expandGlob, hasBinIn });
  const offers = (twin: string) => offeredRules(twin, parser.parse(twin), {}, places);
  return {
    ws,
    home,
    offered: (twin) => offers(twin).map((o) => o.label),
    allowing: (twin, later) =>
      offers(twin)
        .filter((rule) => decideCommandLine(later, parser.parse(later), { [rule.key]: rule.value }, places).decision === 'allow')
        .map((rule) => rule.label),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
