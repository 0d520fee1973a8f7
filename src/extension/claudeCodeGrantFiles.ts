// Reads Claude Code's settings files for this window (the user's, and each workspace folder's
// shared and local ones) and hands them to the broker, which reads and translates the grants.
// Read here; only "Replace with a Narrower Rule…" (replaceAgentGrant.ts) writes to them, after a preview.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { shellBundle } from './shellBundle';
import type { ClaudeCodeSettingsFile, GrantFileProblem } from '../broker/permissions/agentGrants/claudeCodeGrants';
import type { TranslatedGrant } from '../broker/permissions/agentGrants/claudeCodeGrantMeaning';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';

/** Claude Code's settings files for this window: the user's (CLAUDE_CONFIG_DIR when set, else ~/.claude), and each folder's shared and local ones. */
export function claudeCodeSettingsFiles(): Array<{ uri: vscode.Uri; scope: ClaudeCodeSettingsFile['scope']; folder?: string }> {
  const userFolder = process.env['CLAUDE_CONFIG_DIR'] || join(homedir(), '.claude');
  return [
    { uri: vscode.Uri.file(join(userFolder, 'settings.json')), scope: 'user' },
    ...(vscode.workspace.workspaceFolders ?? []).flatMap((folder) => [
      { uri: vscode.Uri.joinPath(folder.uri, '.claude', 'settings.json'), scope: 'project' as const, folder: folder.uri.fsPath },
      { uri: vscode.Uri.joinPath(folder.uri, '.claude', 'settings.local.json'), scope: 'local' as const, folder: folder.uri.fsPath },
    ]),
  ];
}

export async function claudeCodeGrants(permissions: RememberedPermissions): Promise<{ grants: TranslatedGrant[]; problems: GrantFileProblem[] }> {
  const files = await Promise.all(
    claudeCodeSettingsFiles().map(async ({ uri, scope, folder }) => ({ path: uri.fsPath, scope, ...(folder !== undefined ? { folder } : {}), text: await textOf(uri) })),
  );
  // The translation lives in dist/shell.js with the command rules.
  return shellBundle().claudeCodeLedger(files, await permissions.ready(), permissions.pathContext());
}

/** The file's text, or undefined when there is none (or it cannot be read). */
export async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
