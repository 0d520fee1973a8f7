// The `ask_user` tool call itself, for every transport (the language-model tool, later MCP):
// validate, ask under the policy, and answer with the model-facing text. Never throws for bad input.
import { parseAskUserInput } from './askUserInput';
import { askQuestions, type Policy } from './askWithPolicy';
import type { AskOptions, QuestionBroker } from './broker';
import { formatQuestionResult } from './resultText';
import type { QuestionResponse, RequestSource } from './schemas';

export interface AskUserCall {
  broker: QuestionBroker;
  policy: Policy;
  source: RequestSource;
  options?: AskOptions;
}

export interface AskUserResult {
  text: string;
  /** Absent when the input was invalid and nothing was asked. */
  response?: QuestionResponse;
}

export async function callAskUser(raw: unknown, call: AskUserCall): Promise<AskUserResult> {
  const parsed = parseAskUserInput(raw);
  if (!parsed.ok) return { text: parsed.message };
  const { context } = parsed.input;
  const response = await askQuestions(call.broker, { source: call.source, questions: parsed.questions, ...(context ? { context } : {}) }, call.policy, call.options);
  return { text: formatQuestionResult(parsed.questions, response), response };
}
