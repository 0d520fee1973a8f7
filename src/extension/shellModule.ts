// The entry of dist/shell.js: the shell parser (tree-sitter's bash grammar) and the command rules,
// bundled apart and loaded on the first shell command a permission prompt decides, so activation
// never pays for them.
import { join } from 'node:path';
import { analyseCommandLine, decideAnalysed, offersFor } from '../broker/permissions/shell/commandRules';
import type { CommandChecker } from '../broker/permissions/permissionRules';
import { loadShellParser, SHELL_WASM_FILES } from '../broker/permissions/shell/shellCommand';
import { workspaceFilesIn } from '../broker/permissions/workspaceFiles';
import { diskReader } from './diskReader';

/** The parser (from the WASM files beside this bundle in dist/) and the rules that use it. */
export async function loadCommandChecker(dist: string): Promise<CommandChecker> {
  const parser = await loadShellParser({ treeSitterWasm: join(dist, SHELL_WASM_FILES.treeSitter), bashWasm: join(dist, SHELL_WASM_FILES.bash) });
  return {
    parse: (line) => parser.parse(line),
    analyse: analyseCommandLine,
    decide: decideAnalysed,
    offer: offersFor,
    // Read from the disk here, in the lazily loaded bundle: activation never pays for it.
    files: (folder) => workspaceFilesIn(folder, diskReader),
  };
}

// Every agent's own grants, said in our words: read with the command rules this bundle holds.
export { agentLedger } from '../broker/permissions/agentGrants/agentLedger';
// Taking a grant broader than ours out of Claude Code's settings, with our narrower rule instead.
export { claudeCodeGrantReplacement } from '../broker/permissions/agentGrants/claudeCodeGrantReplacement';
