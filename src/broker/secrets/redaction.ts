// Secret answers leave the broker only as a handle: never a value, whatever the caller put there.
import type { Answer, Answers, Question } from '../contract/schemas';
import { isSecretKind } from '../contract/questionKinds';

export function redactAnswer(question: Pick<Question, 'kind'> | undefined, answer: Answer): Answer {
  if (!(question && isSecretKind(question.kind)) && !answer.secret) return answer;
  return { selected: [], skipped: answer.skipped, ...(answer.secret ? { secret: { stored: true, envVar: answer.secret.envVar } } : {}) };
}

export function redactAnswers(questions: readonly Pick<Question, 'id' | 'kind'>[], answers: Answers): Answers {
  const redacted: Answers = {};
  for (const [id, answer] of Object.entries(answers))
    redacted[id] = redactAnswer(
      questions.find((q) => q.id === id),
      answer,
    );
  return redacted;
}
