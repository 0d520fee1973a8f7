// Remembered "Always allow" rules: list them with their source and forget one, or all.
import * as vscode from 'vscode';
import { describeAge } from '../broker/age';
import type { RememberedPermissions } from '../broker/rememberedPermissions';
import { uiText } from '../broker/visibleText';

export function registerPermissionCommands(context: vscode.ExtensionContext, permissions: RememberedPermissions): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.clearRememberedPermissions', async () => {
      await permissions.clear();
      void vscode.window.showInformationMessage('Agent Questions: remembered "Always allow" permissions were cleared for this workspace.');
    }),
    // Other extensions and tests may pass { forget: KEY } (no prompt).
    vscode.commands.registerCommand('agentQuestions.manageRememberedPermissions', async (options?: { forget?: string }) => {
      if (options?.forget !== undefined) return permissions.forget(options.forget);
      const rules = permissions.list();
      if (rules.length === 0) return void vscode.window.showInformationMessage('Agent Questions: no "Always allow" rule is remembered in this workspace.');
      const clearAll = { label: '$(clear-all) Forget All', description: `${rules.length} remembered`, key: undefined };
      const picked = await vscode.window.showQuickPick(
        [
          ...rules.map((rule) => ({
            label: uiText(rule.label, 100),
            description: `granted to ${uiText(rule.source, 60)} (as it named itself) · ${describeAge(rule.createdAt)}`,
            detail: uiText(rule.description, 200),
            key: rule.key,
          })),
          clearAll,
        ],
        { title: 'Agent Questions: Remembered Permissions', placeHolder: 'Pick a rule to forget it: the agent will be asked again' },
      );
      if (!picked) return;
      const what = picked.key === undefined ? `all ${rules.length} remembered rules` : `"Always allow ${picked.label}"`;
      const confirmed = await vscode.window.showWarningMessage(`Forget ${what}?`, { modal: true, detail: 'Agents will be asked again before these calls run.' }, 'Forget');
      if (confirmed !== 'Forget') return;
      await (picked.key === undefined ? permissions.clear() : permissions.forget(picked.key));
    }),
  );
}
