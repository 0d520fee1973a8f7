// Every agent's own grants for this window, each said in our words: Claude Code's, Codex's,
// OpenCode's and VS Code's, in that order. Pure: the extension reads the files and settings.
import type { CommandChecker } from '../permissionRules';
import type { PathContext } from '../toolPaths';
import type { AgentLedger } from './agentGrant';
import { claudeCodeLedger } from './claudeCodeGrantMeaning';
import type { ClaudeCodeSettingsFile } from './claudeCodeGrants';
import { codexLedger } from './codexGrantMeaning';
import type { CodexFile } from './codexGrants';
import { openCodeLedger } from './openCodeGrantMeaning';
import type { OpenCodeFile } from './openCodeGrants';
import { vsCodeLedger } from './vsCodeGrantMeaning';
import type { VsCodeSettings } from './vsCodeGrants';

export interface AgentStores {
  claudeCode: readonly ClaudeCodeSettingsFile[];
  codex: readonly CodexFile[];
  openCode: readonly OpenCodeFile[];
  vsCode: readonly VsCodeSettings[];
}

export function agentLedger(stores: AgentStores, checker: CommandChecker | undefined, context: PathContext): AgentLedger {
  const ledgers = [
    claudeCodeLedger(stores.claudeCode, checker, context),
    codexLedger(stores.codex, checker, context),
    openCodeLedger(stores.openCode, checker, context),
    vsCodeLedger(stores.vsCode, checker, context),
  ];
  return { grants: ledgers.flatMap((l) => l.grants), problems: ledgers.flatMap((l) => l.problems) };
}
