// The decision log: the history as JSON Lines, oldest first (a log reads top to bottom, and a later
// export appends naturally), one settled request per line, with who decided it. Secrets appear only
// as their handle, image bytes never; this file redacts again so no caller can export more.
import type { Answers, HistoryEntry } from './contract/schemas';
import { redactAnswers } from './secrets/redaction';

/** One line of the log. Times are ISO 8601 (UTC); `decidedBy` is absent for entries recorded before 0.1.0. */
export interface DecisionLogLine {
  settledAt: string;
  createdAt: string;
  requestId: string;
  kind: HistoryEntry['kind'];
  status: HistoryEntry['status'];
  decision?: HistoryEntry['decision'];
  decidedBy?: HistoryEntry['decidedBy'];
  source: HistoryEntry['source'];
  summary: string;
  questions?: HistoryEntry['questions'];
  answers?: Answers;
  reason?: string;
}

export function decisionLogLine(entry: HistoryEntry): DecisionLogLine {
  return {
    settledAt: new Date(entry.settledAt).toISOString(),
    createdAt: new Date(entry.createdAt).toISOString(),
    requestId: entry.requestId,
    kind: entry.kind,
    status: entry.status,
    ...(entry.decision ? { decision: entry.decision } : {}),
    ...(entry.decidedBy ? { decidedBy: entry.decidedBy } : {}),
    source: entry.source,
    summary: entry.summary,
    ...(entry.questions ? { questions: entry.questions } : {}),
    ...(entry.answers ? { answers: loggedAnswers(entry) } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
  };
}

/** The history (newest first, as History.list() gives it) as JSON Lines, oldest first, ending with a newline. */
export function decisionLog(entries: readonly HistoryEntry[]): string {
  return [...entries]
    .reverse()
    .map((entry) => `${JSON.stringify(decisionLogLine(entry))}\n`)
    .join('');
}

/** Secret answers as their handle only, and images as their type and name (the history already holds no more). */
function loggedAnswers(entry: HistoryEntry): Answers {
  const redacted = redactAnswers(entry.questions ?? [], entry.answers ?? {});
  const logged: Answers = {};
  for (const [id, { images, value: _value, ...answer }] of Object.entries(redacted))
    logged[id] = images?.length ? { ...answer, images: images.map(({ mimeType, name }) => ({ mimeType, ...(name !== undefined ? { name } : {}), data: '' })) } : answer;
  return logged;
}
