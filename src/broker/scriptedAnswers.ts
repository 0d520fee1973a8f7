// Scripted answers for CI and evals: a JSON file mapping question ids to answers.
// Anything missing or not fitting fails closed: the request is `unavailable`, never guessed.
import * as z from 'zod';
import { jsonErrorLocation } from './questions/jsonErrorLocation';
import { SNAKE_CASE, LIMITS, type Answer, type Answers, type Question } from './contract/schemas';
import { isSecretKind, unhandledKind } from './contract/questionKinds';

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

export type ScriptedAnswer = z.infer<typeof ScriptedAnswerSchema>;
/** Entries by question id. Read only through own properties: a key like "constructor" is no entry. */
export type AnswersFile = Readonly<Record<string, ScriptedAnswer>>;

export type ParsedAnswersFile = { ok: true; entries: AnswersFile } | { ok: false; error: string };

/** What a scripted response says, so neither the model nor the history takes it for the user. */
export const SCRIPTED_REASON = 'Answered from the answers file agentQuestions.answersFile, not by the user.';

const ENTRY_SHAPE = 'a label, a list of labels, or {"selected","other","note","skipped"}';

/** Parses the file. Errors say where it is malformed, never what it holds (it may hold a secret). */
export function parseAnswersFile(text: string, name: string): ParsedAnswersFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const at = jsonErrorLocation(text);
    return { ok: false, error: `The answers file ${name} is not valid JSON${at ? ` (line ${at.line}, column ${at.column})` : ''}.` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, error: `The answers file ${name} is malformed at the top level: expected an object mapping question ids to ${ENTRY_SHAPE}.` };
  }
  // A null-prototype object: "__proto__" stays an ordinary key, nothing is inherited.
  const entries: Record<string, ScriptedAnswer> = Object.create(null);
  let position = 0;
  for (const [key, value] of Object.entries(json)) {
    position++;
    const parsed = ScriptedAnswerSchema.safeParse(value);
    if (!parsed.success) {
      // Only a key shaped like a question id is named; anything else could be what must not be echoed.
      const where = SNAKE_CASE.test(key) && key.length <= LIMITS.idMax ? `entry "${key}"` : `its entry ${position}`;
      return { ok: false, error: `The answers file ${name} is malformed at ${where}: expected ${ENTRY_SHAPE}.` };
    }
    Object.defineProperty(entries, key, { value: parsed.data, enumerable: true });
  }
  return { ok: true, entries };
}

export type ScriptedResult = { ok: true; answers: Answers } | { ok: false; reason: string };

export function answersFromScript(questions: readonly Question[], entries: AnswersFile): ScriptedResult {
  const answers: Answers = {};
  for (const question of questions) {
    const entry = Object.hasOwn(entries, question.id) ? entries[question.id] : undefined;
    if (entry === undefined) return { ok: false, reason: `The answers file has no entry for question "${question.id}".` };
    if (isSecretKind(question.kind)) return { ok: false, reason: `Secret question "${question.id}" cannot be answered from the answers file.` };
    const answer = toAnswer(question, entry);
    if (typeof answer === 'string') return { ok: false, reason: `The answers file's entry for "${question.id}" does not fit the question: ${answer}.` };
    Object.defineProperty(answers, question.id, { value: answer, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, answers };
}

function toAnswer(question: Question, entry: ScriptedAnswer): Answer | string {
  if (typeof entry === 'object' && !Array.isArray(entry)) {
    if (entry.skipped) return { selected: [], skipped: true, ...(entry.note ? { note: entry.note } : {}) };
    return { selected: entry.selected ?? [], ...(entry.other ? { other: entry.other } : {}), ...(entry.note ? { note: entry.note } : {}), skipped: false };
  }
  const values = typeof entry === 'string' ? [entry] : entry;
  switch (question.kind) {
    case 'text':
      return values.length === 1 ? { selected: [values[0]!], skipped: false } : 'a text question takes one string';
    case 'single':
    case 'multi': {
      const labels = new Set(question.options.map((o) => o.label));
      const selected = values.filter((v) => labels.has(v));
      const others = values.filter((v) => !labels.has(v));
      if (others.length > 1 || (others.length === 1 && !question.allowOther)) return `no option ${JSON.stringify(others[0])}`;
      return { selected, ...(others.length ? { other: others[0] } : {}), skipped: false };
    }
    case 'secret':
      // Not reached: answersFromScript refuses a secret question before it looks at the entry.
      return 'a secret question is never answered from the answers file';
    default:
      return unhandledKind(question.kind);
  }
}
