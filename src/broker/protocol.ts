// Messages between the Question panel (untrusted webview) and the host, validated on both sides.
import * as z from 'zod';
import { AnswersSchema, PendingRequestSchema, PERMISSION_DECISIONS } from './schemas';

const RequestId = z.string().min(1).max(100);

export const PanelToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('reply'), requestId: RequestId, answers: AnswersSchema }).strict(),
  z.object({ type: z.literal('reject'), requestId: RequestId, reason: z.string().max(2000).optional() }).strict(),
  z.object({ type: z.literal('decide'), requestId: RequestId, decision: z.enum(PERMISSION_DECISIONS) }).strict(),
]);

export const HostToPanelSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    /** Pending requests in queue order: the head is what the panel shows. */
    pending: z.array(PendingRequestSchema),
  }),
]);

export type PanelToHost = z.infer<typeof PanelToHostSchema>;
export type HostToPanel = z.infer<typeof HostToPanelSchema>;
