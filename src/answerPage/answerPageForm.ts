// What the answer page's form sent, as the broker's answers or decision. Field names are the
// question's position (q0, q0-other, q0-text, q0-note) and an option's index, never agent text.
import type { Answer, Answers, QuestionRequest } from '../broker/contract/schemas';

export type ParsedAnswers = { ok: true; answers: Answers } | { ok: false; problem: string };
export type ParsedDecision = { ok: true; decision: 'allow_once' | 'deny'; message?: string } | { ok: false; problem: string };

const TEXT_MAX = 10_000;

export function parseQuestionForm(request: QuestionRequest, form: URLSearchParams): ParsedAnswers {
  const answers: Answers = {};
  for (const [index, question] of request.questions.entries()) {
    const field = (suffix: string) => form.get(`q${index}-${suffix}`) ?? '';
    const note = field('note').trim();
    if (note.length > TEXT_MAX) return { ok: false, problem: `the note on "${question.header}" is too long` };
    const withNote = (answer: Answer): Answer => (note ? { ...answer, note } : answer);
    if (question.kind === 'text') {
      const text = field('text');
      if (text.length > TEXT_MAX) return { ok: false, problem: `the answer to "${question.header}" is too long` };
      answers[question.id] = withNote(text.trim() ? { selected: [text], skipped: false } : { selected: [], skipped: true });
      continue;
    }
    if (question.kind === 'secret') return { ok: false, problem: 'a secret is answered in VS Code' };
    const picked = form.getAll(`q${index}`);
    const selected: string[] = [];
    let otherPicked = false;
    for (const value of picked) {
      if (value === 'other' && question.allowOther) otherPicked = true;
      else if (/^\d{1,2}$/.test(value) && Number(value) < question.options.length) selected.push(question.options[Number(value)]!.label);
      else return { ok: false, problem: `"${question.header}" has no such choice` };
    }
    const otherText = question.allowOther ? field('other').trim() : '';
    if (otherText.length > TEXT_MAX) return { ok: false, problem: `the answer to "${question.header}" is too long` };
    // Typed into "Other…" without picking anything (no script to pick it): that is the answer.
    const other = otherText && (otherPicked || picked.length === 0) ? otherText : undefined;
    const unique = [...new Set(selected)];
    if (question.kind === 'single' && unique.length + (other ? 1 : 0) > 1) return { ok: false, problem: `"${question.header}" takes one choice` };
    answers[question.id] = withNote(unique.length || other ? { selected: unique, skipped: false, ...(other ? { other } : {}) } : { selected: [], skipped: true });
  }
  return { ok: true, answers };
}

export function parseDecisionForm(form: URLSearchParams): ParsedDecision {
  const decision = form.get('decision');
  // An allowlist: the page never remembers a rule, whatever is posted.
  if (decision !== 'allow_once' && decision !== 'deny') return { ok: false, problem: 'the page decides Allow once or Deny only' };
  const message = (form.get('message') ?? '').trim();
  if (message.length > 2000) return { ok: false, problem: 'the message is too long' };
  return { ok: true, decision, ...(decision === 'deny' && message ? { message } : {}) };
}
