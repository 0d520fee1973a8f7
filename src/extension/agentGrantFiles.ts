// Reads every agent's own store for this window (Claude Code's settings, Codex's rules and
// config.toml, OpenCode's configuration, VS Code's auto-approve settings at user and workspace
// level) and hands them to the broker, which reads and translates the grants. Read-only: nothing
// is ever written back to them.
import * as vscode from 'vscode';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type * as ShellModule from './shellModule';
import type { AgentLedger, GrantFile } from '../broker/permissions/agentGrants/agentGrant';
import type { ClaudeCodeScope } from '../broker/permissions/agentGrants/claudeCodeGrants';
import type { CodexFile } from '../broker/permissions/agentGrants/codexGrants';
import { VS_CODE_GRANT_SETTINGS, type VsCodeSettings } from '../broker/permissions/agentGrants/vsCodeGrants';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';

type Wanted<Scope> = { uri: vscode.Uri; scope: Scope; folder?: string };

const folders = () => vscode.workspace.workspaceFolders ?? [];
const inFolder = <Scope>(folder: vscode.WorkspaceFolder, scope: Scope, ...path: string[]): Wanted<Scope> => ({
  uri: vscode.Uri.joinPath(folder.uri, ...path),
  scope,
  folder: folder.uri.fsPath,
});

/** Claude Code keeps its user settings in CLAUDE_CONFIG_DIR when set, else ~/.claude. */
function claudeCodeFiles(): Wanted<ClaudeCodeScope>[] {
  const user = process.env['CLAUDE_CONFIG_DIR'] || join(homedir(), '.claude');
  return [
    { uri: vscode.Uri.file(join(user, 'settings.json')), scope: 'user' },
    ...folders().flatMap((folder) => [inFolder(folder, 'project' as const, '.claude', 'settings.json'), inFolder(folder, 'local' as const, '.claude', 'settings.local.json')]),
  ];
}

/** Codex's home (CODEX_HOME, else ~/.codex) and each folder's .codex/: a config.toml and a rules/ folder of *.rules files. */
function codexHomes(): Wanted<CodexFile['scope']>[] {
  return [
    { uri: vscode.Uri.file(process.env['CODEX_HOME'] || join(homedir(), '.codex')), scope: 'user' },
    ...folders().map((folder) => inFolder(folder, 'project' as const, '.codex')),
  ];
}

/** OPENCODE_CONFIG when set, the user's configuration folder, and each folder's top and .opencode/. */
function openCodeFiles(): Wanted<'user' | 'project'>[] {
  const user = join(process.env['XDG_CONFIG_HOME'] || join(homedir(), '.config'), 'opencode');
  const names = ['opencode.json', 'opencode.jsonc'];
  return [
    ...(process.env['OPENCODE_CONFIG'] ? [{ uri: vscode.Uri.file(process.env['OPENCODE_CONFIG']), scope: 'user' as const }] : []),
    ...[...names, 'config.json'].map((name) => ({ uri: vscode.Uri.file(join(user, name)), scope: 'user' as const })),
    ...folders().flatMap((folder) => names.flatMap((name) => [inFolder(folder, 'project' as const, name), inFolder(folder, 'project' as const, '.opencode', name)])),
  ];
}

/** Where VS Code keeps the workspace's settings: the .code-workspace file, else the first folder's .vscode/settings.json. */
function workspaceSettingsUri(): vscode.Uri | undefined {
  const file = vscode.workspace.workspaceFile;
  if (file?.scheme === 'file') return file;
  const first = folders()[0];
  return first ? vscode.Uri.joinPath(first.uri, '.vscode', 'settings.json') : undefined;
}

/**
 * Every file a CLI agent's store lives in for this window, whether or not it exists (for the watcher
 * that announces new grants). Codex's rules are given as their folders (every *.rules file in them is
 * read). VS Code's own settings are not listed: their grants are shown in the ledger, never announced,
 * so a workspace with only a .vscode/settings.json reads nothing when it opens.
 */
export function agentGrantFileUris(): vscode.Uri[] {
  return [
    ...claudeCodeFiles().map((w) => w.uri),
    ...codexHomes().flatMap((home) => [vscode.Uri.joinPath(home.uri, 'config.toml'), vscode.Uri.joinPath(home.uri, 'rules')]),
    ...openCodeFiles().map((w) => w.uri),
  ];
}

/** Every agent's grants for this window, translated; `globalStorage` places VS Code's user settings file (User/globalStorage/<id> → User/settings.json). */
export async function agentGrants(permissions: RememberedPermissions, globalStorage?: vscode.Uri): Promise<AgentLedger> {
  const [claudeCode, codex, openCode] = await Promise.all([read(claudeCodeFiles()), codexFiles(), read(openCodeFiles())]);
  const settings = VS_CODE_GRANT_SETTINGS.map((key) => [key, vscode.workspace.getConfiguration().inspect(key)] as const);
  const level = (scope: VsCodeSettings['scope'], uri: vscode.Uri | undefined, pick: 'globalValue' | 'workspaceValue'): VsCodeSettings => ({
    path: uri?.fsPath ?? '',
    scope,
    values: Object.fromEntries(settings.map(([key, inspected]) => [key, inspected?.[pick]])),
  });
  const vsCode = [
    level('user', globalStorage && vscode.Uri.joinPath(globalStorage, '..', '..', 'settings.json'), 'globalValue'),
    level('workspace', workspaceSettingsUri(), 'workspaceValue'),
  ];
  // A computed path, so esbuild leaves the require alone: the translation lives in dist/shell.js with the command rules.
  const shell = require(join(__dirname, 'shell.js')) as typeof ShellModule;
  return shell.agentLedger({ claudeCode, codex, openCode, vsCode }, await permissions.ready(), permissions.pathContext());
}

/** Each home's config.toml and the *.rules files of its rules/ folder, in name order. */
async function codexFiles(): Promise<CodexFile[]> {
  const homes = await Promise.all(
    codexHomes().map(async (home) => {
      const rules = vscode.Uri.joinPath(home.uri, 'rules');
      const names = await vscode.workspace.fs.readDirectory(rules).then(
        (entries) =>
          entries
            .filter(([name, type]) => name.endsWith('.rules') && type !== vscode.FileType.Directory)
            .map(([name]) => name)
            .sort(),
        () => [],
      );
      const [config, ...ruleFiles] = await read([
        { ...home, uri: vscode.Uri.joinPath(home.uri, 'config.toml') },
        ...names.map((name) => ({ ...home, uri: vscode.Uri.joinPath(rules, name) })),
      ]);
      return [{ ...config!, kind: 'config' as const }, ...ruleFiles.map((file) => ({ ...file, kind: 'rules' as const }))];
    }),
  );
  return homes.flat();
}

async function read<Scope extends GrantFile['scope']>(wanted: Wanted<Scope>[]): Promise<GrantFile<Scope>[]> {
  return Promise.all(wanted.map(async ({ uri, scope, folder }) => ({ path: uri.fsPath, scope, ...(folder !== undefined ? { folder } : {}), text: await textOf(uri) })));
}

/** The file's text, or undefined when there is none (or it cannot be read). */
async function textOf(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
