// "Replace with a Narrower Rule…" for a Claude Code grant broader than our rules: pick the narrower
// rule of ours to keep (or none), see the edit of Claude Code's settings file as a diff, confirm.
// The file is written only if it is still as previewed.
import * as vscode from 'vscode';
import type { ClaudeCodeGrant } from '../broker/permissions/agentGrants/claudeCodeGrants';
import type { GrantReplacement } from '../broker/permissions/agentGrants/claudeCodeGrantReplacement';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';
import { uiText } from '../broker/visibleText';
import { shellBundle } from './shellBundle';
import { agentGrants } from './agentGrantFiles';
import type { TranslatedGrant } from '../broker/permissions/agentGrants/agentGrant';

/** What other extensions and tests pass: the grant; `preview` for the edit alone; `apply` to write it without asking, keeping the narrower rule with this label (null: none). */
export interface ReplaceGrantArgs {
  grant: ClaudeCodeGrant;
  preview?: boolean;
  apply?: { narrower: string | null };
}

export interface ReplaceGrantResult {
  before: string;
  after: string;
  /** The labels of our narrower rules on offer. */
  narrower: string[];
  applied: boolean;
}

const PREVIEW_SCHEME = 'agent-questions-grant-preview';

/** Grants that let through what our rules would ask, in the order the ledger lists them. */
export const broaderGrants = (grants: readonly TranslatedGrant[]) =>
  grants.filter((grant) => grant.broader !== undefined && (grant.list === 'allow' || grant.list === 'defaultMode'));

/** Only Claude Code's settings are edited here: a grant of its, broader than ours, in a file. */
export const replaceable = (grant: TranslatedGrant): grant is TranslatedGrant & ClaudeCodeGrant =>
  grant.agent === 'Claude Code' && grant.file !== '' && broaderGrants([grant]).length > 0;

export function registerReplaceAgentGrant(context: vscode.ExtensionContext, permissions: RememberedPermissions, log: vscode.LogOutputChannel): void {
  const previews = new Map<string, string>();
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, { provideTextDocumentContent: (uri) => previews.get(uri.query) ?? '' }),
    vscode.commands.registerCommand('agentQuestions.replaceAgentGrant', async (args?: ReplaceGrantArgs): Promise<ReplaceGrantResult | undefined> => {
      const grant = args?.grant ?? (await pickBroader(permissions));
      if (!grant) return undefined;
      const file = vscode.Uri.file(grant.file);
      const replacement = await replacementFor(permissions, grant, file);
      if ('problem' in replacement) {
        if (args?.apply) throw new Error(replacement.problem);
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Questions: {0}', replacement.problem));
        return undefined;
      }
      const result = { before: replacement.before, after: replacement.after, narrower: replacement.narrower.map((r) => r.label), applied: false };
      if (args?.preview) return result;
      if (args?.apply) {
        const keep = args.apply.narrower === null ? undefined : replacement.narrower.find((r) => r.label === args.apply?.narrower);
        if (args.apply.narrower !== null && !keep) throw new Error(`"${args.apply.narrower}" is not a narrower rule on offer: one of ${result.narrower.join(', ') || 'none'}`);
        await apply(permissions, grant, file, replacement, keep);
        return { ...result, applied: true };
      }
      const keep = await pickNarrower(grant, replacement);
      if (keep === undefined) return result;
      const id = String(Date.now());
      previews.set(id, replacement.after);
      const preview = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: file.path, query: id });
      await vscode.commands.executeCommand('vscode.diff', file, preview, vscode.l10n.t('{0}: without {1} (preview)', vscode.workspace.asRelativePath(file, true), grant.rule));
      const replace = vscode.l10n.t('Replace');
      const kept = keep === null ? '' : ` ${vscode.l10n.t('Agent Questions keeps «{0}» instead.', keep.label)}`;
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Take {0} out of {1}?', uiText(grant.rule, 100), vscode.workspace.asRelativePath(file, true)),
        {
          modal: true,
          detail: vscode.l10n.t(
            'Claude Code will then ask before these calls, and through its hook the request comes to Agent Questions.{0} The file is written as the preview shows.',
            kept,
          ),
        },
        replace,
      );
      previews.delete(id);
      if (choice !== replace) return result;
      try {
        await apply(permissions, grant, file, replacement, keep ?? undefined);
      } catch (error) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Agent Questions: {0}', error instanceof Error ? error.message : String(error)));
        return result;
      }
      log.info(`Took ${grant.rule} out of ${grant.file}${keep ? `; kept «${keep.label}» instead` : ''}.`);
      return { ...result, applied: true };
    }),
  );
}

/** From the palette: which of the grants broader than ours to replace. */
async function pickBroader(permissions: RememberedPermissions): Promise<ClaudeCodeGrant | undefined> {
  const grants = (await agentGrants(permissions)).grants.filter(replaceable);
  if (grants.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t("Agent Questions: no agent's own grant allows more than your rules would."));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    grants.map((grant) => ({
      label: `$(warning) ${uiText(grant.rule, 100)}`,
      description: vscode.workspace.asRelativePath(grant.file, true),
      detail: uiText(grant.broader ?? '', 300),
      grant,
    })),
    { title: vscode.l10n.t("Agent Questions: Replace an Agent's Broader Grant"), placeHolder: vscode.l10n.t('Pick the grant to replace with a narrower rule') },
  );
  return picked?.grant;
}

async function replacementFor(permissions: RememberedPermissions, grant: ClaudeCodeGrant, file: vscode.Uri): Promise<GrantReplacement | { problem: string }> {
  const text = await vscode.workspace.fs.readFile(file).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => undefined,
  );
  if (text === undefined) return { problem: vscode.l10n.t('{0} can no longer be read.', grant.file) };
  return shellBundle().claudeCodeGrantReplacement(grant, text, await permissions.ready(), permissions.pathContext());
}

/** The narrower rule to keep (null: none), or undefined when the user closed the pick. */
async function pickNarrower(grant: ClaudeCodeGrant, replacement: GrantReplacement) {
  if (replacement.narrower.length === 0) return null;
  const none = { label: vscode.l10n.t('Only take it out'), detail: vscode.l10n.t('Claude Code asks again for every such call.'), rule: null };
  const picked = await vscode.window.showQuickPick(
    [...replacement.narrower.map((rule) => ({ label: `$(check) ${rule.label}`, detail: uiText(rule.description, 300), rule })), none],
    {
      title: vscode.l10n.t('Replace {0} with', uiText(grant.rule, 80)),
      placeHolder: vscode.l10n.t('The rule Agent Questions keeps instead (only the options and paths it knows)'),
    },
  );
  return picked?.rule;
}

/** Writes the file if it is still as previewed, then keeps the narrower rule where the grant applied. */
async function apply(
  permissions: RememberedPermissions,
  grant: ClaudeCodeGrant,
  file: vscode.Uri,
  replacement: GrantReplacement,
  keep: GrantReplacement['narrower'][number] | undefined,
) {
  const now = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  if (now !== replacement.before) throw new Error(vscode.l10n.t('{0} changed since the preview: nothing was written. Replace it again to see the new edit.', grant.file));
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(replacement.after));
  if (keep) await permissions.remember(keep, `Replacing Claude Code's ${grant.rule}`, { scope: grant.scope === 'user' ? 'user' : 'workspace' });
}
