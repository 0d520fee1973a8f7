// The `ask_user` language-model tool: a thin adapter over callAskUser.
import * as vscode from 'vscode';
import { attachedImages } from '../broker/answerImages';
import { parseAskUserInput } from '../broker/askUserInput';
import { callAskUser } from '../broker/askUserCall';
import type { Policy } from '../broker/askWithPolicy';
import type { QuestionBroker } from '../broker/broker';
import type { LaterAnswers } from '../broker/laterAnswers';
import { chatOwner, GetAnswersTool } from './getAnswersTool';
import { askingMarkdown, FOCUS_QUESTION_COMMAND, type AskingWords } from '../broker/progressMessage';
import { mark } from './benchTrace';
import { readSettings } from './settings';
import { keepTokenizerWarm } from './tokenizerKeepWarm';
import { uiText } from '../broker/visibleText';

export class AskUserTool implements vscode.LanguageModelTool<unknown> {
  static readonly toolName = 'ask_user';
  /** The keep-warm counting failed once and was logged; later failures stay quiet. */
  private keepWarmLogged = false;

  constructor(
    private readonly broker: QuestionBroker,
    private readonly policy: Policy,
    private readonly later: LaterAnswers,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    mark('prepareInvocation');
    const parsed = parseAskUserInput(options.input);
    if (!parsed.ok) return { invocationMessage: vscode.l10n.t('Asking the user (the question needs fixing first)') };
    // A trusted link that may run only our focus command; the agent's headers in it are escaped text.
    const message = new vscode.MarkdownString(askingMarkdown(parsed.questions.map((q) => q.header), askingWords()));
    message.isTrusted = { enabledCommands: [FOCUS_QUESTION_COMMAND] };
    mark('prepared');
    return { invocationMessage: message };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    mark('invoke');
    // While the user takes their time, the chat's tokenizer stays loaded for the answer (see tokenizerKeepWarm.ts).
    const stopKeepWarm = keepTokenizerWarm(options.tokenizationOptions, (error) => {
      if (this.keepWarmLogged) return;
      this.keepWarmLogged = true;
      this.log.warn(`ask_user could not keep the chat's tokenizer warm: ${uiText(String(error), 300)}`);
    });
    let result: Awaited<ReturnType<typeof callAskUser>>;
    try {
      result = await callAskUser(options.input, {
        broker: this.broker,
        policy: this.policy,
        source: { type: 'tool', label: vscode.l10n.t('Chat tool') },
        options: { token, timeoutMs: readSettings().timeoutSeconds * 1000 },
        // wait: false outlives this turn: the chat's Stop does not cancel it; the same chat collects it.
        later: { store: this.later, owner: chatOwner(options.toolInvocationToken) },
      });
    } finally {
      stopKeepWarm();
    }
    const { text, response, waitingId } = result;
    if (response) this.log.info(`ask_user request ${response.requestId} settled: ${response.status}`);
    else if (waitingId) this.log.info(`ask_user request ${waitingId} waits; the agent keeps working (wait: false)`);
    // One line: field names in the message are the agent's and must not forge log lines.
    else this.log.warn(`ask_user asked nothing: ${uiText(text, 2000)}`);
    // The text describes each image; the bytes follow as image parts (the text never holds base64).
    const images = response ? attachedImages(response).map((image) => vscode.LanguageModelDataPart.image(Buffer.from(image.data, 'base64'), image.mimeType)) : [];
    mark('invoke returns');
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text), ...images]);
  }
}

export function registerAskUserTool(context: vscode.ExtensionContext, broker: QuestionBroker, policy: Policy, later: LaterAnswers, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.lm.registerTool(AskUserTool.toolName, new AskUserTool(broker, policy, later, log)),
    vscode.lm.registerTool(GetAnswersTool.toolName, new GetAnswersTool(later, log)),
  );
}

/** The chat's progress line in VS Code's display language (the headers are the agent's). */
const askingWords = (): AskingWords => ({
  asking: (count, headers) => (count === 1 ? vscode.l10n.t('Asking 1 question ({0})', headers) : vscode.l10n.t('Asking {0} questions ({1})', count, headers)),
  link: vscode.l10n.t('Go to the question'),
  linkTitle: vscode.l10n.t('Focus the question in Agent Questions'),
});
