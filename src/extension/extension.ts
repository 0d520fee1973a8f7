import * as vscode from 'vscode';
import { QuestionBroker } from '../broker/broker';
import { newRequestId } from '../broker/ids';
import type { AgentQuestionsApi } from './api';
import { createApi } from './apiImpl';
import { registerAskUserTool } from './askUserTool';
import { QuestionPanelView } from './questionPanelView';
import { QueueTree } from './queueTree';
import { registerSampleQuestionCommand } from './sampleQuestionCommand';

export function activate(context: vscode.ExtensionContext): AgentQuestionsApi {
  const log = vscode.window.createOutputChannel('Agent Questions', { log: true });
  const broker = new QuestionBroker({ newId: newRequestId, log: (message) => log.warn(message) });
  context.subscriptions.push(log, broker);

  const panel = new QuestionPanelView(context.extensionUri, broker, log);
  const queue = new QueueTree(broker);
  context.subscriptions.push(
    panel,
    queue,
    vscode.window.registerWebviewViewProvider(QuestionPanelView.viewType, panel),
    vscode.window.createTreeView(QueueTree.viewId, { treeDataProvider: queue }),
  );
  registerAskUserTool(context, broker, log);
  registerSampleQuestionCommand(context, log);
  log.info('Agent Questions is ready.');
  return createApi(broker);
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
