// "Agent Questions: Ask a Sample Question" and "Ask for a Sample Secret": call ask_user through
// vscode.lm.invokeTool exactly as an agent does, so the extension can be tried without Copilot.
import * as vscode from 'vscode';
import type { PendingRequest } from '../broker/schemas';
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

export const SAMPLE_SECRET_INPUT = {
  context: 'A sample secret from the **Ask for a Sample Secret** command. Type a made-up value, not a real key: it is kept in secret storage and new terminals get it as `$SAMPLE_API_KEY`. Delete it with **Agent Questions: Manage Stored Secrets**.',
  questions: [
    {
      id: 'sample_secret',
      header: 'Sample secret',
      question: 'Type a made-up token to see how an agent asks for a secret without seeing it.',
      kind: 'secret',
      envVar: 'SAMPLE_API_KEY',
    },
  ],
};

/** Whether a request is one of the samples above (the walkthrough waits for a real agent). */
export function isSampleRequest(request: PendingRequest): boolean {
  return request.kind === 'questions' && (request.context === SAMPLE_INPUT.context || request.context === SAMPLE_SECRET_INPUT.context);
}

export function registerSampleQuestionCommand(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('agentQuestions.askSampleQuestion', () => askSample(SAMPLE_INPUT, log)),
    vscode.commands.registerCommand('agentQuestions.askSampleSecret', () => askSample(SAMPLE_SECRET_INPUT, log)),
  );
}

async function askSample(input: typeof SAMPLE_INPUT | typeof SAMPLE_SECRET_INPUT, log: vscode.LogOutputChannel): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await vscode.lm.invokeTool(AskUserTool.toolName, { input, toolInvocationToken: undefined }, source.token);
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
}
