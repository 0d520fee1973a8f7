// The `get_answers` language-model tool: a thin adapter over callGetAnswers. Only the chat that
// asked (VS Code's invocation token names its session) can collect an answer.
import * as vscode from 'vscode';
import { callGetAnswers } from '../broker/questions/getAnswersCall';
import type { LaterAnswers } from '../broker/questions/laterAnswers';

/** Who asked or collects: the chat session from the invocation token; callers outside a chat share one owner. */
export function chatOwner(toolInvocationToken: unknown): string {
  const token = toolInvocationToken as { sessionResource?: unknown; sessionId?: unknown } | undefined;
  const session = token?.sessionResource ?? token?.sessionId;
  return session ? `chat:${String(session)}` : 'chat:none';
}

export class GetAnswersTool implements vscode.LanguageModelTool<unknown> {
  static readonly toolName = 'get_answers';

  constructor(
    private readonly store: LaterAnswers,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    const waits = Number((options.input as { waitSeconds?: unknown } | undefined)?.waitSeconds) > 0;
    return { invocationMessage: waits ? vscode.l10n.t('Waiting for your answers in Agent Questions') : vscode.l10n.t('Reading your answers in Agent Questions') };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    // Stop in the chat ends only this wait; the questions stay in the queue.
    const stop = new AbortController();
    const subscription = token.onCancellationRequested(() => stop.abort());
    if (token.isCancellationRequested) stop.abort();
    try {
      const result = await callGetAnswers(options.input, { store: this.store, owner: chatOwner(options.toolInvocationToken), signal: stop.signal });
      this.log.info(`get_answers: ${result.results ? result.results.map((r) => r.status).join(', ') : 'invalid input'}`);
      const images = result.images.map((image) => vscode.LanguageModelDataPart.image(Buffer.from(image.data, 'base64'), image.mimeType));
      return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(result.text), ...images]);
    } finally {
      subscription.dispose();
    }
  }
}
