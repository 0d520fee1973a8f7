// Messages between the Question panel (untrusted webview) and the host, validated on both sides.
import * as z from 'zod';
import {
  AnswersSchema,
  HistoryEntrySchema,
  LIMITS,
  PendingRequestSchema,
  PERMISSION_DECISIONS,
  QuestionRequestSchema,
  RESPONSE_STATUSES,
  RULE_LIFETIMES,
  RULE_SCOPES,
} from './schemas';

const RequestId = z.string().min(1).max(100);

export const PanelToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z
    .object({
      type: z.literal('reply'),
      requestId: RequestId,
      answers: AnswersSchema,
      /** Typed secret values by question id; the host stores them and never sends them back. */
      secrets: z.record(z.string(), z.string().min(1).max(10_000)).optional(),
      /** Secret questions answered with the value already stored for their variable. */
      useStored: z.array(z.string().max(100)).max(50).optional(),
      /** Secret questions whose typed value is for all workspaces (otherwise it is for this one). */
      allWorkspaces: z.array(z.string().max(100)).max(50).optional(),
      /** Secret questions whose variable, not a credential name, the user confirmed ("Set $NAME anyway"). */
      nameConfirmed: z.array(z.string().max(100)).max(50).optional(),
      /** The user's note on the whole batch (review step). */
      note: z.string().max(LIMITS.batchNoteMax).optional(),
    })
    .strict(),
  z.object({ type: z.literal('reject'), requestId: RequestId, reason: z.string().max(2000).optional() }).strict(),
  z
    .object({
      type: z.literal('decide'),
      requestId: RequestId,
      decision: z.enum(PERMISSION_DECISIONS),
      message: z.string().max(2000).optional(),
      /** allow_always, or deny as "Always deny": which of the request's remember options the user picked. */
      rule: z.string().max(100_000).optional(),
      scope: z.enum(RULE_SCOPES).optional(),
      /** The rule ends this many minutes after it is made; not for all workspaces. */
      expiresAfterMinutes: z.number().int().min(1).max(RULE_LIFETIMES.week).optional(),
    })
    .strict()
    .refine((m) => m.expiresAfterMinutes === undefined || m.scope !== 'user', { path: ['expiresAfterMinutes'], message: 'a rule for all workspaces does not expire' }),
  /** The panel shows this request and it is ready for input. */
  z.object({ type: z.literal('shown'), requestId: RequestId }).strict(),
  z.object({ type: z.literal('openQueue') }).strict(),
  /** The user clicked a link in the agent's markdown: the host opens it through VS Code's external-link confirmation. */
  z.object({ type: z.literal('openLink'), href: z.string().min(1).max(2048), requestId: RequestId }).strict(),
  z.object({ type: z.literal('pong'), nonce: z.number() }).strict(),
]);

export const HostToPanelSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    /** Pending requests in queue order: the head is what the panel shows next. */
    pending: z.array(PendingRequestSchema),
    history: z.array(HistoryEntrySchema),
    /** The host's clock, so ages are right even when the browser's clock differs. */
    hostNow: z.number(),
    /** Names of the environment variables that have a stored secret (never values). */
    storedSecrets: z.array(z.string()),
  }),
  z.object({ type: z.literal('storedSecrets'), names: z.array(z.string()) }),
  /** `replaces`: the held preview of this request (see 'preview'), which it takes over on screen. */
  z.object({ type: z.literal('added'), request: PendingRequestSchema, replaces: RequestId.optional() }),
  /**
   * A question VS Code has prepared but not yet invoked: shown when nothing else is, never answerable
   * (its id is not the broker's) until an 'added' replaces it or a 'withdrawn' removes it.
   */
  z.object({ type: z.literal('preview'), request: QuestionRequestSchema }),
  z.object({ type: z.literal('withdrawn'), previewId: RequestId }),
  z.object({
    type: z.literal('settled'),
    requestId: RequestId,
    status: z.enum(RESPONSE_STATUSES),
    reason: z.string().optional(),
    /** The new history entry, when the request was recorded. */
    historyEntry: HistoryEntrySchema.optional(),
  }),
  /** Show this pending request (chosen in the Queue), even if it is not the head; the user asked, so it takes focus. */
  z.object({ type: z.literal('show'), requestId: RequestId }),
  /** The user asked to focus the panel: its request's first control takes focus. */
  z.object({ type: z.literal('focus') }),
  /** A bare round trip, for the benchmark's baseline. */
  z.object({ type: z.literal('ping'), nonce: z.number() }),
]);

/** The element of the page the host builds that holds the panel's strings table (JSON). */
export const PANEL_STRINGS_ELEMENT_ID = 'agent-questions-strings';
/** The panel's strings, sent once in its page: each English message and its vscode.l10n.t translation. */
export const PanelStringsSchema = z.record(z.string().max(1000), z.string().max(2000));

export type PanelToHost = z.infer<typeof PanelToHostSchema>;
export type HostToPanel = z.infer<typeof HostToPanelSchema>;
