// The Queue tree: Permissions, then Questions, oldest first, as the broker orders them.
// While anything waits both groups are there, even an empty one: a change then refreshes one group.
// A group appearing would refresh the root, and VS Code re-reads every row of the other group too
// (with 200 waiting, a new permission took 38 ms to show instead of 17). Ages refresh only the request items.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { PendingRequest } from '../broker/schemas';
import { uiText } from '../broker/visibleText';
import { localizedAge } from './localizedAge';

type Group = { kind: 'group'; requestKind: PendingRequest['kind'] };
export type QueueNode = Group | PendingRequest;

const GROUPS: Group[] = [
  { kind: 'group', requestKind: 'permission' },
  { kind: 'group', requestKind: 'questions' },
];

const isGroup = (node: QueueNode): node is Group => node.kind === 'group';

export class QueueTree implements vscode.TreeDataProvider<QueueNode>, vscode.Disposable {
  static readonly viewId = 'agentQuestions.queue';
  private readonly changed = new vscode.EventEmitter<QueueNode | QueueNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Whether the groups are in the tree (anything waits): the root changes only when this does. */
  private groupsShown = false;

  constructor(private readonly broker: QuestionBroker) {
    this.disposables.push(
      this.changed,
      broker.onDidChange((change) => this.refreshGroup(change.request.kind)),
    );
    const timer = setInterval(() => this.refreshAges(), 30_000);
    this.disposables.push({ dispose: () => clearInterval(timer) });
  }

  getChildren(node?: QueueNode): QueueNode[] {
    const pending = this.broker.list();
    if (!node) {
      this.groupsShown = pending.length > 0;
      return this.groupsShown ? GROUPS : [];
    }
    return isGroup(node) ? pending.filter((r) => r.kind === node.requestKind) : [];
  }

  getParent(node: QueueNode): QueueNode | undefined {
    return isGroup(node) ? undefined : GROUPS.find((g) => g.requestKind === node.kind);
  }

  getTreeItem(node: QueueNode): vscode.TreeItem {
    if (isGroup(node)) {
      // No count here: refreshing a group re-reads its children, not its own item (the badge counts).
      const label = node.requestKind === 'permission' ? vscode.l10n.t('Permissions') : vscode.l10n.t('Questions');
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.requestKind}`;
      return item;
    }
    const item = new vscode.TreeItem(requestLabel(node), vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    const from = `${uiText(node.source.label, 60)}${node.source.way ? ` · ${uiText(node.source.way, 40)}` : ''}`;
    const age = localizedAge(node.createdAt);
    const keepsWorking = node.kind === 'questions' && node.keepsWorking === true;
    item.description = keepsWorking ? vscode.l10n.t('agent keeps working · {0} · {1}', from, age) : vscode.l10n.t('{0} · {1}', from, age);
    item.iconPath = new vscode.ThemeIcon(node.kind === 'permission' ? 'shield' : node.questions.some((q) => q.kind === 'secret') ? 'key' : 'question');
    item.contextValue = `agentQuestions.${node.kind}`;
    item.accessibilityInformation = {
      label: node.kind === 'permission' ? vscode.l10n.t('Permission: {0}, from {1}, {2}', requestLabel(node), from, age) : vscode.l10n.t('Question: {0}, from {1}, {2}', requestLabel(node), from, age),
    };
    item.command = { command: 'agentQuestions.answer', title: vscode.l10n.t('Answer'), arguments: [node] };
    return item;
  }

  /** Tooltips are built on hover, so a refresh of a long queue sends each row without one. */
  resolveTreeItem(item: vscode.TreeItem, node: QueueNode): vscode.TreeItem {
    if (!isGroup(node)) item.tooltip = requestTooltip(node);
    return item;
  }

  private refreshGroup(kind: PendingRequest['kind']): void {
    // The first arrival and the last departure change the root; otherwise only that group's children.
    if (this.broker.size > 0 !== this.groupsShown) this.changed.fire(undefined);
    else this.changed.fire(GROUPS.find((g) => g.requestKind === kind));
  }

  private refreshAges(): void {
    const pending = this.broker.list();
    if (pending.length > 0) this.changed.fire(pending);
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/** One line of agent text, safe for a tree item, a notification or a quick pick. */
export function requestLabel(request: PendingRequest): string {
  return uiText(request.kind === 'permission' ? request.title : request.questions.map((q) => q.header).join(', '), 120);
}

/** Agent text as escaped markdown (appendText), each line made safe and capped. */
function requestTooltip(request: PendingRequest): vscode.MarkdownString {
  const tooltip = new vscode.MarkdownString(undefined, false);
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  const lines = [request.source.label, ...(request.source.via ? [request.source.via] : [])];
  if (request.kind === 'permission') lines.push(request.title, ...(request.toolCall?.warnings ?? []), request.toolCall?.command ?? request.detail);
  else lines.push(...request.questions.map((q) => `${q.header}: ${q.question}`), ...(request.keepsWorking ? [vscode.l10n.t('The agent keeps working; it will read your answer when it checks.')] : []));
  tooltip.appendText(lines.map((line) => uiText(line, 500)).join('\n\n'));
  return tooltip;
}
