// The one place a request lives: pending requests in order, each settled exactly once,
// by a reply, a rejection, a cancellation, a timeout or disposal, and each settlement says who decided.
import { Emitter, type CancellationSignal, type Disposable } from './events';
import { checkAnswers } from './questions/answerCheck';
import { AnswersSchema } from './contract/schemas';
import { uiText } from './visibleText';
import type {
  Answers,
  Decider,
  DecidedBy,
  PendingRequest,
  PermissionDecision,
  PermissionRequest,
  PermissionResponse,
  QuestionRequest,
  QuestionResponse,
  ResponseStatus,
  RuleScope,
} from './contract/schemas';

export type NewQuestionRequest = Omit<QuestionRequest, 'id' | 'kind' | 'createdAt'>;
export type NewPermissionRequest = Omit<PermissionRequest, 'id' | 'kind' | 'createdAt'>;

export interface AskOptions {
  /** Cancelled when the asker gives up (the user pressed Stop in chat). */
  token?: CancellationSignal;
  /** 0 or undefined: wait as long as the asker waits. */
  timeoutMs?: number;
  /** Called with the request's id once it is queued (before anyone can answer it). */
  onQueued?: (requestId: string) => void;
  /** Who settled it when `token` fires; default: the asker gave up. (The hook reports when the user answered in the agent's own prompt.) */
  cancelledBy?: () => DecidedBy;
}

export type SettledResponse = QuestionResponse | PermissionResponse;

export type BrokerChange =
  { type: 'added'; request: PendingRequest } | { type: 'settled'; request: PendingRequest; response: SettledResponse; settledAt: number; decidedBy: DecidedBy };

export interface BrokerOptions {
  log?: (message: string) => void;
  now?: () => number;
  newId: () => string;
}

export interface Outcome {
  status: ResponseStatus;
  /** Required: no settlement goes unrecorded. Never part of the response (what the asker reads). */
  decidedBy: DecidedBy;
  answers?: Answers;
  decision?: PermissionDecision;
  reason?: string;
  rule?: string;
  scope?: RuleScope;
  /** A rule chosen in the prompt ends this many minutes after it is made (never part of the response). */
  expiresAfterMinutes?: number;
  note?: string;
}

/** A settled permission request: the response the asker reads, and how long a rule the user chose there lasts. */
export interface PermissionSettlement {
  response: PermissionResponse;
  expiresAfterMinutes?: number;
}

interface Entry {
  request: PendingRequest;
  finish(outcome: Outcome): void;
}

export class QuestionBroker implements Disposable {
  private readonly pending = new Map<string, Entry>();
  private readonly changes = new Emitter<BrokerChange>();
  readonly onDidChange = this.changes.event;
  private readonly log: (message: string) => void;
  private readonly now: () => number;

  constructor(private readonly options: BrokerOptions) {
    this.log = options.log ?? (() => undefined);
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.pending.size;
  }

  ask(request: NewQuestionRequest, options: AskOptions = {}): Promise<QuestionResponse> {
    const createdAt = this.now();
    const expiresAt = options.timeoutMs && options.timeoutMs > 0 ? createdAt + options.timeoutMs : undefined;
    const full: QuestionRequest = { ...request, id: this.options.newId(), kind: 'questions', createdAt, ...(expiresAt ? { expiresAt } : {}) };
    return this.register(
      full,
      options,
      (o) => questionResponse(full.id, o),
      (response) => response,
    );
  }

  async requestPermission(request: NewPermissionRequest, options: AskOptions = {}): Promise<PermissionResponse> {
    return (await this.settlePermission(request, options)).response;
  }

  /** Asks for a permission, as requestPermission, and also says how long the rule the user chose lasts. */
  settlePermission(request: NewPermissionRequest, options: AskOptions = {}): Promise<PermissionSettlement> {
    const full: PermissionRequest = { ...request, id: this.options.newId(), kind: 'permission', createdAt: this.now() };
    return this.register(
      full,
      options,
      (o) => permissionResponse(full.id, o),
      (response, o) => ({ response, ...(o.expiresAfterMinutes ? { expiresAfterMinutes: o.expiresAfterMinutes } : {}) }),
    );
  }

  /** Settles a question request without asking (unavailable, scripted): only a 'settled' change is emitted. */
  answerWithoutAsking(request: NewQuestionRequest, outcome: Outcome): QuestionResponse {
    const full: QuestionRequest = { ...request, id: this.options.newId(), kind: 'questions', createdAt: this.now() };
    const problem = outcome.answers ? checkAnswers(full, outcome.answers) : undefined;
    const settled: Outcome = problem ? { status: 'unavailable', reason: `The scripted answers do not fit: ${problem}.`, decidedBy: outcome.decidedBy } : outcome;
    return this.settleAtOnce(full, questionResponse(full.id, settled), settled.decidedBy);
  }

  /** Decides a permission request without asking (remembered, unavailable). */
  decideWithoutAsking(request: NewPermissionRequest, outcome: Outcome): PermissionResponse {
    const full: PermissionRequest = { ...request, id: this.options.newId(), kind: 'permission', createdAt: this.now() };
    return this.settleAtOnce(full, permissionResponse(full.id, outcome), outcome.decidedBy);
  }

  /** Pending requests: permissions first, then questions, oldest first within each. */
  list(): PendingRequest[] {
    const all = [...this.pending.values()].map((e) => e.request);
    return [...all.filter((r) => r.kind === 'permission'), ...all.filter((r) => r.kind === 'questions')];
  }

  get(id: string): PendingRequest | undefined {
    return this.pending.get(id)?.request;
  }

  /** Answers a question request. Returns false (and logs) for unknown, settled or mismatched replies. `by`: who answered, and where. */
  reply(id: string, answers: Answers, by: Decider, note?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return this.ignore(id, 'reply');
    if (entry.request.kind !== 'questions') return this.ignore(id, 'reply', 'it is a permission request; use decide()');
    // The shape first: what is settled here goes to the history and the panel, which accept only this shape.
    const shaped = AnswersSchema.safeParse(answers);
    if (!shaped.success) return this.ignore(id, 'reply', `the answers are malformed at ${shaped.error.issues.map((i) => i.path.join('.') || '(answers)').join(', ')}`);
    const problem = checkAnswers(entry.request, answers);
    if (problem) return this.ignore(id, 'reply', problem);
    return this.settle(id, { status: 'answered', answers, decidedBy: by, ...(note ? { note } : {}) });
  }

  /**
   * Decides a permission request; a denial may carry a message for the asker. "Always allow"
   * remembers the rule picked among the request's options (the first when none or another was
   * given); a denial with one of them is "Always deny". `scope`: where the rule applies;
   * `expiresAfterMinutes`: when it ends (absent: when it is forgotten, or with the session).
   */
  decide(id: string, decision: PermissionDecision, by: Decider, message?: string, rule?: string, scope?: RuleScope, expiresAfterMinutes?: number): boolean {
    const entry = this.pending.get(id);
    if (!entry) return this.ignore(id, 'decision');
    const { request } = entry;
    if (request.kind !== 'permission') return this.ignore(id, 'decision', 'it is a question request; use reply()');
    const options = request.rememberOptions ?? [];
    const remembered =
      decision === 'allow_always'
        ? (options.find((o) => o.key === rule) ?? options[0])
        : decision === 'deny' && rule !== undefined
          ? options.find((o) => o.key === rule)
          : undefined;
    return this.settle(id, {
      status: 'answered',
      decision,
      decidedBy: by,
      ...(decision === 'deny' && message ? { reason: message } : {}),
      ...(remembered ? { rule: remembered.key, ...(scope ? { scope } : {}), ...(expiresAfterMinutes ? { expiresAfterMinutes } : {}) } : {}),
    });
  }

  reject(id: string, by: Decider, reason?: string): boolean {
    return this.settle(id, { status: 'rejected', decidedBy: by, ...(reason ? { reason } : {}) }) || this.ignore(id, 'rejection');
  }

  /** Cancels a pending request: the asker gave up (or the user answered in the agent's own prompt). */
  cancel(id: string, by: DecidedBy, reason?: string): boolean {
    return this.settle(id, { status: 'cancelled', decidedBy: by, ...(reason ? { reason } : {}) }) || this.ignore(id, 'cancellation');
  }

  /** Settles every pending request as cancelled (deactivation). */
  dispose(): void {
    for (const id of [...this.pending.keys()])
      this.settle(id, { status: 'cancelled', reason: 'Agent Questions was shut down before the user answered.', decidedBy: { by: 'shutdown' } });
    this.changes.dispose();
  }

  private register<R extends SettledResponse, T>(
    request: PendingRequest,
    options: AskOptions,
    toResponse: (o: Outcome) => R,
    toResult: (response: R, o: Outcome) => T,
  ): Promise<T> {
    return new Promise<T>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let subscription: Disposable | undefined;
      this.pending.set(request.id, {
        request,
        finish: (outcome) => {
          if (timer) clearTimeout(timer);
          subscription?.dispose();
          const response = toResponse(outcome);
          this.changes.fire({ type: 'settled', request, response, settledAt: this.now(), decidedBy: outcome.decidedBy });
          resolve(toResult(response, outcome));
        },
      });
      options.onQueued?.(request.id);
      this.changes.fire({ type: 'added', request });

      if (options.timeoutMs && options.timeoutMs > 0) {
        const seconds = Math.round(options.timeoutMs / 1000);
        const decidedBy: DecidedBy = { by: 'timeout', afterSeconds: seconds };
        timer = setTimeout(() => this.settle(request.id, { status: 'timed_out', reason: `No answer within ${seconds} s.`, decidedBy }), options.timeoutMs);
      }
      if (options.token) {
        const cancelled = () =>
          this.settle(request.id, { status: 'cancelled', reason: 'The asker cancelled before the user answered.', decidedBy: options.cancelledBy?.() ?? { by: 'asker' } });
        if (options.token.isCancellationRequested) return void cancelled();
        subscription = options.token.onCancellationRequested(cancelled);
      }
    });
  }

  private settleAtOnce<R extends SettledResponse>(request: PendingRequest, response: R, decidedBy: DecidedBy): R {
    this.changes.fire({ type: 'settled', request, response, settledAt: this.now(), decidedBy });
    return response;
  }

  private settle(id: string, outcome: Outcome): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    entry.finish(outcome);
    return true;
  }

  private ignore(id: string, what: string, why = 'it is not pending (already settled, or unknown)'): false {
    this.log(`Ignored a ${what} for request ${uiText(id, 100)}: ${why}.`);
    return false;
  }
}

const questionResponse = (requestId: string, o: Outcome): QuestionResponse => ({
  requestId,
  status: o.status,
  ...(o.answers ? { answers: o.answers } : {}),
  ...(o.reason ? { reason: o.reason } : {}),
  ...(o.note ? { note: o.note } : {}),
});

const permissionResponse = (requestId: string, o: Outcome): PermissionResponse => ({
  requestId,
  status: o.status,
  ...(o.decision ? { decision: o.decision } : {}),
  ...(o.reason ? { reason: o.reason } : {}),
  ...(o.rule ? { rule: o.rule } : {}),
  ...(o.scope ? { scope: o.scope } : {}),
});
