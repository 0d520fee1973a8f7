// Asking, as every client does it: the availability policy first (unavailable, scripted,
// remembered "always allow"), then the broker's queue.
import type { AskOptions, NewPermissionRequest, NewQuestionRequest, QuestionBroker } from './broker';
import type { Route } from './policy';
import type { RememberedPermissions } from './rememberedPermissions';
import { answersFromScript, SCRIPTED_REASON, type ParsedAnswersFile } from './scriptedAnswers';
import type { PermissionResponse, QuestionResponse } from './schemas';

export interface Policy {
  route(): Route;
  /** Reads the answers file; called only in answersFile mode. */
  loadAnswersFile(): Promise<ParsedAnswersFile>;
  permissions: RememberedPermissions;
}

export async function askQuestions(broker: QuestionBroker, request: NewQuestionRequest, policy: Policy, options: AskOptions = {}): Promise<QuestionResponse> {
  const route = policy.route();
  if (route.kind === 'unavailable') return broker.answerWithoutAsking(request, { status: 'unavailable', reason: route.reason });
  if (route.kind === 'script') {
    const file = await policy.loadAnswersFile();
    if (!file.ok) return broker.answerWithoutAsking(request, { status: 'unavailable', reason: file.error });
    const scripted = answersFromScript(request.questions, file.entries);
    return broker.answerWithoutAsking(request, scripted.ok ? { status: 'answered', answers: scripted.answers, reason: SCRIPTED_REASON } : { status: 'unavailable', reason: scripted.reason });
  }
  return broker.ask(request, options);
}

export async function askPermission(broker: QuestionBroker, request: NewPermissionRequest, policy: Policy, options: AskOptions = {}): Promise<PermissionResponse> {
  if (request.permissionKey && policy.permissions.isAlwaysAllowed(request.permissionKey)) {
    return broker.decideWithoutAsking(request, { status: 'answered', decision: 'allow_always', reason: 'The user chose "Always allow" for this earlier.' });
  }
  const route = policy.route();
  if (route.kind !== 'ask') {
    const reason = route.kind === 'unavailable' ? route.reason : 'Permission requests are never answered from the answers file.';
    return broker.decideWithoutAsking(request, { status: 'unavailable', reason });
  }
  const response = await broker.requestPermission(request, options);
  if (response.decision === 'allow_always' && request.permissionKey) await policy.permissions.remember(request.permissionKey);
  return response;
}
