// "Agent Questions: Ask a Sample Question": calls ask_user through vscode.lm.invokeTool
// exactly as an agent does, so the extension can be tried without Copilot.
import * as vscode from 'vscode';
import { AskUserTool } from './askUserTool';

export const SAMPLE_INPUT = {
  context: 'A sample question from the **Ask a Sample Question** command. Pick any option.',
  questions: [
    {
      id: 'database',
      header: 'Database',
      question: 'Which database should the new service use?',
      options: [
        { label: 'PostgreSQL', description: 'Relational, the team already runs it.', recommended: true },
        { label: 'SQLite', description: 'A single file; simplest to deploy.' },
        { label: 'MongoDB', description: 'Document store.' },
      ],
    },
  ],
};

export function registerSampleQuestionCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.askSampleQuestion', async (): Promise<string> => {
      const source = new vscode.CancellationTokenSource();
      try {
        const result = await vscode.lm.invokeTool(AskUserTool.toolName, { input: SAMPLE_INPUT, toolInvocationToken: undefined }, source.token);
        const text = result.content
          .filter((part): part is vscode.LanguageModelTextPart => part instanceof vscode.LanguageModelTextPart)
          .map((part) => part.value)
          .join('');
        log.info(`Sample question returned:\n${text}`);
        void vscode.window.showInformationMessage(`Sample question returned: ${text.split('\n')[0]}`);
        return text;
      } finally {
        source.dispose();
      }
    }),
  );
}
