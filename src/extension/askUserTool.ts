// The `ask_user` language-model tool: validates the model's input, hands it to the broker,
// and returns the typed outcome as one readable line plus JSON.
import * as vscode from 'vscode';
import { parseAskUserInput } from '../broker/askUserInput';
import type { QuestionBroker } from '../broker/broker';
import { formatQuestionResult } from '../broker/resultText';
import { readSettings } from './settings';

export class AskUserTool implements vscode.LanguageModelTool<unknown> {
  static readonly toolName = 'ask_user';

  constructor(
    private readonly broker: QuestionBroker,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const parsed = parseAskUserInput(options.input);
    if (!parsed.ok) return { invocationMessage: 'Asking the user (the question needs fixing first)' };
    const count = parsed.questions.length;
    const headers = parsed.questions.map((q) => q.header).join(', ');
    return { invocationMessage: `Asking ${count} ${count === 1 ? 'question' : 'questions'} (${headers})` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const parsed = parseAskUserInput(options.input);
    if (!parsed.ok) {
      this.log.warn(`ask_user called with invalid input:\n${parsed.message}`);
      return textResult(parsed.message);
    }
    const response = await this.broker.ask(
      { source: { type: 'tool', label: 'Chat tool' }, questions: parsed.questions, ...(parsed.context ? { context: parsed.context } : {}) },
      { token, timeoutMs: readSettings().timeoutSeconds * 1000 },
    );
    this.log.info(`ask_user request ${response.requestId} settled: ${response.status}`);
    return textResult(formatQuestionResult(parsed.questions, response));
  }
}

const textResult = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);

export function registerAskUserTool(context: vscode.ExtensionContext, broker: QuestionBroker, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(vscode.lm.registerTool(AskUserTool.toolName, new AskUserTool(broker, log)));
}
