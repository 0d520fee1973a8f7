// The `get_answers` tool call, for every transport: the answers to questions the same asker put
// with `wait: false`, each as ask_user would have returned it, or "waiting", or "unknown" (never
// asked by this asker, or dropped). Never throws for bad input.
import { attachedImages, withImagesDescribed } from './answerImages';
import type { LaterAnswers, LaterLookup } from './laterAnswers';
import { headline } from '../contract/resultText';
import { GetAnswersInputSchema, type AnswerImage, type QuestionResponse } from '../contract/schemas';
import { uiText } from '../visibleText';

export interface GetAnswersCall {
  store: LaterAnswers;
  owner: string;
  /** Aborted when the caller gives up (Stop in chat, the client went away): only the wait ends, never a question. */
  signal: AbortSignal;
}

export type GetAnswersEntry = QuestionResponse | { requestId: string; status: 'waiting' | 'unknown'; reason?: string };

export interface GetAnswersResult {
  text: string;
  /** Absent when the input was invalid. */
  results?: GetAnswersEntry[];
  /** Images the user attached, in the order of the results: they follow the text as image parts. */
  images: AnswerImage[];
}

const UNKNOWN_REASON =
  'No question with this id was asked with wait: false by you (this chat, or this MCP client: its name through the same token), or its answer was dropped after it was collected.';

export async function callGetAnswers(raw: unknown, call: GetAnswersCall): Promise<GetAnswersResult> {
  const parsed = GetAnswersInputSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    return { text: `get_answers input is invalid (${uiText(problems, 500)}); expected { ids: ["<request id from ask_user>"], waitSeconds?: 0-86400 }.`, images: [] };
  }
  const { ids, waitSeconds = 0 } = parsed.data;
  const unique = [...new Set(ids)];
  if (waitSeconds > 0) {
    const stop = AbortSignal.any([call.signal, AbortSignal.timeout(waitSeconds * 1000)]);
    await call.store.settled(call.owner, unique, stop);
  }
  const looked = unique.map((id) => ({ id, lookup: call.store.collect(call.owner, id) }));
  const results = looked.map(({ id, lookup }) => entryFor(id, lookup));
  const lines = looked.map(({ id, lookup }) => `${JSON.stringify(uiText(id, 64))}: ${lineFor(lookup)}`);
  const images = results.flatMap((r) => ('answers' in r ? attachedImages(r) : []));
  const json = JSON.stringify({ results: results.map((r) => ('answers' in r ? withImagesDescribed(r) : r)) });
  return { text: `${lines.join('\n')}\n${json}`, results, images };
}

function entryFor(id: string, lookup: LaterLookup): GetAnswersEntry {
  if (lookup.state === 'settled') return lookup.response;
  if (lookup.state === 'waiting') return { requestId: id, status: 'waiting' };
  return { requestId: uiText(id, 64), status: 'unknown', reason: UNKNOWN_REASON };
}

function lineFor(lookup: LaterLookup): string {
  if (lookup.state === 'settled') return headline(lookup.questions, lookup.response);
  if (lookup.state === 'waiting')
    return 'still waiting for the user. Keep working on what does not depend on it and check again later, or call get_answers with waitSeconds > 0 to wait for it.';
  return `unknown. ${UNKNOWN_REASON}`;
}
