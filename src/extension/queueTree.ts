// The Queue tree: every pending request, permissions first, in the broker's order.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { PendingRequest } from '../broker/schemas';

export class QueueTree implements vscode.TreeDataProvider<PendingRequest>, vscode.Disposable {
  static readonly viewId = 'agentQuestions.queue';
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly broker: QuestionBroker) {
    this.subscription = broker.onDidChange(() => this.changed.fire());
  }

  getChildren(element?: PendingRequest): PendingRequest[] {
    return element ? [] : this.broker.list();
  }

  getTreeItem(request: PendingRequest): vscode.TreeItem {
    const label = request.kind === 'permission' ? request.title : request.questions.map((q) => q.header).join(', ');
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = request.id;
    item.description = request.source.label;
    item.tooltip = request.kind === 'permission' ? request.title : request.questions.map((q) => q.question).join('\n');
    item.iconPath = new vscode.ThemeIcon(request.kind === 'permission' ? 'shield' : 'question');
    item.contextValue = request.kind;
    return item;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
