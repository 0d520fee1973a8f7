// Checks that a reply fits the request it answers, so a buggy or hostile client cannot
// hand the agent labels it never offered.
import { base64ByteLength, base64Head, sniffImageType } from './imageFormat';
import { LIMITS, type Answer, type Answers, type Question, type QuestionRequest } from '../contract/schemas';
import { isSecretKind, unhandledKind } from '../contract/questionKinds';

export function checkAnswers(request: QuestionRequest, answers: Answers): string | undefined {
  for (const id of Object.keys(answers)) {
    if (!request.questions.some((q) => q.id === id)) return `answer for unknown question "${id}"`;
  }
  for (const question of request.questions) {
    // Own keys only: a question named "constructor" must not find Object.prototype's.
    const answer = Object.hasOwn(answers, question.id) ? answers[question.id] : undefined;
    if (!answer) return `no answer for question "${question.id}" (send it as skipped)`;
    if (answer.skipped) {
      if (answer.selected.length > 0 || answer.other !== undefined || answer.secret || answer.value !== undefined || answer.images?.length)
        return `question "${question.id}" is skipped but carries an answer`;
      continue;
    }
    if (answer.images?.length && isSecretKind(question.kind)) return `secret question "${question.id}" takes no images`;
    const imageProblem = checkImages(question.id, answer);
    if (imageProblem) return imageProblem;
    if (answer.other !== undefined && !question.allowOther) return `question "${question.id}" does not allow "Other"`;
    if (answer.value !== undefined && !question.returnValue) return `question "${question.id}" does not return a value`;
    const problem = kindProblem(question, answer);
    if (problem) return problem;
  }
  return undefined;
}

/** What an answer (not skipped) must look like for its question's kind. */
function kindProblem(question: Question, answer: Answer): string | undefined {
  switch (question.kind) {
    case 'single':
    case 'multi': {
      const unknown = answer.selected.find((label) => !question.options.some((o) => o.label === label));
      if (unknown !== undefined) return `question "${question.id}" has no option ${JSON.stringify(unknown)}`;
      if (question.kind === 'single' && answer.selected.length + (answer.other ? 1 : 0) > 1) return `question "${question.id}" takes one choice`;
      if (answer.selected.length === 0 && !answer.other) return `question "${question.id}" has no choice (send it as skipped)`;
      return undefined;
    }
    case 'text':
      return answer.selected.length !== 1 ? `text question "${question.id}" takes its text as the one entry of selected` : undefined;
    case 'secret':
      return !answer.secret || answer.selected.length > 0 || answer.other !== undefined
        ? `secret question "${question.id}" must be answered with a stored-secret handle only`
        : undefined;
    default:
      return unhandledKind(question.kind);
  }
}

/** Each image is what it says it is (by its first bytes) and within the size limit. */
function checkImages(questionId: string, answer: Answer): string | undefined {
  for (const [i, image] of (answer.images ?? []).entries()) {
    const where = `image ${i + 1} of question "${questionId}"`;
    if (sniffImageType(base64Head(image.data)) !== image.mimeType) return `${where} is not a ${image.mimeType} image`;
    if (base64ByteLength(image.data) > LIMITS.imageMaxBytes) return `${where} is larger than ${LIMITS.imageMaxBytes} bytes`;
  }
  return undefined;
}
