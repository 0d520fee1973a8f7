// Every settled request, newest first, with who decided it, secret answers redacted and image bytes dropped, capped and persisted.
import type { BrokerChange } from './broker';
export type { HistoryEntry } from './contract/schemas';
import { redactAnswers } from './secrets/redaction';
import type { Answers, HistoryEntry } from './contract/schemas';
import type { KeyValueStore } from './store';

const KEY = 'agentQuestions.history';

export class History {
  private entries: HistoryEntry[];

  constructor(
    private readonly store: KeyValueStore,
    private readonly limit: () => number,
  ) {
    const saved = store.get<unknown>(KEY);
    this.entries = Array.isArray(saved) ? (saved as HistoryEntry[]) : [];
  }

  record(change: Extract<BrokerChange, { type: 'settled' }>): void {
    this.entries.unshift(toEntry(change));
    this.entries.length = Math.min(this.entries.length, Math.max(0, this.limit()));
    void this.store.update(KEY, this.entries);
  }

  list(): HistoryEntry[] {
    return this.entries.slice(0, Math.max(0, this.limit()));
  }
}

function toEntry({ request, response, settledAt, decidedBy }: Extract<BrokerChange, { type: 'settled' }>): HistoryEntry {
  const common = { requestId: request.id, kind: request.kind, source: request.source, createdAt: request.createdAt, settledAt, status: response.status, decidedBy };
  const reason = response.reason ? { reason: response.reason } : {};
  if (request.kind === 'permission') {
    const decision = 'decision' in response && response.decision ? { decision: response.decision } : {};
    return { ...common, summary: request.title, ...decision, ...reason };
  }
  const questions = request.questions.map(({ id, header, question, kind }) => ({ id, header, question, kind }));
  const answers = 'answers' in response && response.answers ? { answers: withoutImageBytes(redactAnswers(request.questions, response.answers)) } : {};
  return { ...common, summary: request.questions.map((q) => q.header).join(', '), questions, ...answers, ...reason };
}

/** Images stay in the history only as their type and name (so it can say "2 images"); their bytes are never stored. */
function withoutImageBytes(answers: Answers): Answers {
  const kept: Answers = {};
  for (const [id, { images, ...answer }] of Object.entries(answers)) {
    kept[id] = images?.length ? { ...answer, images: images.map(({ mimeType, name }) => ({ mimeType, ...(name !== undefined ? { name } : {}), data: '' })) } : answer;
  }
  return kept;
}
