// The answer page's switch in activation: while agentQuestions.answerPage.enabled is off (the
// default) nothing is loaded; on, or on the command that turns it on, dist/answerPage.js is required
// (see answerPageModule.ts), which starts and stops the page from then on.
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import type { AnswerPageSwitch } from './answerPageModule';

type AnswerPageModule = typeof import('./answerPageModule');
// A computed path, so esbuild leaves the require alone: dist/answerPage.js is its own bundle.
const loadAnswerPageModule = (): AnswerPageModule => require(join(__dirname, 'answerPage.js')) as AnswerPageModule;

const LAST_PORT_KEY = 'agentQuestions.answerPage.lastPort';

/** The request's link for a nudge (undefined while the page is off). */
export type AnswerUrlFor = (requestId: string) => Promise<string | undefined>;

export function registerAnswerPage(context: vscode.ExtensionContext, broker: QuestionBroker, log: vscode.LogOutputChannel): AnswerUrlFor {
  let page: AnswerPageSwitch | undefined;
  // The window's storage keeps the page's port: after a restart or a reload, old links reach the page's own "No longer waiting".
  const lastPort = { get: () => context.workspaceState.get(LAST_PORT_KEY), set: (port: number) => void context.workspaceState.update(LAST_PORT_KEY, port) };
  const loaded = () => (page ??= new (loadAnswerPageModule().AnswerPageSwitch)(broker, log, lastPort));
  // A user setting only: a repository's settings must not open a page onto its requests.
  const on = () => vscode.workspace.getConfiguration('agentQuestions.answerPage').inspect('enabled')?.globalValue === true;
  if (on()) void loaded().apply();
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.turnOnAnswerPage', () => loaded().turnOn()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // Nothing is loaded for a setting changed while the page was never on.
      if (event.affectsConfiguration('agentQuestions.answerPage') && (page || on())) void loaded().apply();
    }),
    { dispose: () => page?.dispose() },
  );
  return async (id) => page?.externalUrlFor(id);
}
