// Questions asked with `wait: false`: the agent keeps working and collects the answer later with
// `get_answers`. Each one belongs to whoever asked (a chat session, an MCP session); only that
// owner can read it. An answer is kept until collected (at most a day) and for `keepMs` after the
// first collection. Secrets are handles in a response, as everywhere: no value is ever held here.
import type { Question, QuestionResponse } from './schemas';

/** Unsettled `wait: false` questions one owner may have at once, and all owners together. */
export const LATER_WAITING_PER_OWNER = 8;
export const LATER_WAITING_TOTAL = 64;
/** An answer nobody collects is dropped after this long. */
export const UNCOLLECTED_KEEP_MS = 24 * 60 * 60_000;

export type LaterQuestions = readonly Pick<Question, 'id' | 'kind'>[];

/** What one id looks like to its owner. */
export type LaterLookup = { state: 'unknown' } | { state: 'waiting'; questions: LaterQuestions } | { state: 'settled'; questions: LaterQuestions; response: QuestionResponse };

interface Held {
  owner: string;
  questions: LaterQuestions;
  response?: QuestionResponse;
  settledAt?: number;
  collectedAt?: number;
  /** Resolves when the question settles. */
  settled: Promise<void>;
}

export interface LaterAnswersOptions {
  /** How long a collected answer can be collected again (read when it is collected). */
  keepMs: () => number;
  now?: () => number;
}

export class LaterAnswers {
  private readonly held = new Map<string, Held>();
  private readonly now: () => number;

  constructor(private readonly options: LaterAnswersOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Why `owner` may not ask another `wait: false` question now, or undefined when it may. */
  refusal(owner: string): string | undefined {
    this.prune();
    const waiting = [...this.held.values()].filter((h) => !h.response);
    if (waiting.filter((h) => h.owner === owner).length >= LATER_WAITING_PER_OWNER)
      return `${LATER_WAITING_PER_OWNER} of your questions asked with wait: false are still unanswered; collect their answers with get_answers (waitSeconds > 0 waits for them) before asking more.`;
    if (waiting.length >= LATER_WAITING_TOTAL) return `${LATER_WAITING_TOTAL} questions asked with wait: false are still unanswered; ask with wait: true, or collect answers first.`;
    return undefined;
  }

  /** Keeps the answer of request `id` for `owner` when `response` settles. */
  hold(owner: string, id: string, questions: LaterQuestions, response: Promise<QuestionResponse>): void {
    const entry: Held = {
      owner,
      questions,
      settled: response.then((settled) => {
        entry.response = settled;
        entry.settledAt = this.now();
      }),
    };
    this.held.set(id, entry);
  }

  /** The id as its owner sees it; marks a settled answer collected. Another owner's id is unknown. */
  collect(owner: string, id: string): LaterLookup {
    this.prune();
    const entry = this.held.get(id);
    if (!entry || entry.owner !== owner) return { state: 'unknown' };
    if (!entry.response) return { state: 'waiting', questions: entry.questions };
    entry.collectedAt ??= this.now();
    return { state: 'settled', questions: entry.questions, response: entry.response };
  }

  /** Resolves when every one of `owner`'s ids among `ids` is settled, or when `stop` aborts. */
  async settled(owner: string, ids: readonly string[], stop: AbortSignal): Promise<void> {
    const waits = ids.flatMap((id) => {
      const entry = this.held.get(id);
      return entry && entry.owner === owner && !entry.response ? [entry.settled] : [];
    });
    if (!waits.length || stop.aborted) return;
    await new Promise<void>((resolve) => {
      stop.addEventListener('abort', () => resolve(), { once: true });
      void Promise.all(waits).then(() => resolve());
    });
  }

  /** Owners' waiting questions, for tests and the log. */
  get waitingCount(): number {
    return [...this.held.values()].filter((h) => !h.response).length;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, entry] of this.held) {
      if (entry.collectedAt !== undefined && now - entry.collectedAt > this.options.keepMs()) this.held.delete(id);
      else if (entry.settledAt !== undefined && entry.collectedAt === undefined && now - entry.settledAt > UNCOLLECTED_KEEP_MS) this.held.delete(id);
    }
  }
}
