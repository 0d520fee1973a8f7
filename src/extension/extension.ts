import * as vscode from 'vscode';
import { QuestionBroker } from '../broker/broker';
import { History } from '../broker/history';
import { newRequestId } from '../broker/ids';
import { LaterAnswers } from '../broker/questions/laterAnswers';
import type { AgentQuestionsApi } from './api';
import { createApi } from './apiImpl';
import { activation, mark } from './benchTrace';
import { registerAskUserTool } from './askUserTool';
import { Attention } from './attention';
import { registerCommands } from './commands';
import { registerDecisionLogCommand } from './decisionLogCommand';
import { registerPermissionCommands } from './permissionCommands';
import { registerReplaceAgentGrant } from './replaceAgentGrant';
import { watchAgentGrants } from './agentGrantNotices';
import { ExternalAgents } from './externalAgents';
import { createPolicy } from './policyAdapter';
import { QuestionPanelView } from './questionPanelView';
import { QueueTree } from './queueTree';
import { registerNudges } from './nudgeCommands';
import { registerAnswerPage } from './answerPageAdapter';
import { registerSampleQuestionCommand } from './sampleQuestionCommand';
import { SecretVault } from './secretVault';
import { registerTestProbes, rulesClock } from './testProbes';
import { placeNextToChatOnce } from './viewPlacement';
import { readSettings } from './settings';
import { trackWalkthroughProgress } from './walkthrough';

export function activate(context: vscode.ExtensionContext): AgentQuestionsApi {
  activation.enteredAt = Date.now();
  const started = performance.now();
  const log = vscode.window.createOutputChannel('Agent Questions', { log: true });
  const broker = new QuestionBroker({ newId: newRequestId, log: (message) => log.warn(message) });
  const history = new History(context.workspaceState, () => readSettings().historyLimit);
  const clock = rulesClock();
  const policy = createPolicy(context, log, clock.now);
  const later = new LaterAnswers({ keepMs: () => readSettings().keepCollectedAnswersMinutes * 60_000 });
  // The broker goes first: disposing it cancels what is pending while every listener still hears it.
  // Its own listeners (like this one) are released by its disposal.
  context.subscriptions.push(broker, log);
  broker.onDidChange((change) => {
    if (change.type !== 'settled') return;
    mark('settled');
    history.record(change);
  });

  const vault = new SecretVault(context.secrets, context.globalState, context.environmentVariableCollection, log);
  context.subscriptions.push(vault);
  void vault.restore();
  const panel = new QuestionPanelView(context.extensionUri, broker, history, vault, log);
  const queue = new QueueTree(broker, policy.permissions);
  const treeView = vscode.window.createTreeView(QueueTree.viewId, { treeDataProvider: queue, showCollapseAll: false });
  const attention = new Attention(broker, treeView, panel);
  context.subscriptions.push(panel, queue, treeView, attention, vscode.window.registerWebviewViewProvider(QuestionPanelView.viewType, panel));
  registerCommands(context, broker, panel, history, vault);
  registerDecisionLogCommand(context, history);
  // Not awaited: activation does not wait for the layout. A failed move leaves the view where it was.
  placeNextToChatOnce(context.globalState).catch(() => undefined);
  registerPermissionCommands(context, policy.permissions);
  registerReplaceAgentGrant(context, policy.permissions, log);
  watchAgentGrants(context, policy.permissions, log);
  registerAskUserTool(context, broker, policy, later, log, panel);
  registerSampleQuestionCommand(context, log);
  const answerPage = registerAnswerPage(context, broker, log);
  const nudger = registerNudges(context, broker, panel, log, answerPage);
  registerTestProbes(context, { clock, broker, panel, queue, attention, nudger });
  context.subscriptions.push(trackWalkthroughProgress(broker, vault));
  const externalAgents = new ExternalAgents(context, broker, policy, later, attention, log);
  // Restricted Mode ignores the workspace's say on the endpoint (see settings.ts); trusting the folder gives it back.
  context.subscriptions.push(
    externalAgents,
    vscode.workspace.onDidGrantWorkspaceTrust(() => void externalAgents.apply()),
  );
  void externalAgents.apply();
  log.info('Agent Questions is ready.');
  const api = createApi(broker, policy, history, vault);
  activation.returnedAt = Date.now();
  activation.ms = performance.now() - started;
  return api;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions; disposing the broker cancels what is pending.
}
