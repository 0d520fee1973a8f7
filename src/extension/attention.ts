// Nothing waits unseen: the view container's badge, a status bar item while anything waits,
// and a notification when a request arrives where the panel is not visible (never a pile of them).
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { PendingRequest } from '../broker/contract/schemas';
import type { QuestionPanelView } from './questionPanelView';
import type { QueueNode } from './queueTree';
import { requestLabel } from './queueTree';
import { readSettings } from './settings';
import { uiText } from '../broker/visibleText';

const COUNT_DELAY_MS = 50;

export class Attention implements vscode.Disposable {
  private readonly statusBar = vscode.window.createStatusBarItem('agentQuestions.waiting', vscode.StatusBarAlignment.Left, 100);
  private readonly disposables: vscode.Disposable[] = [this.statusBar];
  private notificationOpen = false;
  private countTimer: ReturnType<typeof setTimeout> | undefined;
  /** Arrivals while a notification was already up; summarised once it closes. */
  private unseenArrivals = 0;
  /** The external-agent endpoint's state, when it is on; it keeps the status bar item visible. */
  private externalStatus: string | undefined;

  constructor(
    private readonly broker: QuestionBroker,
    private readonly treeView: vscode.TreeView<QueueNode>,
    private readonly panel: QuestionPanelView,
  ) {
    this.statusBar.name = 'Agent Questions';
    this.statusBar.command = 'agentQuestions.focusPanel';
    this.disposables.push(
      broker.onDidChange((change) => {
        this.scheduleCounts();
        if (change.type === 'added') this.notify(change.request);
      }),
      { dispose: () => clearTimeout(this.countTimer) },
    );
    this.updateCounts();
  }

  /** What the user sees right now: for tests and the benchmark. */
  state(): { badge: number; statusBarText: string | undefined; statusBarVisible: boolean } {
    const visible = this.broker.size > 0 || this.externalStatus !== undefined;
    return { badge: Number(this.treeView.badge?.value ?? 0), statusBarText: visible ? this.statusBar.text : undefined, statusBarVisible: visible };
  }

  /** The status bar item's tooltip, for tests. */
  tooltip(): string {
    return String(this.statusBar.tooltip ?? '');
  }

  /** Counts are batched: a burst of arrivals is one update, and the panel renders first. */
  private scheduleCounts(): void {
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = undefined;
      this.updateCounts();
    }, COUNT_DELAY_MS);
  }

  /** Shows the external-agent endpoint's state in the status bar item's tooltip (undefined: off). */
  setExternalStatus(status: string | undefined): void {
    this.externalStatus = status;
    this.updateCounts();
  }

  private updateCounts(): void {
    const count = this.broker.size;
    const waiting = count === 1 ? vscode.l10n.t('1 request from agents waiting for you') : vscode.l10n.t('{0} requests from agents waiting for you', count);
    this.treeView.badge = count > 0 ? { value: count, tooltip: waiting } : undefined;
    this.statusBar.text = `$(question) ${count}`;
    this.statusBar.tooltip = vscode.l10n.t('{0}. Click to answer.', waiting) + (this.externalStatus ? `\n${this.externalStatus}` : '');
    this.statusBar.accessibilityInformation = { label: waiting };
    if (count > 0 || this.externalStatus) this.statusBar.show();
    else this.statusBar.hide();
  }

  private notify(request: PendingRequest): void {
    const { notify } = readSettings();
    if (notify === 'never' || (notify === 'whenHidden' && this.panel.isVisible)) return;
    if (this.notificationOpen) {
      this.unseenArrivals++;
      return;
    }
    const from = uiText(request.source.label, 60);
    const message =
      request.kind === 'permission'
        ? vscode.l10n.t('Agent Questions: {0} asks permission: {1}', from, requestLabel(request))
        : vscode.l10n.t('Agent Questions: {0} asks: {1}', from, requestLabel(request));
    const answer = vscode.l10n.t('Answer');
    const reject = vscode.l10n.t('Reject');
    this.show(message, [answer, reject], (choice) => {
      if (choice === answer) void this.panel.showRequest(request.id);
      if (choice === reject) this.broker.reject(request.id, { by: 'user', where: 'notification' }, 'The user rejected it from the notification.');
    });
  }

  private show(message: string, actions: string[], onChoice: (choice: string | undefined) => void): void {
    this.notificationOpen = true;
    void vscode.window.showInformationMessage(message, ...actions).then((choice) => {
      this.notificationOpen = false;
      onChoice(choice);
      this.summariseUnseen();
    });
  }

  private summariseUnseen(): void {
    const unseen = this.unseenArrivals;
    this.unseenArrivals = 0;
    if (unseen === 0 || this.broker.size === 0 || this.panel.isVisible) return;
    const size = this.broker.size;
    const message = size === 1 ? vscode.l10n.t('Agent Questions: 1 request is waiting for you.') : vscode.l10n.t('Agent Questions: {0} requests are waiting for you.', size);
    this.show(message, [vscode.l10n.t('Answer Next')], (choice) => {
      if (choice) void vscode.commands.executeCommand('agentQuestions.answerNext');
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
