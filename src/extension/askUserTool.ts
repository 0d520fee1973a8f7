// The `ask_user` language-model tool: a thin adapter over callAskUser. The question shows in the
// panel as soon as VS Code prepares the call (held, not answerable), and the invocation's request
// takes it over; a prepared call that is never invoked is withdrawn (see preparedCalls.ts).
import * as vscode from 'vscode';
import { attachedImages } from '../broker/questions/answerImages';
import { parseAskUserInput } from '../broker/questions/askUserInput';
import { callAskUser } from '../broker/questions/askUserCall';
import type { Policy } from '../broker/askWithPolicy';
import type { QuestionBroker } from '../broker/broker';
import type { LaterAnswers } from '../broker/questions/laterAnswers';
import { chatOwner, GetAnswersTool } from './getAnswersTool';
import { askingMarkdown, FOCUS_QUESTION_COMMAND, type AskingWords } from '../broker/questions/progressMessage';
import { mark } from './benchTrace';
import { readSettings } from './settings';
import { keepTokenizerWarm } from './tokenizerKeepWarm';
import { newRequestId } from '../broker/ids';
import { PreparedCalls } from '../broker/questions/preparedCalls';
import type { Question, QuestionRequest } from '../broker/contract/schemas';
import type { QuestionPanelView } from './questionPanelView';
import { uiText } from '../broker/visibleText';

/**
 * How long a prepared call's question stays in the panel without its invocation. VS Code invokes
 * tens of milliseconds after preparing, unless it first asks the user to allow the call; nothing
 * tells the extension when a prepared call was dropped instead (the cancellation token given to
 * prepareInvocation stops reaching the extension host once it returns), so this bound withdraws it.
 */
export const PREPARED_HOLD_MS = 5_000;

export class AskUserTool implements vscode.LanguageModelTool<unknown>, vscode.Disposable {
  static readonly toolName = 'ask_user';
  /** The keep-warm counting failed once and was logged; later failures stay quiet. */
  private keepWarmLogged = false;
  private readonly prepared: PreparedCalls;

  constructor(
    private readonly broker: QuestionBroker,
    private readonly policy: Policy,
    private readonly later: LaterAnswers,
    private readonly log: vscode.LogOutputChannel,
    private readonly panel: QuestionPanelView,
  ) {
    this.prepared = new PreparedCalls({ holdMs: PREPARED_HOLD_MS, newId: () => `prepared-${newRequestId()}`, withdraw: (previewId) => panel.withdrawPreview(previewId) });
  }

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): vscode.PreparedToolInvocation {
    mark('prepareInvocation');
    const parsed = parseAskUserInput(options.input);
    if (!parsed.ok) return { invocationMessage: vscode.l10n.t('Asking the user (the question needs fixing first)') };
    // Only a question that will wait for the user in the panel; wait: false and answers-file calls show nothing early.
    // A hidden panel loads its requests when the call is queued.
    if (parsed.input.wait !== false && this.policy.route().kind === 'ask' && this.panel.isVisible) this.previewEarly(options, parsed.questions, parsed.input.context);
    // A trusted link that may run only our focus command; the agent's headers in it are escaped text.
    const message = new vscode.MarkdownString(
      askingMarkdown(
        parsed.questions.map((q) => q.header),
        askingWords(),
      ),
    );
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
    const owner = chatOwner(options.toolInvocationToken);
    // The question this call's prepareInvocation put on screen: the queued request takes it over.
    const previewId = this.prepared.claim(options.input, owner);
    let queued = false;
    let result: Awaited<ReturnType<typeof callAskUser>>;
    try {
      result = await callAskUser(options.input, {
        broker: this.broker,
        policy: this.policy,
        source: toolSource(),
        options: {
          token,
          timeoutMs: readSettings().timeoutSeconds * 1000,
          onQueued: (requestId) => {
            queued = true;
            if (previewId) this.panel.bindPreview(previewId, requestId);
          },
        },
        // wait: false outlives this turn: the chat's Stop does not cancel it; the same chat collects it.
        later: { store: this.later, owner },
      });
    } finally {
      mark('answer in invoke');
      stopKeepWarm();
      // Nothing was queued to take the preview over (the policy changed in between, or the call failed).
      if (previewId && !queued) this.panel.withdrawPreview(previewId);
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

  /** Puts the prepared call's question in the panel, held until invoke claims it (or withdrawn). */
  private previewEarly(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>, questions: Question[], context: string | undefined): void {
    const previewId = this.prepared.prepare(options.input, preparedSession(options));
    const createdAt = Date.now();
    const timeoutMs = readSettings().timeoutSeconds * 1000;
    // The same request callAskUser will queue, under the preview's id (the broker never knows it).
    const request: QuestionRequest = {
      id: previewId,
      kind: 'questions',
      source: toolSource(),
      questions,
      ...(context ? { context } : {}),
      createdAt,
      ...(timeoutMs > 0 ? { expiresAt: createdAt + timeoutMs } : {}),
    };
    this.panel.preview(request);
  }

  dispose(): void {
    this.prepared.dispose();
  }
}

const toolSource = () => ({ type: 'tool' as const, label: vscode.l10n.t('Chat tool') });

/**
 * The chat a prepared call came from, in chatOwner's form. VS Code passes it to prepareInvocation
 * outside the typed API (and as the invocation token's sessionResource to invoke); it is only a
 * preference when matching, so an unexpected shape costs nothing.
 */
function preparedSession(options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>): string {
  const resource = (options as { chatSessionResource?: unknown }).chatSessionResource;
  if (resource instanceof vscode.Uri) return chatOwner({ sessionResource: resource });
  const parts = resource as { scheme?: unknown } | undefined;
  if (typeof parts?.scheme !== 'string') return '';
  try {
    return chatOwner({ sessionResource: vscode.Uri.from(parts as vscode.Uri) });
  } catch {
    return '';
  }
}

export function registerAskUserTool(
  context: vscode.ExtensionContext,
  broker: QuestionBroker,
  policy: Policy,
  later: LaterAnswers,
  log: vscode.LogOutputChannel,
  panel: QuestionPanelView,
): void {
  const tool = new AskUserTool(broker, policy, later, log, panel);
  context.subscriptions.push(tool, vscode.lm.registerTool(AskUserTool.toolName, tool), vscode.lm.registerTool(GetAnswersTool.toolName, new GetAnswersTool(later, log)));
}

/** The chat's progress line in VS Code's display language (the headers are the agent's). */
const askingWords = (): AskingWords => ({
  asking: (count, headers) => (count === 1 ? vscode.l10n.t('Asking 1 question ({0})', headers) : vscode.l10n.t('Asking {0} questions ({1})', count, headers)),
  link: vscode.l10n.t('Go to the question'),
  linkTitle: vscode.l10n.t('Focus the question in Agent Questions'),
});
