// Questions asked with `wait: false`: the agent keeps working and collects the answer later with
// `get_answers`. Each one belongs to whoever asked (a chat session, an MCP client as the endpoint
// knows it); only that owner can read it. An answer is kept until collected (at most a day) and for
// `keepMs` after the first collection. Secrets are handles in a response, as everywhere: no value is
// ever held here. The places are shared: an owner holds at most 8, a group of owners (the MCP
// clients of one token) at most half of the total, so one flood never takes every place. Names are
// self-reported, so one process can claim several: the group's last places go only to owners with
// none waiting, one each, so an agent that comes after a flood on its token still gets a place.
import type { Question, QuestionResponse } from '../contract/schemas';

/** Unsettled `wait: false` questions one owner may have at once, one group of owners, and all owners together. */
export const LATER_WAITING_PER_OWNER = 8;
export const LATER_WAITING_TOTAL = 64;
/** Half the total: whatever one group holds, the other askers still have as many places. */
export const LATER_WAITING_PER_GROUP = LATER_WAITING_TOTAL / 2;
/**
 * The group's last places, kept for first places: an owner that already has one waiting cannot take
 * them, so a process takes them only by claiming one more name for each.
 */
export const LATER_KEPT_FOR_FIRST_PLACES = LATER_WAITING_PER_OWNER;
/** An answer nobody collects is dropped after this long. */
export const UNCOLLECTED_KEEP_MS = 24 * 60 * 60_000;

export type LaterQuestions = readonly Pick<Question, 'id' | 'kind'>[];

/** What one id looks like to its owner. */
export type LaterLookup = { state: 'unknown' } | { state: 'waiting'; questions: LaterQuestions } | { state: 'settled'; questions: LaterQuestions; response: QuestionResponse };

interface Held {
  owner: string;
  group: string;
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

  /**
   * Why `owner` (one of `group`: the MCP clients of one token; alone, its own group) may not ask
   * another `wait: false` question now, or undefined when it may. The message names the limit and what to do.
   */
  refusal(owner: string, group = owner): string | undefined {
    this.prune();
    const waiting = [...this.held.values()].filter((h) => !h.response);
    const orWait = 'or ask with wait: true (the call then waits for the answer).';
    const mine = waiting.filter((h) => h.owner === owner).length;
    const ours = waiting.filter((h) => h.group === group).length;
    if (mine >= LATER_WAITING_PER_OWNER)
      return `${LATER_WAITING_PER_OWNER} of your questions asked with wait: false are still unanswered; collect their answers with get_answers (waitSeconds > 0 waits for them) before asking more (${LATER_WAITING_PER_OWNER} is the limit for one asker), ${orWait}`;
    if (ours >= LATER_WAITING_PER_GROUP)
      return `The agents connected through your token already have ${LATER_WAITING_PER_GROUP} questions asked with wait: false unanswered (the limit for one token: half of the ${LATER_WAITING_TOTAL} places, so other askers still have theirs); collect answers with get_answers first, ${orWait}`;
    if (mine > 0 && ours >= LATER_WAITING_PER_GROUP - LATER_KEPT_FOR_FIRST_PLACES)
      return `The agents connected through your token already have ${ours} questions asked with wait: false unanswered, and you have ${mine}; the token's last ${LATER_KEPT_FOR_FIRST_PLACES} places (of ${LATER_WAITING_PER_GROUP}) are kept for agents of your token that have none waiting; collect answers with get_answers first, ${orWait}`;
    if (waiting.length >= LATER_WAITING_TOTAL)
      return `${LATER_WAITING_TOTAL} questions asked with wait: false are still unanswered (the limit for all agents together); collect answers with get_answers first, ${orWait}`;
    return undefined;
  }

  /** Keeps the answer of request `id` for `owner` (one of `group`) when `response` settles. */
  hold(owner: string, id: string, questions: LaterQuestions, response: Promise<QuestionResponse>, group = owner): void {
    const entry: Held = {
      owner,
      group,
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

  /** Whether `owner` has a question still waiting or an answer it has not collected yet. */
  holds(owner: string): boolean {
    this.prune();
    return [...this.held.values()].some((h) => h.owner === owner && h.collectedAt === undefined);
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
