// Builds the exported API on the broker. The public types live in api.ts (copyable, import-free).
import type { QuestionBroker } from '../broker/broker';
import type { Question } from '../broker/schemas';
import type { AgentQuestionsApi, AskRequest } from './api';

export function createApi(broker: QuestionBroker): AgentQuestionsApi {
  return {
    ask: (request: AskRequest, token) =>
      broker.ask(
        {
          source: { type: 'extension', label: request.label ? `Extension ${request.label}` : 'Extension' },
          questions: request.questions.map(normalize),
          ...(request.context ? { context: request.context } : {}),
        },
        token ? { token } : {},
      ),
    list: () => broker.list(),
    reply: (requestId, answers) => broker.reply(requestId, answers),
    reject: (requestId, reason) => broker.reject(requestId, reason),
    onDidChange: (listener) => broker.onDidChange(listener),
  };
}

function normalize(question: AskRequest['questions'][number]): Question {
  const choice = question.kind === 'single' || question.kind === 'multi';
  return { ...question, options: question.options ?? [], allowOther: choice ? (question.allowOther ?? true) : false };
}
