// The Queue tree: Permissions, then Questions, oldest first, as the broker orders them.
// While anything waits both groups are there, even an empty one: a change then refreshes one group.
// A group appearing would refresh the root, and VS Code re-reads every row of the other group too
// (with 200 waiting, a new permission took 38 ms to show instead of 17). Ages refresh only the request rows.
// VS Code also re-reads and redraws every row of the group that changes, so a group shows its first
// ROWS_SHOWN requests and then one "… and N more" row that lists them all in a quick pick; a change
// past those rows (a request joining a long group, or leaving its end) refreshes only that row.
// While the remembered rules hold a workspace write rule and a runner rule, a warning row comes first:
// together they let the agent run any code it writes; clicking it opens Manage Remembered Permissions.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { PendingRequest } from '../broker/contract/schemas';
import { isSecretKind } from '../broker/contract/questionKinds';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';
import { writeAndRun } from '../broker/permissions/decidePermission';
import { uiText } from '../broker/visibleText';
import { mark } from './benchTrace';
import { localizedAge } from './localizedAge';

type RequestKind = PendingRequest['kind'];
type Group = { kind: 'group'; requestKind: RequestKind };
/** A group's last row when it holds more than ROWS_SHOWN requests. */
type More = { kind: 'more'; requestKind: RequestKind };
/** The row that warns of a workspace write rule held together with a runner rule. */
type WriteAndRun = { kind: 'writeAndRun' };
export type QueueNode = Group | More | WriteAndRun | PendingRequest;

/** Request rows a group shows before its "more" row. */
const ROWS_SHOWN = 50;
/** The "more" row's command: a quick pick of all of a group's requests. */
const SHOW_GROUP_COMMAND = 'agentQuestions.showWaitingGroup';

const GROUPS: Group[] = [
  { kind: 'group', requestKind: 'permission' },
  { kind: 'group', requestKind: 'questions' },
];

/** One object per group: VS Code knows a row by the object the tree gave it, so this row can be refreshed alone. */
const MORE: Record<RequestKind, More> = {
  permission: { kind: 'more', requestKind: 'permission' },
  questions: { kind: 'more', requestKind: 'questions' },
};

const WRITE_AND_RUN: WriteAndRun = { kind: 'writeAndRun' };

const isGroup = (node: QueueNode): node is Group => node.kind === 'group';
const isMore = (node: QueueNode): node is More => node.kind === 'more';
const isRequest = (node: QueueNode): node is PendingRequest => node.kind === 'permission' || node.kind === 'questions';

export class QueueTree implements vscode.TreeDataProvider<QueueNode>, vscode.Disposable {
  static readonly viewId = 'agentQuestions.queue';
  private readonly changed = new vscode.EventEmitter<QueueNode | QueueNode[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /** Whether the groups are in the tree (anything waits): the root changes only when this does. */
  private groupsShown = false;
  /** Whether the write-and-run warning row is in the tree, as of the last root read or rules change. */
  private warningShown = false;
  /** Each group's request rows (their ids) and whether it has a "more" row, as of the last change. */
  private readonly shownRows = new Map<RequestKind, { ids: string; more: boolean }>();
  /** The open "more" quick pick: one at a time. */
  private pickShown: vscode.QuickPick<RequestPickItem> | undefined;

  constructor(
    private readonly broker: QuestionBroker,
    private readonly permissions?: RememberedPermissions,
  ) {
    this.disposables.push(
      this.changed,
      broker.onDidChange((change) => this.refreshGroup(change.request.kind)),
      vscode.commands.registerCommand(SHOW_GROUP_COMMAND, (kind: RequestKind) => this.pickFromGroup(kind)),
    );
    if (permissions)
      this.disposables.push(
        permissions.onDidChangeRules(() => this.refreshWarning()),
        // Rules written in the user's settings count too.
        vscode.workspace.onDidChangeConfiguration((e) => {
          if (e.affectsConfiguration('agentQuestions.permissions.autoApprove')) this.refreshWarning();
        }),
      );
    const timer = setInterval(() => this.refreshAges(), 30_000);
    this.disposables.push({ dispose: () => clearInterval(timer) });
  }

  getChildren(node?: QueueNode): QueueNode[] {
    if (!node) {
      this.groupsShown = this.broker.size > 0;
      this.warningShown = this.holdsWriteAndRun();
      return [...(this.warningShown ? [WRITE_AND_RUN] : []), ...(this.groupsShown ? GROUPS : [])];
    }
    if (!isGroup(node)) return [];
    const requests = this.requestsOf(node.requestKind);
    mark(`queue ${node.requestKind} read`);
    if (requests.length <= ROWS_SHOWN) return requests;
    return [...requests.slice(0, ROWS_SHOWN), MORE[node.requestKind]];
  }

  getParent(node: QueueNode): QueueNode | undefined {
    if (node === WRITE_AND_RUN || isGroup(node)) return undefined;
    const kind = isMore(node) ? node.requestKind : node.kind;
    return GROUPS.find((g) => g.requestKind === kind);
  }

  getTreeItem(node: QueueNode): vscode.TreeItem {
    if (isGroup(node)) {
      // No count here: refreshing a group re-reads its children, not its own item (the badge counts).
      const label = node.requestKind === 'permission' ? vscode.l10n.t('Permissions') : vscode.l10n.t('Questions');
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `group:${node.requestKind}`;
      return item;
    }
    if (isMore(node)) {
      const count = this.requestsOf(node.requestKind).length - ROWS_SHOWN;
      const item = new vscode.TreeItem(vscode.l10n.t('… and {0} more', count), vscode.TreeItemCollapsibleState.None);
      item.id = `more:${node.requestKind}`;
      item.iconPath = new vscode.ThemeIcon('list-flat');
      item.contextValue = 'agentQuestions.more';
      item.command = { command: SHOW_GROUP_COMMAND, title: vscode.l10n.t('Show All'), arguments: [node.requestKind] };
      return item;
    }
    if (!isRequest(node)) return writeAndRunItem();
    const row = requestRow(node);
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.description = row.description;
    item.iconPath = row.icon;
    item.contextValue = `agentQuestions.${node.kind}`;
    item.accessibilityInformation = { label: row.accessibleLabel };
    item.command = { command: 'agentQuestions.answer', title: vscode.l10n.t('Answer'), arguments: [node] };
    return item;
  }

  /** Tooltips are built on hover, so a refresh of a long queue sends each row without one. */
  resolveTreeItem(item: vscode.TreeItem, node: QueueNode): vscode.TreeItem {
    if (isRequest(node)) item.tooltip = requestTooltip(node);
    return item;
  }

  /** The open "more" quick pick's row labels and the one the workbench has active (undefined: none is open), for tests. */
  pickState(): { rows: string[]; active: string | undefined } | undefined {
    if (!this.pickShown) return undefined;
    return { rows: this.pickShown.items.map((item) => item.label), active: this.pickShown.activeItems[0]?.label };
  }

  /** All of a group's requests in a quick pick; choosing one answers it, as clicking its row does. Resolves with its id. */
  private async pickFromGroup(kind: RequestKind): Promise<string | undefined> {
    this.pickShown?.dispose();
    const pick = vscode.window.createQuickPick<RequestPickItem>();
    this.pickShown = pick;
    pick.title = kind === 'permission' ? vscode.l10n.t('Agent Questions: Waiting Permissions') : vscode.l10n.t('Agent Questions: Waiting Questions');
    pick.placeholder = vscode.l10n.t('Pick one to answer it in the Question panel');
    pick.matchOnDescription = true;
    pick.items = this.requestsOf(kind).map((request) => {
      const row = requestRow(request);
      return { label: row.label, description: row.description, iconPath: row.icon, request };
    });
    const chosen = await new Promise<PendingRequest | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]?.request));
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (this.pickShown === pick) this.pickShown = undefined;
    if (chosen) await vscode.commands.executeCommand('agentQuestions.answer', chosen);
    return chosen?.id;
  }

  private requestsOf(kind: RequestKind): PendingRequest[] {
    return this.broker.list().filter((r) => r.kind === kind);
  }

  private refreshGroup(kind: RequestKind): void {
    const requests = this.requestsOf(kind);
    const shown = {
      ids: requests
        .slice(0, ROWS_SHOWN)
        .map((r) => r.id)
        .join(' '),
      more: requests.length > ROWS_SHOWN,
    };
    const before = this.shownRows.get(kind);
    this.shownRows.set(kind, shown);
    // The first arrival and the last departure change the root; a change past the request rows only
    // the "more" row's count; otherwise that group's children.
    if (this.broker.size > 0 !== this.groupsShown) this.changed.fire(undefined);
    else if (before?.more && shown.more && before.ids === shown.ids) this.changed.fire(MORE[kind]);
    else this.changed.fire(GROUPS.find((g) => g.requestKind === kind));
    mark(`queue ${kind} changed`);
  }

  private holdsWriteAndRun(): boolean {
    return this.permissions !== undefined && writeAndRun(this.permissions.list());
  }

  /** The warning row comes or goes with the rules: the root changes only then. */
  private refreshWarning(): void {
    const holds = this.holdsWriteAndRun();
    if (holds === this.warningShown) return;
    this.warningShown = holds;
    this.changed.fire(undefined);
  }

  /** Only the request rows in the tree: a group's requests past ROWS_SHOWN have none. */
  private refreshAges(): void {
    const rows = GROUPS.flatMap((group) => this.requestsOf(group.requestKind).slice(0, ROWS_SHOWN));
    if (rows.length > 0) this.changed.fire(rows);
  }

  dispose(): void {
    this.pickShown?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

type RequestPickItem = vscode.QuickPickItem & { request: PendingRequest };

/** What a request's row shows, in the tree and in the "more" quick pick. */
function requestRow(request: PendingRequest): { label: string; description: string; icon: vscode.ThemeIcon; accessibleLabel: string } {
  const label = requestLabel(request);
  const from = `${uiText(request.source.label, 60)}${request.source.way ? ` · ${uiText(request.source.way, 40)}` : ''}`;
  const age = localizedAge(request.createdAt);
  const icon = new vscode.ThemeIcon(request.kind === 'permission' ? 'shield' : request.questions.some((q) => isSecretKind(q.kind)) ? 'key' : 'question');
  const accessibleLabel =
    request.kind === 'permission' ? vscode.l10n.t('Permission: {0}, from {1}, {2}', label, from, age) : vscode.l10n.t('Question: {0}, from {1}, {2}', label, from, age);
  const keepsWorking = request.kind === 'questions' && request.keepsWorking === true;
  const description = keepsWorking ? vscode.l10n.t('agent keeps working · {0} · {1}', from, age) : vscode.l10n.t('{0} · {1}', from, age);
  return { label, description, icon, accessibleLabel };
}

/** The warning row: a workspace write rule and a runner rule together let the agent run any code it writes, as the user. */
function writeAndRunItem(): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Agent can run any code it writes'), vscode.TreeItemCollapsibleState.None);
  item.id = 'writeAndRun';
  item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  item.contextValue = 'agentQuestions.writeAndRun';
  // The same words as Manage Remembered Permissions, which the row opens.
  item.tooltip = [
    vscode.l10n.t("«Write in the workspace» and a rule that runs the workspace's code, together"),
    vscode.l10n.t(
      'Together they let the agent run any code it writes, as you, wherever it does not run in its sandbox (OpenCode, Codex leaving its sandbox, Claude Code without its sandbox). Forget one of them to stop it.',
    ),
  ].join('\n\n');
  item.command = { command: 'agentQuestions.manageRememberedPermissions', title: vscode.l10n.t('Manage Remembered Permissions') };
  return item;
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
  else
    lines.push(
      ...request.questions.map((q) => `${q.header}: ${q.question}`),
      ...(request.keepsWorking ? [vscode.l10n.t('The agent keeps working; it will read your answer when it checks.')] : []),
    );
  tooltip.appendText(lines.map((line) => uiText(line, 500)).join('\n\n'));
  return tooltip;
}
