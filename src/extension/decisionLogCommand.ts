// Export Decision Log…: the history, with who decided each request, as JSON Lines (decisionLog.ts)
// in a file the user picks. Tests and other extensions may pass the target (a Uri or a URI string)
// to skip the dialog; the command then returns how many lines it wrote.
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { decisionLog } from '../broker/decisionLog';
import type { History } from '../broker/history';

export const DECISION_LOG_NAME = 'agent-questions-decisions.jsonl';

export function registerDecisionLogCommand(context: vscode.ExtensionContext, history: History): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.exportDecisionLog', async (target?: unknown): Promise<number | undefined> => {
      const given = target instanceof vscode.Uri ? target : typeof target === 'string' && target ? vscode.Uri.parse(target, true) : undefined;
      const entries = history.list();
      if (!given && entries.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no request has been settled in this workspace yet.'));
        return undefined;
      }
      const uri =
        given ??
        (await vscode.window.showSaveDialog({
          title: vscode.l10n.t('Agent Questions: Export Decision Log'),
          saveLabel: vscode.l10n.t('Export'),
          defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir()), DECISION_LOG_NAME),
          filters: { [vscode.l10n.t('JSON Lines')]: ['jsonl'] },
        }));
      if (!uri) return undefined;
      try {
        await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(decisionLog(entries)));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Questions: could not write the decision log to {0}: {1}', uriText(uri), why));
        return undefined;
      }
      const open = vscode.l10n.t('Open');
      // Not awaited: a test (or another extension) gets the count without waiting for the notification.
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: the decision log is saved in {0}.', uriText(uri)), open).then((choice) => {
        if (choice === open) void vscode.window.showTextDocument(uri);
      });
      return entries.length;
    }),
  );
}

const uriText = (uri: vscode.Uri): string => (uri.scheme === 'file' ? uri.fsPath : uri.toString(true));
