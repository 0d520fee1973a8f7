// The "Get Started with Agent Questions" walkthrough (package.json `walkthroughs`): the context keys
// that mark a step done when the user has really done it, not just opened it.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import { isSampleRequest } from './sampleQuestionCommand';
import type { SecretVault } from './secretVault';

/** Context keys named in the walkthrough steps' `completionEvents` (onContext:<key>). */
export const WALKTHROUGH_KEYS = {
  agentAsked: 'agentQuestions.walkthrough.agentAsked',
  externalAgentAsked: 'agentQuestions.walkthrough.externalAgentAsked',
  secretStored: 'agentQuestions.walkthrough.secretStored',
} as const;

export function trackWalkthroughProgress(broker: QuestionBroker, vault: SecretVault): vscode.Disposable {
  const done = new Set<string>();
  // VS Code remembers a completed step, so each key only ever needs to turn true once.
  const mark = (key: string) => {
    if (done.has(key)) return;
    done.add(key);
    void vscode.commands.executeCommand('setContext', key, true);
  };
  const markSecret = () => {
    if (vault.names().length > 0) mark(WALKTHROUGH_KEYS.secretStored);
  };
  markSecret();
  return vscode.Disposable.from(
    broker.onDidChange((change) => {
      if (change.type !== 'added' || isSampleRequest(change.request)) return;
      if (change.request.source.type === 'tool') mark(WALKTHROUGH_KEYS.agentAsked);
      if (change.request.source.type === 'mcp') mark(WALKTHROUGH_KEYS.externalAgentAsked);
    }),
    vault.onDidChange(markSecret),
  );
}
