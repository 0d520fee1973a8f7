// Builds the exported API on the broker. The public types live in api.ts (copyable, import-free).
import { parseApiAskRequest } from '../broker/askUserInput';
import { askPermission, askQuestions, type Policy } from '../broker/askWithPolicy';
import type { QuestionBroker } from '../broker/broker';
import type { History } from '../broker/history';
import { ApiPermissionRequestSchema, type RequestSource } from '../broker/schemas';
import type { AgentQuestionsApi } from './api';
import { readSettings } from './settings';

const sourceFor = (extensionId: string | undefined): RequestSource => ({ type: 'extension', label: extensionId ? `Extension ${extensionId}` : 'Extension' });
const timeoutMs = (seconds: number | undefined) => (seconds ?? readSettings().timeoutSeconds) * 1000;

export function createApi(broker: QuestionBroker, policy: Policy, history: History): AgentQuestionsApi {
  return {
    async ask(request, token) {
      const parsed = parseApiAskRequest(request);
      if (!parsed.ok) throw new Error(parsed.message);
      const { context, extensionId, timeoutSeconds } = parsed.input;
      return askQuestions(broker, { source: sourceFor(extensionId), questions: parsed.questions, ...(context ? { context } : {}) }, policy, {
        ...(token ? { token } : {}),
        timeoutMs: timeoutMs(timeoutSeconds),
      });
    },
    async requestPermission(request, token) {
      const parsed = ApiPermissionRequestSchema.safeParse(request);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((i) => `${i.path.join('.') || '(request)'}: ${i.message}`).join('; ');
        throw new Error(`AgentQuestionsApi.requestPermission: the request is invalid; nothing was asked. ${fields}`);
      }
      const { title, detail, permissionKey, extensionId, timeoutSeconds } = parsed.data;
      return askPermission(broker, { source: sourceFor(extensionId), title, detail, ...(permissionKey ? { permissionKey } : {}) }, policy, {
        ...(token ? { token } : {}),
        timeoutMs: timeoutMs(timeoutSeconds),
      });
    },
    list: () => broker.list(),
    reply: (requestId, answers) => broker.reply(requestId, answers),
    decide: (requestId, decision) => broker.decide(requestId, decision),
    reject: (requestId, reason) => broker.reject(requestId, reason),
    history: () => history.list(),
    onDidChange: (listener) => broker.onDidChange(listener),
  };
}
