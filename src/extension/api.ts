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
  /** Markdown shown while the user is on this option (a code sketch, a table, a diagram); at most 2,000 characters. */
  preview?: string;
}

export interface Question {
  id: string;
  header: string;
  question: string;
  /** Markdown under the question; at most 2,000 characters. */
  detail?: string;
  kind: QuestionKind;
  options: QuestionOption[];
  allowOther: boolean;
  placeholder?: string;
  envVar?: string;
  returnValue?: boolean;
}

export interface RequestSource {
  type: 'tool' | 'extension' | 'mcp';
  label: string;
  /** How the asker reached us, when `label` is only what it says of itself (MCP clients). */
  via?: string;
  /** The way an outside agent connected: "MCP client", "Claude Code hook", "Codex hook", … (self-reported). */
  way?: string;
}

export interface QuestionRequest {
  id: string;
  kind: 'questions';
  source: RequestSource;
  createdAt: number;
  context?: string;
  questions: Question[];
  /** When the request times out (host clock, ms since the epoch). */
  expiresAt?: number;
  /** The agent asked with `wait: false`: it keeps working and reads the answer later (get_answers). */
  keepsWorking?: boolean;
}

export interface PermissionRequest {
  id: string;
  kind: 'permission';
  source: RequestSource;
  createdAt: number;
  title: string;
  detail: string;
  permissionKey?: string;
  /**
   * A tool call from an external agent, shown in full: the command, then every other input key; a shell command's `summary` says in one line what it does;
   * `cwd` the folder it runs in ('' when the agent did not say).
   */
  toolCall?: { tool: string; command?: string; fields: Array<{ name: string; value: string; warning?: string }>; warnings: string[]; summary?: string; cwd?: string };
  /** What "Always allow" may remember for this request; the first is the default. */
  rememberOptions?: Array<{ key: string; label: string; description: string; preview?: { covers: string[]; denied: string[] } }>;
  /** Whether the agent runs the call in its own sandbox, as its hook said: a rule for a tool that runs the workspace's code covers only a sandboxed call. */
  confinement?: 'sandboxed' | 'unsandboxed' | 'unknown';
}

export type PendingRequest = QuestionRequest | PermissionRequest;

/** For a text question, `selected` holds the text as its one entry. Secrets arrive only as a handle. */
export interface Answer {
  selected: string[];
  other?: string;
  note?: string;
  skipped: boolean;
  secret?: { stored: true; envVar: string };
  /**
   * A secret's value: in a reply, a trusted caller may give it (it is stored, then replaced by the
   * handle); in a response, present only for questions asked with returnValue.
   */
  value?: string;
  /** Images the user attached (PNG, JPEG, GIF or WebP; at most 4, 5 MB each), bytes in base64. */
  images?: Array<{ mimeType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'; data: string; name?: string }>;
}

export type Answers = Record<string, Answer>;

export interface QuestionResponse {
  requestId: string;
  status: ResponseStatus;
  answers?: Answers;
  reason?: string;
  /** The user's note on the whole batch. */
  note?: string;
}

export interface PermissionResponse {
  requestId: string;
  status: ResponseStatus;
  decision?: PermissionDecision;
  reason?: string;
  /** allow_always: the key of the rule that was remembered, or that allowed it without asking; deny: of an "Always deny" rule, or of the rule that denied it. */
  rule?: string;
  /** Where a rule chosen in the prompt applies. */
  scope?: 'session' | 'workspace' | 'user';
}

export type ApiChange =
  { type: 'added'; request: PendingRequest } | { type: 'settled'; request: PendingRequest; response: QuestionResponse | PermissionResponse; settledAt: number };

/** Structurally a vscode.CancellationToken / vscode.Disposable / vscode.Event. */
export interface CancellationTokenLike {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface QuestionInput {
  /** snake_case, unique within the request; answers are keyed by it. */
  id: string;
  header: string;
  question: string;
  /** Markdown under the question, at most 2,000 characters. */
  detail?: string;
  /** Defaults to 'single' with options, else 'text'. */
  kind?: QuestionKind;
  options?: QuestionOption[];
  /** Default true on single/multi; not allowed on text/secret. */
  allowOther?: boolean;
  placeholder?: string;
  envVar?: string;
  /** Secret questions only: your extension receives the typed value in `answer.value`. */
  returnValue?: boolean;
}

export interface AskRequest {
  /** 1 to 20 questions, validated like ask_user's (ids, lengths, options). */
  questions: QuestionInput[];
  context?: string;
  /** Your extension's id; the request is shown as coming from "Extension <id>". */
  extensionId?: string;
  /** Overrides agentQuestions.timeoutSeconds for this request; 0 waits as long as you wait. */
  timeoutSeconds?: number;
}

export interface PermissionRequestInput {
  title: string;
  /** Markdown. */
  detail: string;
  /** Requests with the same key share an "Always allow" answer in this workspace. */
  permissionKey?: string;
  /** A shell command line your extension would run: shown in full and decided by the same rules as agents' commands (see "How Always allow decides" in the README). */
  command?: string;
  extensionId?: string;
  timeoutSeconds?: number;
}

/** A rule that decided without asking: its text, where it comes from, and (remembered rules) where it applies. */
export interface DecidingRule {
  text: string;
  /** Remembered from a prompt ("Always allow" / "Always deny"), or written in the user's settings, the workspace's settings (deny only), or VS Code's terminal auto-approve rules. */
  origin: 'remembered' | 'userSettings' | 'workspaceSettings' | 'terminalSettings';
  scope?: 'session' | 'workspace' | 'user';
}

/**
 * Who settled a request. `user`: where the user answered (the Question panel, the answer page, the
 * agent's own prompt as its hook reported, a notification, the Queue); `extension`: an extension
 * through this API's reply, decide or reject; `rule`: remembered or hand-written rules; `answersFile`:
 * scripted answers; `policy`: agentQuestions.mode, AGENT_QUESTIONS_UNATTENDED=1 or no window;
 * `timeout`; `asker`: the agent gave up (`at: 'hookDeadline'`: its hook handed the decision back just
 * before the agent's hook time limit); `shutdown`: Agent Questions shut down (`part: 'endpoint'`: only
 * the MCP endpoint was turned off).
 */
export type DecidedBy =
  | { by: 'user'; where: 'panel' | 'page' | 'agent' | 'notification' | 'queue' }
  | { by: 'extension' }
  | { by: 'rule'; rules: DecidingRule[] }
  | { by: 'answersFile' }
  | { by: 'policy'; setting: 'mode' | 'unattended' | 'noWindow' }
  | { by: 'timeout'; afterSeconds: number }
  | { by: 'asker'; at?: 'hookDeadline' }
  | { by: 'shutdown'; part?: 'endpoint' };

export interface HistoryEntry {
  requestId: string;
  kind: 'questions' | 'permission';
  source: RequestSource;
  summary: string;
  createdAt: number;
  settledAt: number;
  status: ResponseStatus;
  questions?: Array<{ id: string; header: string; question: string; kind: QuestionKind }>;
  /** Secret answers appear only as { secret: { stored: true, envVar } }. */
  answers?: Answers;
  decision?: PermissionDecision;
  reason?: string;
  /** How it was decided (since 0.1.0; absent on entries recorded before). */
  decidedBy?: DecidedBy;
}

export interface AgentQuestionsApi {
  /** Asks the user; resolves when the request settles, whatever the outcome. Rejects only for an invalid request, with a message naming each bad field. */
  ask(request: AskRequest, token?: CancellationTokenLike): Promise<QuestionResponse>;
  /** Asks for a permission; permission requests are shown before questions. */
  requestPermission(request: PermissionRequestInput, token?: CancellationTokenLike): Promise<PermissionResponse>;
  /** Pending requests in queue order: permissions first, then questions, oldest first. */
  list(): PendingRequest[];
  /** Answers a pending question request; false when it is not pending or the answers do not fit it. */
  /** `note`: a note on the whole batch, returned as the response's `note`. */
  reply(requestId: string, answers: Answers, note?: string): boolean;
  /**
   * Decides a pending permission request; false when it is not pending. `rule`: one of the request's
   * `rememberOptions` keys, remembered with allow_always (Always allow) or deny (Always deny);
   * `scope`: where it applies (default: this workspace).
   */
  decide(requestId: string, decision: PermissionDecision, options?: { rule?: string; scope?: 'session' | 'workspace' | 'user' }): boolean;
  /** Rejects a pending request; false when it is not pending. */
  reject(requestId: string, reason?: string): boolean;
  /** Settled requests, newest first (at most agentQuestions.historyLimit). */
  history(): HistoryEntry[];
  readonly onDidChange: (listener: (change: ApiChange) => void) => { dispose(): void };
}
