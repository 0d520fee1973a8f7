// "Agent Questions: Ask a Sample Question": calls ask_user through vscode.lm.invokeTool
// exactly as an agent does, so the extension can be tried without Copilot.
import * as vscode from 'vscode';
import { AskUserTool } from './askUserTool';

/** The sample, in VS Code's display language: it is the user's first look at the panel. */
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

export function registerSampleQuestionCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.askSampleQuestion', async (): Promise<string> => {
      const source = new vscode.CancellationTokenSource();
      try {
        const result = await vscode.lm.invokeTool(AskUserTool.toolName, { input: sampleInput(), toolInvocationToken: undefined }, source.token);
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
    }),
  );
}
