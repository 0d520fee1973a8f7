// The public API of Agent Questions for other extensions. This file imports nothing:
// copy it into your extension and use
//   const api = await vscode.extensions.getExtension<AgentQuestionsApi>('openoxide.agent-questions')?.activate();

export type QuestionKind = 'single' | 'multi' | 'text' | 'secret';
export type ResponseStatus = 'answered' | 'rejected' | 'cancelled' | 'timed_out' | 'unavailable';
export type PermissionDecision = 'allow_once' | 'allow_always' | 'deny';

export interface QuestionOption {
  label: string;
  description?: string;
  recommended?: boolean;
}

export interface Question {
  id: string;
  header: string;
  question: string;
  kind: QuestionKind;
  options: QuestionOption[];
  allowOther: boolean;
  placeholder?: string;
  envVar?: string;
}

export interface RequestSource {
  type: 'tool' | 'extension' | 'mcp';
  label: string;
}

export interface QuestionRequest {
  id: string;
  kind: 'questions';
  source: RequestSource;
  createdAt: number;
  context?: string;
  questions: Question[];
}

export interface PermissionRequest {
  id: string;
  kind: 'permission';
  source: RequestSource;
  createdAt: number;
  title: string;
  detail: string;
  permissionKey?: string;
}

export type PendingRequest = QuestionRequest | PermissionRequest;

/** For a text question, `selected` holds the text as its one entry. Secrets arrive only as a handle. */
export interface Answer {
  selected: string[];
  other?: string;
  note?: string;
  skipped: boolean;
  secret?: { stored: true; envVar: string };
}

export type Answers = Record<string, Answer>;

export interface QuestionResponse {
  requestId: string;
  status: ResponseStatus;
  answers?: Answers;
  reason?: string;
}

export interface PermissionResponse {
  requestId: string;
  status: ResponseStatus;
  decision?: PermissionDecision;
  reason?: string;
}

export type ApiChange =
  | { type: 'added'; request: PendingRequest }
  | { type: 'settled'; request: PendingRequest; response: QuestionResponse | PermissionResponse; settledAt: number };

/** Structurally a vscode.CancellationToken / vscode.Disposable / vscode.Event. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface AskRequest {
  questions: Array<Omit<Question, 'options' | 'allowOther'> & { options?: QuestionOption[]; allowOther?: boolean }>;
  context?: string;
  /** Shown as the source, e.g. your extension's id. */
  label?: string;
}

export interface AgentQuestionsApi {
  /** Asks the user and resolves when the request settles, whatever the outcome. */
  ask(request: AskRequest, token?: CancellationTokenLike): Promise<QuestionResponse>;
  /** Pending requests in queue order: permissions first, then questions, oldest first. */
  list(): PendingRequest[];
  /** Answers a pending question request; false when it is not pending or the answers do not fit it. */
  reply(requestId: string, answers: Answers): boolean;
  /** Rejects a pending request; false when it is not pending. */
  reject(requestId: string, reason?: string): boolean;
  readonly onDidChange: (listener: (change: ApiChange) => void) => { dispose(): void };
}
