// The palette and Queue commands (category "Agent Questions").
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { History } from '../broker/history';
import { decidedByText } from '../broker/contract/decidedByText';
import type { HistoryEntry, PendingRequest, PermissionDecision } from '../broker/contract/schemas';
import { summarizeAnswer } from '../broker/contract/resultText';
import { uiText } from '../broker/visibleText';
import { localizedAge } from './localizedAge';
import type { QuestionPanelView } from './questionPanelView';
import { requestLabel } from './queueTree';
import type { SecretVault } from './secretVault';
import { CHAT_CONTAINER, moveQuestionView, OWN_CONTAINER } from './viewPlacement';

export function registerCommands(context: vscode.ExtensionContext, broker: QuestionBroker, panel: QuestionPanelView, history: History, vault: SecretVault): void {
  const register = (id: string, run: (...args: never[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('agentQuestions.focusPanel', () => panel.focus());
  register('agentQuestions.moveNextToChat', async () => {
    await moveQuestionView(CHAT_CONTAINER);
    await panel.focus();
  });
  register('agentQuestions.moveToSideBar', async () => {
    await moveQuestionView(OWN_CONTAINER);
    await panel.focus();
  });
  register('agentQuestions.answerNext', async () => {
    const next = broker.list()[0];
    if (next) await panel.showRequest(next.id);
    else void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no agent is waiting for you.'));
  });
  register('agentQuestions.answer', async (request?: PendingRequest) => {
    if (request?.id && broker.get(request.id)) await panel.showRequest(request.id);
  });
  register('agentQuestions.reject', async (request?: PendingRequest) => {
    if (!request?.id || !broker.get(request.id)) return;
    const reason = await vscode.window.showInputBox({
      title: vscode.l10n.t('Reject "{0}"', uiText(requestLabel(request), 80)),
      prompt: vscode.l10n.t('Optional: tell the agent why (it reads this).'),
      placeHolder: vscode.l10n.t('e.g. Use the existing database; do not ask again'),
    });
    if (reason === undefined) return; // Escape keeps the request
    broker.reject(request.id, { by: 'user', where: 'queue' }, reason.trim() || 'The user rejected it from the queue.');
  });
  register('agentQuestions.copyQuestion', async (request?: PendingRequest) => {
    if (!request?.id) return;
    const text =
      request.kind === 'permission'
        ? `${request.title}\n\n${request.detail}`
        : request.questions.map((q) => [`${q.header}: ${q.question}`, ...q.options.map((o) => `- ${o.label}${o.description ? `: ${o.description}` : ''}`)].join('\n')).join('\n\n');
    await vscode.env.clipboard.writeText(text);
  });
  // Other extensions and keybindings may pass { skipConfirmation: true }.
  register('agentQuestions.rejectAll', async (options?: { skipConfirmation?: boolean }) => {
    const count = broker.size;
    if (count === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: nothing is waiting.'));
    const rejectAll = vscode.l10n.t('Reject All');
    const question = count === 1 ? vscode.l10n.t('Reject the 1 pending request?') : vscode.l10n.t('Reject all {0} pending requests?', count);
    const choice =
      options?.skipConfirmation === true
        ? rejectAll
        : await vscode.window.showWarningMessage(question, { modal: true, detail: vscode.l10n.t('Each agent is told you declined to answer.') }, rejectAll);
    if (choice !== rejectAll) return;
    for (const request of broker.list()) broker.reject(request.id, { by: 'user', where: 'queue' }, 'The user rejected all pending requests.');
  });
  register('agentQuestions.showHistory', async () => {
    const entries = history.list();
    if (entries.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no request has been settled in this workspace yet.'));
    await vscode.window.showQuickPick(
      entries.map((entry) => ({
        label: uiText(entry.summary, 100),
        description: vscode.l10n.t('{0} · {1} · {2}', statusText(entry.status), uiText(entry.source.label, 60), localizedAge(entry.settledAt)),
        detail: uiText(historyDetail(entry), 300),
      })),
      {
        title: vscode.l10n.t('Agent Questions: History'),
        placeHolder: vscode.l10n.t('Settled requests, newest first (secrets show only their variable)'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    );
  });
  // Names and scopes only, never values. Other extensions may pass { delete: 'NAME' } or { deleteAll: true } (no prompt),
  // or { list: true } for [{ name, scope: 'workspace' | 'all' }]. Only what applies in this workspace is shown.
  register('agentQuestions.manageSecrets', async (options?: { delete?: string; deleteAll?: boolean; list?: boolean }) => {
    if (options?.list) return vault.list();
    if (options?.delete) return vault.delete(options.delete);
    if (options?.deleteAll) return Promise.all(vault.names().map((n) => vault.delete(n)));
    const stored = vault.list();
    if (stored.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no secrets are stored for this workspace.'));
    const deleteAll = { label: `$(trash) ${vscode.l10n.t('Delete All')}`, description: vscode.l10n.t('{0} stored', stored.length), name: undefined };
    const items = stored.map(({ name, scope }) => ({
      label: `$${name}`,
      description: scope === 'all' ? vscode.l10n.t('all workspaces') : vscode.l10n.t('this workspace'),
      detail: vscode.l10n.t('Pick to delete'),
      name,
    }));
    const picked = await vscode.window.showQuickPick([...items, deleteAll], {
      title: vscode.l10n.t('Agent Questions: Stored Secrets'),
      placeHolder: vscode.l10n.t('Pick a secret to delete it from secret storage and from new terminals'),
    });
    if (!picked) return;
    const question = picked.name
      ? vscode.l10n.t('Delete the stored secret {0}?', picked.name)
      : stored.length === 1
        ? vscode.l10n.t('Delete the 1 stored secret?')
        : vscode.l10n.t('Delete all {0} stored secrets?', stored.length);
    const everywhere = picked.name ? stored.some((s) => s.name === picked.name && s.scope === 'all') : stored.some((s) => s.scope === 'all');
    const detail = everywhere
      ? vscode.l10n.t('Agents will have to ask again, in every workspace. Terminals already open keep their environment.')
      : vscode.l10n.t('Agents will have to ask again. Terminals already open keep their environment.');
    const deleteLabel = vscode.l10n.t('Delete');
    const confirmed = await vscode.window.showWarningMessage(question, { modal: true, detail }, deleteLabel);
    if (confirmed !== deleteLabel) return;
    await Promise.all((picked.name ? [picked.name] : stored.map((s) => s.name)).map((n) => vault.delete(n)));
  });
}

const statusText = (status: HistoryEntry['status']): string =>
  ({
    answered: vscode.l10n.t('Answered'),
    rejected: vscode.l10n.t('Rejected'),
    cancelled: vscode.l10n.t('Cancelled'),
    timed_out: vscode.l10n.t('Timed out'),
    unavailable: vscode.l10n.t('Unavailable'),
  })[status];

/** Who decided (older entries have no record of it), then the decision or the answers. */
function historyDetail(entry: HistoryEntry): string {
  const outcome = (entry.decision && decisionText(entry.decision)) ?? (entry.questions ?? []).map((q) => `${q.header}: ${summarizeAnswer(q, entry.answers?.[q.id])}`).join(' · ');
  return [entry.decidedBy && decidedByText(entry.decidedBy, vscode.l10n.t), outcome].filter((part) => part).join(' · ');
}

const decisionText = (decision: PermissionDecision): string =>
  ({ allow_once: vscode.l10n.t('Allowed once'), allow_always: vscode.l10n.t('Always allowed'), deny: vscode.l10n.t('Denied') })[decision];
