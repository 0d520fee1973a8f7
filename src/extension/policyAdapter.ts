// The broker's availability policy, fed from VS Code: settings, the environment, workspace state,
// and the scripted-answers file.
import * as vscode from 'vscode';
import type { Policy } from '../broker/askWithPolicy';
import { isUnattendedEnvironment, routeFor } from '../broker/policy';
import type { CommandRules, CommandRuleValue } from '../broker/permissions/shell/commandRules';
import { memoryStore, RememberedPermissions, type SettingsRules } from '../broker/permissions/rememberedPermissions';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import type { PathContext } from '../broker/permissions/toolPaths';
import { expandGlob, hasBinIn, ignoresCase, isBareRepository, realPathOf } from './realPath';
import { isRepositoryTop } from './repositoryTop';
import { shellBundle } from './shellBundle';
import { parseAnswersFile, type ParsedAnswersFile } from '../broker/scriptedAnswers';
import { readSettings } from './settings';

export function createPolicy(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, now: () => number): Policy {
  let lastReportedError: string | undefined;
  const report = (result: ParsedAnswersFile): ParsedAnswersFile => {
    // One clear error per distinct problem, not one per question asked.
    if (!result.ok && result.error !== lastReportedError) {
      lastReportedError = result.error;
      log.error(result.error);
      void vscode.window
        .showErrorMessage(vscode.l10n.t('Agent Questions: {0} Nothing is answered from it until it is fixed.', result.error), vscode.l10n.t('Open Settings'))
        .then((choice) => {
          if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'agentQuestions.answersFile');
        });
    }
    if (result.ok) lastReportedError = undefined;
    return result;
  };

  return {
    route: () =>
      routeFor({
        mode: readSettings().mode,
        unattended: isUnattendedEnvironment(process.env),
        // An extension host always serves a window that can show the panel.
        canShowPanel: true,
      }),
    loadAnswersFile: async () => report(await loadAnswersFile()),
    permissions: new RememberedPermissions(
      // This session: gone when the window reloads. This workspace and all workspaces: the extension's own state, never a file in the workspace.
      { session: memoryStore(), workspace: context.workspaceState, user: context.globalState },
      {
        settings: settingsRules,
        loadChecker: () => shellBundle().loadCommandChecker(__dirname),
        workspaceFolders: fileFolders,
        pathContext: pathContextFor(context),
        now,
        log: (message) => log.warn(message),
      },
    ),
  };
}

const fileFolders = () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);

/** Where paths really are, for the path rules: home, VS Code's User folder, the file system's case, symlinks. */
function pathContextFor(context: vscode.ExtensionContext): () => PathContext {
  // globalStorageUri is <User>/globalStorage/<publisher.name> (VS Code's globalStorageHome is <User>/globalStorage, in
  // every profile): two levels up is the User folder, with settings.json, mcp.json and profiles/<id>/ for other profiles.
  const userSettingsFolder = context.globalStorageUri.scheme === 'file' ? dirname(dirname(context.globalStorageUri.fsPath)) : undefined;
  const home = homedir();
  const caseOf = new Map<string, boolean>();
  return () => {
    const workspaceFolders = fileFolders();
    // Tested once per folder: macOS and Windows volumes usually ignore case, but not always.
    const probe = workspaceFolders[0] ?? home;
    if (!caseOf.has(probe)) caseOf.set(probe, ignoresCase(probe));
    return {
      workspaceFolders,
      home,
      ...(userSettingsFolder ? { userSettingsFolder } : {}),
      caseInsensitive: caseOf.get(probe)!,
      realPath: realPathOf,
      isRepositoryTop,
      isBareRepository,
      expandGlob,
      hasBinIn,
    };
  };
}

const isRuleValue = (value: unknown): value is CommandRuleValue =>
  typeof value === 'boolean' || (typeof value === 'object' && value !== null && typeof (value as { approve?: unknown }).approve === 'boolean');

/** The entries of a settings object that are rules; with `denyOnly`, only its deny entries. */
function rulesIn(value: unknown, denyOnly = false): CommandRules {
  const rules: CommandRules = {};
  if (typeof value !== 'object' || value === null) return rules;
  for (const [key, rule] of Object.entries(value)) {
    if (!isRuleValue(rule)) continue;
    const approves = typeof rule === 'boolean' ? rule : rule.approve;
    if (!denyOnly || !approves) rules[key] = rule;
  }
  return rules;
}

/**
 * Command rules from settings. Allow entries count only in the user's settings: the workspace's
 * settings (.vscode/settings.json, a .code-workspace file) are files an agent can write, so they
 * may add deny entries and nothing else.
 */
const settingsRules: SettingsRules = {
  user: () => rulesIn(vscode.workspace.getConfiguration('agentQuestions').inspect('permissions.autoApprove')?.globalValue),
  workspaceDeny: () => {
    const inspected = vscode.workspace.getConfiguration('agentQuestions').inspect('permissions.autoApprove');
    return { ...rulesIn(inspected?.workspaceValue, true), ...rulesIn(inspected?.workspaceFolderValue, true) };
  },
  terminal: () => {
    const honour = vscode.workspace.getConfiguration('agentQuestions').inspect<boolean>('permissions.honorTerminalAutoApprove')?.globalValue === true;
    if (!honour) return {};
    const inspected = vscode.workspace.getConfiguration('chat.tools.terminal').inspect('autoApprove');
    return { ...rulesIn(inspected?.globalValue), ...rulesIn(inspected?.workspaceValue, true) };
  },
  setUser: async (key, value) => {
    const config = vscode.workspace.getConfiguration('agentQuestions');
    const current = { ...(config.inspect<Record<string, unknown>>('permissions.autoApprove')?.globalValue ?? {}) };
    if (value === undefined) delete current[key];
    else current[key] = value;
    await config.update('permissions.autoApprove', current, vscode.ConfigurationTarget.Global);
  },
};

async function loadAnswersFile(): Promise<ParsedAnswersFile> {
  const setting = readSettings().answersFile;
  if (!setting) return { ok: false, error: vscode.l10n.t('Mode "answersFile" is on, but the setting agentQuestions.answersFile is empty.') };
  const uri = resolvePath(setting);
  if (!uri) return { ok: false, error: vscode.l10n.t('The answers file path "{0}" is relative, but no workspace folder is open.', setting) };
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return { ok: false, error: vscode.l10n.t('The answers file {0} cannot be read.', setting) };
  }
  return parseAnswersFile(new TextDecoder().decode(bytes), setting);
}

function resolvePath(path: string): vscode.Uri | undefined {
  if (path.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(path)) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}
