// The `ask_user` tool call itself, for every transport (the language-model tool, MCP): validate,
// ask under the policy, and answer with the model-facing text. Never throws for bad input.
// With `wait: false` the question is queued and the call returns at once with its id.
import { parseAskUserInput } from './askUserInput';
import { askQuestions, type Policy } from '../askWithPolicy';
import type { AskOptions, QuestionBroker } from '../broker';
import type { LaterAnswers } from './laterAnswers';
import { formatQuestionResult, formatWaitingResult } from '../contract/resultText';
import type { QuestionResponse, RequestSource } from '../contract/schemas';

export interface AskUserCall {
  broker: QuestionBroker;
  policy: Policy;
  source: RequestSource;
  options?: AskOptions;
  /** Where `wait: false` questions wait for get_answers, and who may collect them. */
  later?: LaterCaller;
}

export interface LaterCaller {
  store: LaterAnswers;
  /** The chat session or MCP client that asked: only it can collect the answer. */
  owner: string;
  /** The owners that share places with it (the MCP clients of one token); alone, its own group. */
  group?: string;
}

export interface AskUserResult {
  text: string;
  /** Absent when the input was invalid and nothing was asked, or when the call did not wait. */
  response?: QuestionResponse;
  /** `wait: false`: the id of the request that waits for the user. */
  waitingId?: string;
  /** The text is a refusal to ask (invalid input, too many waiting). */
  isError?: boolean;
}

export async function callAskUser(raw: unknown, call: AskUserCall): Promise<AskUserResult> {
  const parsed = parseAskUserInput(raw);
  if (!parsed.ok) return { text: parsed.message, isError: true };
  const { context, wait } = parsed.input;
  const request = { source: call.source, questions: parsed.questions, ...(context ? { context } : {}) };
  // Only a question a human will see waits in the background; unavailable or scripted answers come at once.
  if (wait === false && call.later && call.policy.route().kind === 'ask') {
    const { store, owner, group } = call.later;
    const refused = store.refusal(owner, group);
    if (refused) return { text: `ask_user: nothing was asked. ${refused}`, isError: true };
    let waitingId = '';
    // No cancellation: the question outlives the call, the chat turn and the MCP session that asked.
    const options: AskOptions = { timeoutMs: call.options?.timeoutMs, onQueued: (id) => (waitingId = id) };
    const response = askQuestions(call.broker, { ...request, keepsWorking: true }, call.policy, options);
    store.hold(owner, waitingId, parsed.questions, response, group);
    return { text: formatWaitingResult(waitingId), waitingId };
  }
  const response = await askQuestions(call.broker, request, call.policy, call.options);
  return { text: formatQuestionResult(parsed.questions, response), response };
}
