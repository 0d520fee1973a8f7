import * as vscode from 'vscode';

export interface Settings {
  timeoutSeconds: number;
  revealOnAsk: boolean;
}

/** Settings are read when used, so changes apply without a reload. */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('agentQuestions');
  return {
    timeoutSeconds: Math.max(0, config.get<number>('timeoutSeconds', 0)),
    revealOnAsk: config.get<boolean>('revealOnAsk', true),
  };
}
