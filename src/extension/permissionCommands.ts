// Remembered "Always allow" and "Always deny" rules: list them with their scope, source, age and
// uses, and forget one, or all.
import * as vscode from 'vscode';
import type { RememberedPermissions, RuleScope } from '../broker/rememberedPermissions';
import { uiText } from '../broker/visibleText';
import { localizedAge } from './localizedAge';

export function registerPermissionCommands(context: vscode.ExtensionContext, permissions: RememberedPermissions): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.clearRememberedPermissions', async () => {
      await permissions.clear();
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: remembered "Always allow" permissions were cleared for this workspace.'));
    }),
    // Other extensions and tests may pass { forget: KEY, scope? } (no prompt), or { list: true } for the rules.
    vscode.commands.registerCommand('agentQuestions.manageRememberedPermissions', async (options?: { forget?: string; scope?: RuleScope; list?: boolean }) => {
      if (options?.forget !== undefined) return permissions.forget(options.forget, options.scope);
      const rules = permissions.list();
      if (options?.list) return rules.map(({ key, label, decision, scope, source, uses }) => ({ key, label, decision, scope, source, uses }));
      if (rules.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no "Always allow" rule is remembered in this workspace.'));
      const scopes: Record<RuleScope, string> = { session: vscode.l10n.t('this session'), workspace: vscode.l10n.t('this workspace'), user: vscode.l10n.t('all workspaces') };
      const clearAll = { label: `$(clear-all) ${vscode.l10n.t('Forget All')}`, description: vscode.l10n.t('{0} remembered', rules.length), key: undefined, scope: undefined, name: '' };
      const picked = await vscode.window.showQuickPick(
        [
          ...rules.map((rule) => ({
            label: `${rule.decision === 'allow' ? '$(check)' : '$(circle-slash)'} ${uiText(rule.label, 100)}`,
            description: [
              rule.decision === 'allow' ? vscode.l10n.t('Always allow') : vscode.l10n.t('Always deny'),
              scopes[rule.scope],
              rule.createdAt ? vscode.l10n.t('granted to {0} (as it named itself) · {1}', uiText(rule.source, 60), localizedAge(rule.createdAt)) : vscode.l10n.t('in your settings'),
              vscode.l10n.t('used {0} times', rule.uses),
            ].join(' · '),
            detail: uiText(rule.description, 200),
            key: rule.key,
            scope: rule.scope,
            name: uiText(rule.label, 100),
          })),
          clearAll,
        ],
        { title: vscode.l10n.t('Agent Questions: Remembered Permissions'), placeHolder: vscode.l10n.t('Pick a rule to forget it: the agent will be asked again') },
      );
      if (!picked) return;
      const question =
        picked.key !== undefined ? vscode.l10n.t('Forget "Always allow {0}"?', picked.name) : rules.length === 1 ? vscode.l10n.t('Forget the 1 remembered rule?') : vscode.l10n.t('Forget all {0} remembered rules?', rules.length);
      const forget = vscode.l10n.t('Forget');
      const confirmed = await vscode.window.showWarningMessage(question, { modal: true, detail: vscode.l10n.t('Agents will be asked again before these calls run.') }, forget);
      if (confirmed !== forget) return;
      await (picked.key === undefined ? permissions.clear() : permissions.forget(picked.key, picked.scope));
    }),
  );
}
