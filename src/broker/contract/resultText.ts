// What the model reads back: one short, readable line, then the response as JSON. Deterministic.
// Attached images appear here only as { mimeType, name, bytes }; their bytes travel as image parts.
// ask_user's line names its questions and request id: a CLI that moved the call to the background
// delivers it later as a notification, and it must still read as the user's answer to that call.
import { attachedImages, withImagesDescribed } from '../questions/answerImages';
import type { Answer, Question, QuestionResponse } from './schemas';
import { kindTraits } from './questionKinds';
import { SCRIPTED_REASON } from '../scriptedAnswers';

const CONTINUE = 'Continue on your own best assumptions, state them plainly in your reply, and do not ask again for the same thing in this turn.';

export function summarizeAnswer(question: Pick<Question, 'kind'>, answer: Answer | undefined): string {
  if (!answer || answer.skipped) return 'skipped';
  if (answer.secret) return `stored in $${answer.secret.envVar}`;
  const parts = answer.selected.map((s) => JSON.stringify(s));
  if (answer.other !== undefined) parts.push(`other: ${JSON.stringify(answer.other)}`);
  // Several picks read as a list, even when one was picked.
  const text = kindTraits(question.kind).picks === 'any' ? `[${parts.join(', ')}]` : parts.join(', ');
  const images = answer.images?.length ? ` (${imageCount(answer.images.length)})` : '';
  return (answer.note ? `${text} (note: ${JSON.stringify(answer.note)})` : text) + images;
}

const imageCount = (n: number) => `${n} ${n === 1 ? 'image' : 'images'}`;

const QUESTION_SHOWN_MAX = 120;

/** `"Which database?" (request id "r1")`, or `"A", "B" and "C" (request id "r1")`; each question cut to 120 characters. */
export function namedCall(questions: readonly Pick<Question, 'question'>[], requestId: string): string {
  const quoted = questions.map((q) => JSON.stringify(q.question.length > QUESTION_SHOWN_MAX ? `${q.question.slice(0, QUESTION_SHOWN_MAX - 1)}…` : q.question));
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}` : (quoted[0] ?? '');
  return `${list} (request id ${JSON.stringify(requestId)})`;
}

/**
 * The readable line. `named` (ask_user's result) adds the questions and the request id; get_answers
 * puts the id in front of its lines itself.
 */
export function headline(questions: readonly Pick<Question, 'id' | 'kind'>[], response: QuestionResponse, named?: string): string {
  const reason = response.reason ? ` Reason: ${response.reason.replace(/[.!?]?$/, '.')}` : '';
  const after = named ? `: ${named}` : '';
  switch (response.status) {
    case 'answered': {
      const answers = response.answers ?? {};
      const noun = questions.length === 1 ? 'question' : 'questions';
      const each = questions.map((q) => `${q.id} = ${summarizeAnswer(q, answers[q.id])}`).join('; ');
      const stored = Object.values(answers).flatMap((a) => (a.secret && !a.skipped ? [`$${a.secret.envVar}`] : []));
      const terminals = stored.length
        ? ` New integrated terminals have ${stored.join(', ')} set; use ${stored.length > 1 ? 'them' : 'it'} from there and never print or ask for the value.`
        : '';
      // A scripted answer is never passed off as the user's.
      const who =
        (response.reason === SCRIPTED_REASON ? `The answers file answered ${questions.length} ${noun} (not the user)` : `The user answered ${questions.length} ${noun}`) +
        (named ? `, ${named}` : '');
      // The note on the whole batch (review step), after the answers it is about.
      const note = response.note ? ` The user's note on all of these answers: ${JSON.stringify(response.note)}.` : '';
      const count = attachedImages(response).length;
      const images = count ? ` The user attached ${imageCount(count)}; ${count === 1 ? 'it follows' : 'they follow'} this text, in the order of the answers.` : '';
      return `${who}: ${each}.${note}${terminals}${images}`;
    }
    case 'rejected':
      return `The user declined to answer${named ? ` ${named}` : ''}.${reason} ${CONTINUE}`;
    case 'cancelled':
      return `The question was cancelled before the user answered${after}.${reason}`;
    case 'timed_out':
      return `The user did not answer in time${after}.${reason} ${CONTINUE}`;
    case 'unavailable':
      return `No one can answer questions right now${after}.${reason} ${CONTINUE}`;
  }
}

export function formatQuestionResult(questions: readonly Pick<Question, 'id' | 'kind' | 'question'>[], response: QuestionResponse): string {
  return `${headline(questions, response, namedCall(questions, response.requestId))}\n${JSON.stringify(withImagesDescribed(response))}`;
}

/** `ask_user` with `wait: false`: the request id and what to do next. */
export function formatWaitingResult(requestId: string): string {
  const id = JSON.stringify(requestId);
  return (
    `The question waits for the user in VS Code (request id ${id}); you were not blocked. Keep working on what does not depend on the answer, ` +
    `and call get_answers with ids [${id}] before you rely on it (waitSeconds > 0 waits for the answer; 0 looks and returns).\n` +
    JSON.stringify({ requestId, status: 'waiting' })
  );
}
