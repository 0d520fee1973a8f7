// Scripted answers for CI and evals: a JSON file mapping question ids to answers.
// Anything missing or not fitting fails closed: the request is `unavailable`, never guessed.
import * as z from 'zod';
import type { Answer, Answers, Question } from './schemas';

const ScriptedAnswerSchema = z.union([
  z.string(),
  z.array(z.string()),
  z
    .object({
      selected: z.array(z.string()).optional(),
      other: z.string().optional(),
      note: z.string().optional(),
      skipped: z.boolean().optional(),
    })
    .strict(),
]);

export const AnswersFileSchema = z.record(z.string(), ScriptedAnswerSchema);
export type AnswersFile = z.infer<typeof AnswersFileSchema>;
export type ScriptedAnswer = z.infer<typeof ScriptedAnswerSchema>;

export type ParsedAnswersFile = { ok: true; entries: AnswersFile } | { ok: false; error: string };

export function parseAnswersFile(text: string, name: string): ParsedAnswersFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The answers file ${name} is not valid JSON (${error instanceof Error ? error.message : String(error)}).` };
  }
  const parsed = AnswersFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `entry "${issue.path.join('.')}"` : 'the top level';
    return {
      ok: false,
      error: `The answers file ${name} is malformed at ${where}: expected an object mapping question ids to a label, a list of labels, or {"selected","other","note","skipped"}.`,
    };
  }
  return { ok: true, entries: parsed.data };
}

export type ScriptedResult = { ok: true; answers: Answers } | { ok: false; reason: string };

export function answersFromScript(questions: readonly Question[], entries: AnswersFile): ScriptedResult {
  const answers: Answers = {};
  for (const question of questions) {
    const entry = entries[question.id];
    if (entry === undefined) return { ok: false, reason: `The answers file has no entry for question "${question.id}".` };
    if (question.kind === 'secret') return { ok: false, reason: `Secret question "${question.id}" cannot be answered from the answers file.` };
    const answer = toAnswer(question, entry);
    if (typeof answer === 'string') return { ok: false, reason: `The answers file's entry for "${question.id}" does not fit the question: ${answer}.` };
    answers[question.id] = answer;
  }
  return { ok: true, answers };
}

function toAnswer(question: Question, entry: ScriptedAnswer): Answer | string {
  if (typeof entry === 'object' && !Array.isArray(entry)) {
    if (entry.skipped) return { selected: [], skipped: true, ...(entry.note ? { note: entry.note } : {}) };
    return { selected: entry.selected ?? [], ...(entry.other ? { other: entry.other } : {}), ...(entry.note ? { note: entry.note } : {}), skipped: false };
  }
  const values = typeof entry === 'string' ? [entry] : entry;
  if (question.kind === 'text') return values.length === 1 ? { selected: [values[0]!], skipped: false } : 'a text question takes one string';
  const labels = new Set(question.options.map((o) => o.label));
  const selected = values.filter((v) => labels.has(v));
  const others = values.filter((v) => !labels.has(v));
  if (others.length > 1 || (others.length === 1 && !question.allowOther)) return `no option ${JSON.stringify(others[0])}`;
  return { selected, ...(others.length ? { other: others[0] } : {}), skipped: false };
}
