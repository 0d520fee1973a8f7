// The question contract, in one place: every type below is inferred from these zod schemas,
// and the `ask_user` inputSchema in package.json is generated from AskUserInputSchema.
import * as z from 'zod';
import { CONFINEMENTS } from './wireNames';

export const LIMITS = {
  minQuestions: 1,
  maxQuestions: 4,
  headerMax: 30,
  questionMax: 500,
  minOptions: 2,
  maxOptions: 6,
  labelMax: 60,
  descriptionMax: 200,
  placeholderMax: 200,
  contextMax: 2000,
  detailMax: 2000,
  previewMax: 2000,
  /** context + every detail + every preview together: well under what a model handles comfortably. */
  markdownTotalMax: 12_000,
  idMax: 64,
  /** Images the user may attach to one answer, and the size of each. */
  imagesPerAnswer: 4,
  imageMaxBytes: 5 * 1024 * 1024,
  batchNoteMax: 10_000,
} as const;

export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export const QUESTION_KINDS = ['single', 'multi', 'text', 'secret'] as const;
export const SNAKE_CASE = /^[a-z][a-z0-9_]*$/;
export const ENV_VAR = /^[A-Z_][A-Z0-9_]*$/;

export const OptionSchema = z
  .object({
    label: z.string().min(1).max(LIMITS.labelMax).describe('Short answer text shown to the user and returned in `selected`.'),
    description: z.string().max(LIMITS.descriptionMax).optional().describe('One sentence on what choosing this option means.'),
    recommended: z.boolean().optional().describe('Marks your recommendation; it is preselected. At most one per single-choice question.'),
    preview: z
      .string()
      .max(LIMITS.previewMax)
      .optional()
      .describe('Optional markdown shown while the user is on this option: a code sketch, a small table or an ASCII diagram of what choosing it means (max 2000 chars).'),
  })
  .strict();

export const QuestionInputSchema = z
  .object({
    id: z.string().max(LIMITS.idMax).regex(SNAKE_CASE).describe('snake_case id, unique within this call; answers are keyed by it.'),
    header: z.string().min(1).max(LIMITS.headerMax).describe('A 1-3 word label for the question, shown as a chip (max 30 chars).'),
    question: z.string().min(1).max(LIMITS.questionMax).describe('The full question, plain text, one decision per question.'),
    detail: z.string().max(LIMITS.detailMax).optional().describe('Optional markdown under the question: code, a table, the trade-off in detail (max 2000 chars).'),
    kind: z
      .enum(QUESTION_KINDS)
      .optional()
      .describe(
        "'single' (pick one option), 'multi' (pick any), 'text' (free text), 'secret' (a credential typed into a masked field; you get only a handle). Defaults to 'single' when options are given, else 'text'.",
      ),
    options: z
      .array(OptionSchema)
      .min(LIMITS.minOptions)
      .max(LIMITS.maxOptions)
      .optional()
      .describe('2-6 mutually exclusive choices for single/multi. Not allowed on text/secret.'),
    allowOther: z.boolean().optional().describe('Offer an "Other..." free-text answer. Default true for single/multi; not allowed on text/secret.'),
    placeholder: z.string().max(LIMITS.placeholderMax).optional().describe('Hint text for a text answer.'),
    envVar: z
      .string()
      .regex(ENV_VAR)
      .optional()
      .describe(
        'Required for secret: the environment variable (e.g. OPENAI_API_KEY) new terminals receive the value in. Use a credential name (ending _KEY, _TOKEN, _SECRET, _PASSWORD, or a connection _URL): the user must confirm any other. You never see the value.',
      ),
  })
  .strict();

export const AskUserInputSchema = z
  .object({
    questions: z.array(QuestionInputSchema).min(LIMITS.minQuestions).max(LIMITS.maxQuestions).describe('1-4 questions asked together.'),
    context: z.string().max(LIMITS.contextMax).optional().describe('Optional markdown shown above the questions: why you ask and what you found.'),
    wait: z
      .boolean()
      .optional()
      .describe(
        'true (default): wait for the answer. false: return at once with the request id and status "waiting"; keep working on what does not depend on the answer, and call get_answers with the id before you rely on it.',
      ),
  })
  .strict();

export type AskUserInput = z.infer<typeof AskUserInputSchema>;

/** `get_answers`: collect the answers to questions asked with `wait: false`. */
export const GET_ANSWERS_MAX_IDS = 16;
export const GET_ANSWERS_MAX_WAIT_SECONDS = 24 * 60 * 60;
export const GetAnswersInputSchema = z
  .object({
    ids: z.array(z.string().min(1).max(64)).min(1).max(GET_ANSWERS_MAX_IDS).describe('Request ids that ask_user returned with status "waiting" (1-16).'),
    waitSeconds: z
      .number()
      .int()
      .min(0)
      .max(GET_ANSWERS_MAX_WAIT_SECONDS)
      .optional()
      .describe('0 (default): look and return at once. More: block until every id is settled or this many seconds pass.'),
  })
  .strict();

export type GetAnswersInput = z.infer<typeof GetAnswersInputSchema>;

/** The exported API's richer request: more questions, secrets returned to trusted callers, a caller id, a custom timeout. */
export const API_MAX_QUESTIONS = 20;
export const ApiQuestionInputSchema = QuestionInputSchema.extend({
  returnValue: z.boolean().optional().describe('Secret questions only: the calling extension receives the typed value in `answer.value`. Never offered to models.'),
}).strict();
export const ApiAskRequestSchema = z
  .object({
    questions: z.array(ApiQuestionInputSchema).min(1).max(API_MAX_QUESTIONS),
    context: z.string().max(LIMITS.contextMax).optional(),
    extensionId: z.string().min(1).max(200).optional(),
    timeoutSeconds: z.number().min(0).optional(),
  })
  .strict();

export const ApiPermissionRequestSchema = z
  .object({
    title: z.string().min(1).max(200),
    detail: z.string().max(10_000),
    permissionKey: z.string().min(1).max(200).optional(),
    /** A shell command line to run: decided and remembered by the same command rules as agents' commands. */
    command: z.string().min(1).max(10_000).optional(),
    extensionId: z.string().min(1).max(200).optional(),
    timeoutSeconds: z.number().min(0).optional(),
  })
  .strict();

export type ApiAskRequest = z.infer<typeof ApiAskRequestSchema>;
export type ApiPermissionRequest = z.infer<typeof ApiPermissionRequestSchema>;
export type QuestionInput = z.infer<typeof QuestionInputSchema> & { returnValue?: boolean };

export const SourceSchema = z.object({
  type: z.enum(['tool', 'extension', 'mcp']),
  label: z.string(),
  /** How the asker reached us, when its label is only what it says of itself (MCP clients: name and token). */
  via: z.string().optional(),
  /** The way an outside agent connected: "MCP client", "Claude Code hook", "Codex hook", … (self-reported). */
  way: z.string().optional(),
});

export const QuestionSchema = z.object({
  id: z.string(),
  header: z.string(),
  question: z.string(),
  detail: z.string().optional(),
  kind: z.enum(QUESTION_KINDS),
  options: z.array(OptionSchema),
  allowOther: z.boolean(),
  placeholder: z.string().optional(),
  envVar: z.string().optional(),
  /** Only from trusted API callers: the secret's value is returned to them. */
  returnValue: z.boolean().optional(),
});

export const QuestionRequestSchema = z.object({
  id: z.string(),
  kind: z.literal('questions'),
  source: SourceSchema,
  createdAt: z.number(),
  context: z.string().optional(),
  questions: z.array(QuestionSchema).min(1),
  /** When the request times out (host clock, ms since the epoch): the panel counts down to it. */
  expiresAt: z.number().optional(),
  /** Asked with `wait: false`: the agent keeps working and reads the answer when it checks (get_answers). */
  keepsWorking: z.boolean().optional(),
});

/** A tool call to approve, shown in full: the command, then every other input key by name. */
export const ToolCallSchema = z.object({
  tool: z.string(),
  /** Bash: the command, never cut. */
  command: z.string().optional(),
  /** Every other input key; strings as they are, other values as JSON. */
  fields: z.array(z.object({ name: z.string(), value: z.string(), warning: z.string().optional() })),
  /** What deserves a second look before allowing: sandbox off, background, paths outside the workspace, blank runs. */
  warnings: z.array(z.string()),
  /** A shell command: one line on what it does (programs, writes and where, network, deletes), from the parse (commandEffects.ts). */
  summary: z.string().optional(),
  /**
   * The folder the call runs in, absolute: the agent's own (its hook's `cwd`), moved by the input's
   * `cwd` or `workdir`; '' when an agent that sends one sent none. Absent: asked from inside VS Code
   * (relative paths are against the first workspace folder).
   */
  cwd: z.string().optional(),
});

/** Where a remembered rule applies, as in VS Code: this session, this workspace, all workspaces. */
export const RULE_SCOPES = ['session', 'workspace', 'user'] as const;
/** How long a rule chosen in the prompt may last, in minutes; the longest is a week. All workspaces' rules never end (command rules live in settings). */
export const RULE_LIFETIMES = { day: 24 * 60, week: 7 * 24 * 60 } as const;

/** What "Always allow" or "Always deny" may remember for a request; the first is the default. */
export const RememberOptionSchema = z.object({
  key: z.string(),
  /** The rule in a few words, e.g. "npm test …" (a prefix) or "npm test" (the exact command). */
  label: z.string(),
  description: z.string(),
  /** Command rules: the rule's value in the shape of VS Code's chat.tools.terminal.autoApprove. */
  value: z.union([z.boolean(), z.object({ approve: z.boolean(), matchCommandLine: z.boolean().optional() })]).optional(),
  /** Recent commands this rule would have allowed without asking, and those of them the user denied. */
  preview: z.object({ covers: z.array(z.string()), denied: z.array(z.string()) }).optional(),
});

export const PermissionRequestSchema = z.object({
  id: z.string(),
  kind: z.literal('permission'),
  source: SourceSchema,
  createdAt: z.number(),
  title: z.string(),
  detail: z.string(),
  permissionKey: z.string().optional(),
  toolCall: ToolCallSchema.optional(),
  rememberOptions: z.array(RememberOptionSchema).optional(),
  confinement: z.enum(CONFINEMENTS).optional(),
});

export const PendingRequestSchema = z.discriminatedUnion('kind', [QuestionRequestSchema, PermissionRequestSchema]);

/** An image the user attached to an answer: its bytes in base64, only while the request settles (never in history). */
export const AnswerImageSchema = z
  .object({
    mimeType: z.enum(IMAGE_MIME_TYPES),
    data: z
      .string()
      .max(Math.ceil(LIMITS.imageMaxBytes / 3) * 4)
      .regex(/^[A-Za-z0-9+/]*={0,2}$/),
    name: z.string().max(200).optional(),
  })
  .strict();

export const AnswerSchema = z
  .object({
    selected: z.array(z.string().max(10_000)).max(LIMITS.maxOptions).describe('Chosen option labels; for a text question, its one entry is the text.'),
    other: z.string().max(10_000).optional(),
    note: z.string().max(10_000).optional(),
    skipped: z.boolean(),
    secret: z.object({ stored: z.literal(true), envVar: z.string() }).optional(),
    /** A secret's value, only for a trusted API caller that asked with returnValue. Never stored in history. */
    value: z.string().max(10_000).optional(),
    /** Images the user pasted, dropped or picked into this answer's note or text. */
    images: z.array(AnswerImageSchema).max(LIMITS.imagesPerAnswer).optional(),
  })
  .strict();

export const AnswersSchema = z.record(z.string(), AnswerSchema);

export const RESPONSE_STATUSES = ['answered', 'rejected', 'cancelled', 'timed_out', 'unavailable'] as const;
export const PERMISSION_DECISIONS = ['allow_once', 'allow_always', 'deny'] as const;

export const QuestionResponseSchema = z.object({
  requestId: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  answers: AnswersSchema.optional(),
  reason: z.string().optional(),
  /** The user's note on the whole batch, from the review step. */
  note: z.string().optional(),
});

export const PermissionResponseSchema = z.object({
  requestId: z.string(),
  status: z.enum(RESPONSE_STATUSES),
  decision: z.enum(PERMISSION_DECISIONS).optional(),
  reason: z.string().optional(),
  /** allow_always: the key of the rule that was remembered (or that allowed it without asking); deny: of an "Always deny" rule. */
  rule: z.string().optional(),
  /** Where a rule chosen in the prompt applies. */
  scope: z.enum(RULE_SCOPES).optional(),
});

/** Where the user answered: the panel, the answer page, the agent's own prompt (as its hook reported), a notification, the Queue. */
export const USER_PLACES = ['panel', 'page', 'agent', 'notification', 'queue'] as const;
/** Where a rule comes from: remembered from a prompt, or written in the user's settings, the workspace's settings (deny only), VS Code's terminal rules. */
export const RULE_ORIGINS = ['remembered', 'userSettings', 'workspaceSettings', 'terminalSettings'] as const;
/** What kept anyone from being asked: agentQuestions.mode, AGENT_QUESTIONS_UNATTENDED=1, or no window to show the panel. */
export const POLICY_SETTINGS = ['mode', 'unattended', 'noWindow'] as const;

export const DecidingRuleSchema = z.object({
  /** The rule as the user saw it, e.g. "npm test …". */
  text: z.string(),
  origin: z.enum(RULE_ORIGINS),
  /** Remembered rules: where the user chose it to apply. Rules from settings apply where their settings do. */
  scope: z.enum(RULE_SCOPES).optional(),
});

/** Who (or what) settled a request: recorded in history and the decision log, never sent to the asker. */
export const DecidedBySchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('user'), where: z.enum(USER_PLACES) }),
  /** Another extension, through the exported API's reply, decide or reject. */
  z.object({ by: z.literal('extension') }),
  /** Remembered or hand-written rules, without asking (several when each allows a part of a command line). */
  z.object({ by: z.literal('rule'), rules: z.array(DecidingRuleSchema) }),
  z.object({ by: z.literal('answersFile') }),
  z.object({ by: z.literal('policy'), setting: z.enum(POLICY_SETTINGS) }),
  z.object({ by: z.literal('timeout'), afterSeconds: z.number() }),
  /**
   * The asker gave up: Stop in chat, the CLI stopped waiting, its session closed; `at: 'hookDeadline'`
   * when an agent's hook command handed the decision back to the agent just before its hook time limit.
   */
  z.object({ by: z.literal('asker'), at: z.literal('hookDeadline').optional() }),
  /** Agent Questions shut down (window closed or reloaded, extension deactivated); `part: 'endpoint'` when only the MCP endpoint was turned off. */
  z.object({ by: z.literal('shutdown'), part: z.literal('endpoint').optional() }),
]);

export const HistoryEntrySchema = z.object({
  requestId: z.string(),
  kind: z.enum(['questions', 'permission']),
  source: SourceSchema,
  /** The question headers, or the permission title. */
  summary: z.string(),
  createdAt: z.number(),
  settledAt: z.number(),
  status: z.enum(RESPONSE_STATUSES),
  questions: z.array(z.object({ id: z.string(), header: z.string(), question: z.string(), kind: z.enum(QUESTION_KINDS) })).optional(),
  /** Secret answers appear only as { secret: { stored: true, envVar } }. */
  answers: AnswersSchema.optional(),
  decision: z.enum(PERMISSION_DECISIONS).optional(),
  reason: z.string().optional(),
  /** How it was decided; absent on entries recorded before version 0.1.0. */
  decidedBy: DecidedBySchema.optional(),
});

export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export type QuestionOption = z.infer<typeof OptionSchema>;
export type RequestSource = z.infer<typeof SourceSchema>;
export type Question = z.infer<typeof QuestionSchema>;
export type QuestionRequest = z.infer<typeof QuestionRequestSchema>;
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;
export type PendingRequest = z.infer<typeof PendingRequestSchema>;
export type ToolCall = z.infer<typeof ToolCallSchema>;
export type RememberOption = z.infer<typeof RememberOptionSchema>;
export type Answer = z.infer<typeof AnswerSchema>;
export type AnswerImage = z.infer<typeof AnswerImageSchema>;
export type Answers = z.infer<typeof AnswersSchema>;
export type ResponseStatus = (typeof RESPONSE_STATUSES)[number];
export type PermissionDecision = (typeof PERMISSION_DECISIONS)[number];
export type RuleScope = (typeof RULE_SCOPES)[number];
export type DecidedBy = z.infer<typeof DecidedBySchema>;
export type DecidingRule = z.infer<typeof DecidingRuleSchema>;
export type UserPlace = (typeof USER_PLACES)[number];
export type RuleOrigin = (typeof RULE_ORIGINS)[number];
export type PolicySetting = (typeof POLICY_SETTINGS)[number];
/** Who may reply, decide or reject a pending request: the user somewhere, or an extension. */
export type Decider = Extract<DecidedBy, { by: 'user' | 'extension' }>;
export type QuestionResponse = z.infer<typeof QuestionResponseSchema>;
export type PermissionResponse = z.infer<typeof PermissionResponseSchema>;
