// Asking, as every client does it: the availability policy first (unavailable, scripted,
// remembered "always allow"), then the broker's queue.
import type { AskOptions, NewPermissionRequest, NewQuestionRequest, QuestionBroker } from './broker';
import type { Route } from './policy';
import type { RememberedPermissions } from './permissions/rememberedPermissions';
import { answersFromScript, SCRIPTED_REASON, type ParsedAnswersFile } from './scriptedAnswers';
import type { PermissionResponse, QuestionResponse } from './contract/schemas';

export interface Policy {
  route(): Route;
  /** Reads the answers file; called only in answersFile mode. */
  loadAnswersFile(): Promise<ParsedAnswersFile>;
  permissions: RememberedPermissions;
}

export async function askQuestions(broker: QuestionBroker, request: NewQuestionRequest, policy: Policy, options: AskOptions = {}): Promise<QuestionResponse> {
  const route = policy.route();
  if (route.kind === 'unavailable')
    return broker.answerWithoutAsking(request, { status: 'unavailable', reason: route.reason, decidedBy: { by: 'policy', setting: route.setting } });
  if (route.kind === 'script') {
    const decidedBy = { by: 'answersFile' } as const;
    const file = await policy.loadAnswersFile();
    if (!file.ok) return broker.answerWithoutAsking(request, { status: 'unavailable', reason: file.error, decidedBy });
    const scripted = answersFromScript(request.questions, file.entries);
    return broker.answerWithoutAsking(
      request,
      scripted.ok ? { status: 'answered', answers: scripted.answers, reason: SCRIPTED_REASON, decidedBy } : { status: 'unavailable', reason: scripted.reason, decidedBy },
    );
  }
  return broker.ask(request, options);
}

/**
 * The policy's outcome for a permission, and the request as the panel would show it. One decision, in
 * policy order (decidePermission.ts). Only a shell command waits (for the parser to load): other
 * requests are decided, and queued by the caller, in the same tick.
 */
function policyOutcome(request: NewPermissionRequest, policy: Policy): Outcome | Promise<Outcome> {
  const how = { route: policy.route() };
  if (request.toolCall?.command !== undefined) return policy.permissions.decide(request, how).then((outcome) => shown(request, outcome));
  return shown(request, policy.permissions.decideNow(request, how));
}

function shown(request: NewPermissionRequest, outcome: ReturnType<RememberedPermissions['decideNow']>) {
  // The options go to the panel without their values: it shows labels and previews, the store keeps values.
  const rememberOptions = outcome.options.map(({ key, label, description, preview }) => ({ key, label, description, ...(preview ? { preview } : {}) }));
  const summary = outcome.decision !== 'unavailable' ? outcome.summary : undefined;
  const toolCall = request.toolCall && summary !== undefined ? { ...request.toolCall, summary } : request.toolCall;
  const full: NewPermissionRequest = { ...request, ...(toolCall ? { toolCall } : {}), ...(rememberOptions.length ? { rememberOptions } : {}) };
  return { outcome, full };
}

type Outcome = ReturnType<typeof shown>;

/** The response when the policy or a rule decides, recorded as decided without asking; undefined when a person must be asked. */
function decidedByPolicy(broker: QuestionBroker, { outcome, full }: Outcome): PermissionResponse | undefined {
  if (outcome.decision === 'unavailable')
    return broker.decideWithoutAsking(full, { status: 'unavailable', reason: outcome.reason, decidedBy: { by: 'policy', setting: outcome.setting } });
  if (outcome.decision === 'ask') return undefined;
  return broker.decideWithoutAsking(full, {
    status: 'answered',
    decision: outcome.decision === 'deny' ? 'deny' : 'allow_always',
    decidedBy: { by: 'rule', rules: outcome.deciding ?? [] },
    ...(outcome.rule ? { rule: outcome.rule.key } : {}),
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  });
}

/** What the policy and the remembered rules decide without a person (nothing is queued); undefined when one must be asked. */
export async function permissionWithoutAsking(broker: QuestionBroker, request: NewPermissionRequest, policy: Policy): Promise<PermissionResponse | undefined> {
  const decided = policyOutcome(request, policy);
  return decidedByPolicy(broker, decided instanceof Promise ? await decided : decided);
}

export async function askPermission(broker: QuestionBroker, request: NewPermissionRequest, policy: Policy, options: AskOptions = {}): Promise<PermissionResponse> {
  const pending = policyOutcome(request, policy);
  const decided = pending instanceof Promise ? await pending : pending;
  const byPolicy = decidedByPolicy(broker, decided);
  if (byPolicy) return byPolicy;
  const { outcome, full } = decided;
  const { response, expiresAfterMinutes } = await broker.settlePermission(full, options);
  if (response.status === 'answered' && request.toolCall?.command !== undefined) policy.permissions.noteCommand(request.toolCall.command, response.decision === 'deny');
  const chosen = outcome.options.find((o) => o.key === response.rule);
  if (response.status === 'answered' && chosen && (response.decision === 'allow_always' || response.decision === 'deny')) {
    await policy.permissions.remember(chosen, request.source.label, {
      decision: response.decision === 'deny' ? 'deny' : 'allow',
      ...(response.scope ? { scope: response.scope } : {}),
      ...(expiresAfterMinutes ? { expiresAfterMinutes } : {}),
    });
  }
  return response;
}
