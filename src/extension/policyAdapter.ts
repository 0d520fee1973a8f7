// The broker's availability policy, fed from VS Code: settings, the environment, workspace state,
// and the scripted-answers file.
import * as vscode from 'vscode';
import type { Policy } from '../broker/askWithPolicy';
import { isUnattendedEnvironment, routeFor } from '../broker/policy';
import { RememberedPermissions } from '../broker/rememberedPermissions';
import { parseAnswersFile, type ParsedAnswersFile } from '../broker/scriptedAnswers';
import { readSettings } from './settings';

export function createPolicy(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Policy {
  let lastReportedError: string | undefined;
  const report = (result: ParsedAnswersFile): ParsedAnswersFile => {
    // One clear error per distinct problem, not one per question asked.
    if (!result.ok && result.error !== lastReportedError) {
      lastReportedError = result.error;
      log.error(result.error);
      void vscode.window.showErrorMessage(vscode.l10n.t('Agent Questions: {0} Nothing is answered from it until it is fixed.', result.error), vscode.l10n.t('Open Settings')).then((choice) => {
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
    permissions: new RememberedPermissions(context.workspaceState),
  };
}

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
