// Remembered "Always allow" rules: list them with their source and forget one, or all.
import * as vscode from 'vscode';
import type { RememberedPermissions } from '../broker/rememberedPermissions';
import { uiText } from '../broker/visibleText';
import { localizedAge } from './localizedAge';

export function registerPermissionCommands(context: vscode.ExtensionContext, permissions: RememberedPermissions): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.clearRememberedPermissions', async () => {
      await permissions.clear();
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: remembered "Always allow" permissions were cleared for this workspace.'));
    }),
    // Other extensions and tests may pass { forget: KEY } (no prompt).
    vscode.commands.registerCommand('agentQuestions.manageRememberedPermissions', async (options?: { forget?: string }) => {
      if (options?.forget !== undefined) return permissions.forget(options.forget);
      const rules = permissions.list();
      if (rules.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no "Always allow" rule is remembered in this workspace.'));
      const clearAll = { label: `$(clear-all) ${vscode.l10n.t('Forget All')}`, description: vscode.l10n.t('{0} remembered', rules.length), key: undefined };
      const picked = await vscode.window.showQuickPick(
        [
          ...rules.map((rule) => ({
            label: uiText(rule.label, 100),
            description: vscode.l10n.t('granted to {0} (as it named itself) · {1}', uiText(rule.source, 60), localizedAge(rule.createdAt)),
            detail: uiText(rule.description, 200),
            key: rule.key,
          })),
          clearAll,
        ],
        { title: vscode.l10n.t('Agent Questions: Remembered Permissions'), placeHolder: vscode.l10n.t('Pick a rule to forget it: the agent will be asked again') },
      );
      if (!picked) return;
      const question =
        picked.key !== undefined ? vscode.l10n.t('Forget "Always allow {0}"?', picked.label) : rules.length === 1 ? vscode.l10n.t('Forget the 1 remembered rule?') : vscode.l10n.t('Forget all {0} remembered rules?', rules.length);
      const forget = vscode.l10n.t('Forget');
      const confirmed = await vscode.window.showWarningMessage(question, { modal: true, detail: vscode.l10n.t('Agents will be asked again before these calls run.') }, forget);
      if (confirmed !== forget) return;
      await (picked.key === undefined ? permissions.clear() : permissions.forget(picked.key));
    }),
  );
}
