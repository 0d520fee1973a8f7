// Commands for tests and `npm run bench`, never in the palette (package.json does not contribute
// them): what the panel, the nudges and the attention signals are doing, read from outside.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { Nudger } from '../broker/nudges';
import type { Attention } from './attention';
import { activation, takeMarks } from './benchTrace';
import type { QuestionPanelView } from './questionPanelView';
import type { QueueTree } from './queueTree';

/** The remembered rules' clock: the system's, moved forward only by the rulesClock probe of a test run. */
export function rulesClock(): { now(): number; advance(ms: number): number } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => Date.now() + (offset += ms) };
}

export interface Probed {
  clock: ReturnType<typeof rulesClock>;
  broker: QuestionBroker;
  panel: QuestionPanelView;
  queue: QueueTree;
  attention: Attention;
  nudger: Nudger;
}

export function registerTestProbes(context: vscode.ExtensionContext, { clock, broker, panel, queue, attention, nudger }: Probed): void {
  // These change what the extension does, not only read it: registered only in an extension host run by tests.
  if (context.extensionMode === vscode.ExtensionMode.Test)
    context.subscriptions.push(
      // Moves the rules' clock forward (a rule made to end in a minute, a minute later); returns its time.
      vscode.commands.registerCommand('agentQuestions.internal.rulesClock', (probe: { advanceMs: number }) =>
        clock.advance(Number.isFinite(probe?.advanceMs) && probe.advanceMs > 0 ? probe.advanceMs : 0),
      ),
      // A message as if the Question panel posted it, through the same validation (the card's choices without clicking).
      vscode.commands.registerCommand('agentQuestions.internal.panelMessage', (message: unknown) => panel.receive(message)),
    );
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
