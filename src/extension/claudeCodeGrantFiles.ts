// Reads Claude Code's settings files for this window (the user's, and each workspace folder's
// shared and local ones) and hands them to the broker, which reads and translates the grants.
// Read-only: nothing is ever written back to them.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type * as ShellModule from './shellModule';
import type { ClaudeCodeSettingsFile, GrantFileProblem } from '../broker/permissions/agentGrants/claudeCodeGrants';
import type { TranslatedGrant } from '../broker/permissions/agentGrants/claudeCodeGrantMeaning';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';

export async function claudeCodeGrants(permissions: RememberedPermissions): Promise<{ grants: TranslatedGrant[]; problems: GrantFileProblem[] }> {
  // Claude Code keeps its user settings in CLAUDE_CONFIG_DIR when set, else ~/.claude.
  const userFolder = process.env['CLAUDE_CONFIG_DIR'] || join(homedir(), '.claude');
  const wanted: Array<{ uri: vscode.Uri; scope: ClaudeCodeSettingsFile['scope']; folder?: string }> = [
    { uri: vscode.Uri.file(join(userFolder, 'settings.json')), scope: 'user' },
    ...(vscode.workspace.workspaceFolders ?? []).flatMap((folder) => [
      { uri: vscode.Uri.joinPath(folder.uri, '.claude', 'settings.json'), scope: 'project' as const, folder: folder.uri.fsPath },
      { uri: vscode.Uri.joinPath(folder.uri, '.claude', 'settings.local.json'), scope: 'local' as const, folder: folder.uri.fsPath },
    ]),
  ];
  const files = await Promise.all(
    wanted.map(async ({ uri, scope, folder }) => ({ path: uri.fsPath, scope, ...(folder !== undefined ? { folder } : {}), text: await textOf(uri) })),
  );
  // A computed path, so esbuild leaves the require alone: the translation lives in dist/shell.js with the command rules.
  const shell = require(join(__dirname, 'shell.js')) as typeof ShellModule;
  return shell.claudeCodeLedger(files, await permissions.ready(), permissions.pathContext());
}

/** The file's text, or undefined when there is none (or it cannot be read). */
async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
