// Commands for tests and `npm run bench`, never in the palette (package.json does not contribute
// them): what the panel, the nudges and the attention signals are doing, read from outside.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { Nudger } from '../broker/nudges';
import type { Attention } from './attention';
import { activation, takeMarks } from './benchTrace';
import type { QuestionPanelView } from './questionPanelView';
import type { QueueTree } from './queueTree';

export interface Probed {
  broker: QuestionBroker;
  panel: QuestionPanelView;
  queue: QueueTree;
  attention: Attention;
  nudger: Nudger;
}

export function registerTestProbes(context: vscode.ExtensionContext, { broker, panel, queue, attention, nudger }: Probed): void {
  context.subscriptions.push(
    // Timings for `npm run bench` (a bare panel round trip, and when a request became interactive).
    vscode.commands.registerCommand(
      'agentQuestions.internal.panelProbe',
      async (probe: { op: 'ping' } | { op: 'whenShown'; requestId: string } | { op: 'marks'; keepOn: boolean } | { op: 'activation' }) => {
        if (probe?.op === 'marks') return takeMarks(probe.keepOn === true);
        if (probe?.op === 'activation') return activation;
        if (probe?.op === 'ping') {
          const started = Date.now();
          await panel.ping();
          return Date.now() - started;
        }
        return probe?.op === 'whenShown' ? panel.whenShown(probe.requestId) : undefined;
      },
    ),
    // Whether a nudge is still due and whether the user can see the panel.
    vscode.commands.registerCommand('agentQuestions.internal.nudgeState', () => ({
      nudgesDue: nudger.watching,
      panelVisible: panel.isVisible,
      windowFocused: vscode.window.state.focused,
    })),
    // What the badge, status bar, tree and the tree's quick pick show.
    vscode.commands.registerCommand('agentQuestions.internal.attentionState', () => ({
      ...attention.state(),
      tree: queue.getChildren().map((group) => ({ label: queue.getTreeItem(group).label, children: queue.getChildren(group).map((r) => queue.getTreeItem(r).label) })),
      // The rows' hover tooltips as VS Code would draw them: the markdown source and whether it is trusted.
      tooltips: broker.list().map((r) => {
        const tooltip = queue.resolveTreeItem(queue.getTreeItem(r), r).tooltip as vscode.MarkdownString;
        return { markdown: tooltip.value, trusted: tooltip.isTrusted ?? false, html: tooltip.supportHtml ?? false };
      }),
      // The Queue's "… and N more" quick pick while it is open.
      ...(queue.pickState() ? { pick: queue.pickState() } : {}),
    })),
  );
}
