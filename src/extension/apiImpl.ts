// Builds the exported API on the broker. The public types live in api.ts (copyable, import-free).
import * as vscode from 'vscode';
import { parseApiAskRequest } from '../broker/questions/askUserInput';
import { askPermission, askQuestions, type Policy } from '../broker/askWithPolicy';
import type { BrokerChange, QuestionBroker } from '../broker/broker';
import type { History } from '../broker/history';
import { ApiPermissionRequestSchema, type RequestSource } from '../broker/contract/schemas';
import { isSecretKind } from '../broker/contract/questionKinds';
import { displayToolCall } from '../broker/permissions/toolCallDisplay';
import type { AgentQuestionsApi } from './api';
import { resolveSecretAnswers } from './secretAnswers';
import type { SecretVault } from './secretVault';
import { readSettings } from './settings';

const sourceFor = (extensionId: string | undefined): RequestSource => ({
  type: 'extension',
  label: extensionId ? vscode.l10n.t('Extension {0}', extensionId) : vscode.l10n.t('Extension'),
});
/**
 * What the API's reply, decide and reject record as who decided: an extension. It may be relaying
 * its user's choice from its own UI, but Agent Questions cannot know that, so it records no more.
 */
const BY_EXTENSION = { by: 'extension' } as const;
const timeoutMs = (seconds: number | undefined) => (seconds ?? readSettings().timeoutSeconds) * 1000;

export function createApi(broker: QuestionBroker, policy: Policy, history: History, vault: SecretVault): AgentQuestionsApi {
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
      const { title, detail, permissionKey, command, extensionId, timeoutSeconds } = parsed.data;
      // A command is shown and decided as agents' shell commands are (its rules, its warnings).
      const toolCall = command !== undefined ? displayToolCall('Bash', { command }, []) : undefined;
      if (toolCall && !toolCall.ok) throw new Error(`AgentQuestionsApi.requestPermission: ${toolCall.message}`);
      return askPermission(
        broker,
        { source: sourceFor(extensionId), title, detail, ...(permissionKey ? { permissionKey } : {}), ...(toolCall?.ok ? { toolCall: toolCall.toolCall } : {}) },
        policy,
        {
          ...(token ? { token } : {}),
          timeoutMs: timeoutMs(timeoutSeconds),
        },
      );
    },
    list: () => broker.list(),
    reply(requestId, answers, note) {
      const request = broker.get(requestId);
      const values = Object.fromEntries(Object.entries(answers).flatMap(([id, a]) => (a.value !== undefined && !a.skipped ? [[id, a.value]] : [])));
      const forSecrets = request?.kind === 'questions' && Object.keys(values).every((id) => request.questions.some((q) => q.id === id && isSecretKind(q.kind)));
      // Without secret values (or with a misplaced one, which the broker refuses and logs) it settles now.
      if (request?.kind !== 'questions' || Object.keys(values).length === 0 || !forSecrets) return broker.reply(requestId, answers, BY_EXTENSION, note);
      // A trusted caller answering a secret: the value is stored first; the request then settles with the handle.
      // The caller is an extension: it could set any variable through its own environment collection, so it confirms its names itself.
      resolveSecretAnswers(request, answers, { values, useStored: [], nameConfirmed: Object.keys(values) }, vault).then(
        (resolved) => {
          if ('answers' in resolved) broker.reply(requestId, resolved.answers, BY_EXTENSION, note);
        },
        // SecretStorage refused the value: the request keeps waiting, as after any reply that cannot be used.
        () => undefined,
      );
      return true;
    },
    decide: (requestId, decision, options) => broker.decide(requestId, decision, BY_EXTENSION, undefined, options?.rule, options?.scope),
    reject: (requestId, reason) => broker.reject(requestId, BY_EXTENSION, reason),
    history: () => history.list(),
    // The API's changes stay as they were: who decided is in history() (HistoryEntry.decidedBy).
    onDidChange: (listener) => broker.onDidChange((change) => listener(change.type === 'settled' ? withoutDecidedBy(change) : change)),
  };
}

const withoutDecidedBy = ({ decidedBy: _decidedBy, ...change }: Extract<BrokerChange, { type: 'settled' }>) => change;
