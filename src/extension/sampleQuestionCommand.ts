// "Agent Questions: Ask a Sample Question" and "Ask for a Sample Secret": call ask_user through
// vscode.lm.invokeTool exactly as an agent does, so the extension can be tried without Copilot.
import * as vscode from 'vscode';
import type { PendingRequest } from '../broker/contract/schemas';
import { AskUserTool } from './askUserTool';

// The samples are in VS Code's display language: they are the user's first look at the panel.
export const sampleInput = () => ({
  context: vscode.l10n.t('A sample question from the **Ask a Sample Question** command. Pick any option.'),
  questions: [
    {
      id: 'database',
      header: vscode.l10n.t('Database'),
      question: vscode.l10n.t('Which database should the new service use?'),
      options: [
        { label: 'PostgreSQL', description: vscode.l10n.t('Relational, the team already runs it.'), recommended: true },
        { label: 'SQLite', description: vscode.l10n.t('A single file; simplest to deploy.') },
        { label: 'MongoDB', description: vscode.l10n.t('Document store.') },
      ],
    },
  ],
});

export const sampleSecretInput = () => ({
  context: vscode.l10n.t(
    'A sample secret from the **Ask for a Sample Secret** command. Type a made-up value, not a real key: it is kept in secret storage and new terminals get it as `$SAMPLE_API_KEY`. Delete it with **Agent Questions: Manage Stored Secrets**.',
  ),
  questions: [
    {
      id: 'sample_secret',
      header: vscode.l10n.t('Sample secret'),
      question: vscode.l10n.t('Type a made-up token to see how an agent asks for a secret without seeing it.'),
      kind: 'secret',
      envVar: 'SAMPLE_API_KEY',
    },
  ],
});

/** Whether a request is one of the samples above (the walkthrough waits for a real agent). */
export function isSampleRequest(request: PendingRequest): boolean {
  return request.kind === 'questions' && (request.context === sampleInput().context || request.context === sampleSecretInput().context);
}

export function registerSampleQuestionCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.askSampleQuestion', () => askSample(sampleInput(), log)),
    vscode.commands.registerCommand('agentQuestions.askSampleSecret', () => askSample(sampleSecretInput(), log)),
  );
}

async function askSample(input: object, log: vscode.LogOutputChannel): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await vscode.lm.invokeTool(AskUserTool.toolName, { input, toolInvocationToken: undefined }, source.token);
    const text = result.content
      .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
      .map((part) => part.value)
      .join('');
    log.info(`Sample question returned:\n${text}`);
    void vscode.window.showInformationMessage(vscode.l10n.t('Sample question returned: {0}', text.split('\n')[0] ?? ''));
    return text;
  } finally {
    source.dispose();
  }
}
