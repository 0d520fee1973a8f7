// Turns the model's raw `ask_user` input into normalized questions, or into one deterministic,
// model-readable message that names every bad field by path and says how to fix it.
import type * as z from 'zod';
import {
  API_MAX_QUESTIONS,
  ApiAskRequestSchema,
  AskUserInputSchema,
  ENV_VAR,
  LIMITS,
  QUESTION_KINDS,
  type ApiAskRequest,
  type AskUserInput,
  type Question,
  type QuestionInput,
} from '../contract/schemas';
import { isChoiceKind, isSecretKind, kindTraits } from '../contract/questionKinds';
import { envVarRefusal } from '../secrets/envVarPolicy';

export type ParsedQuestions<T> = { ok: true; input: T; questions: Question[] } | { ok: false; message: string };

interface Problem {
  path: PropertyKey[];
  message: string;
}

interface Target<T> {
  schema: z.ZodType<T>;
  /** Names the input and the retry in the first line of the message. */
  intro: string;
  maxQuestions: number;
  rootFields: string;
}

const ASK_USER: Target<AskUserInput> = {
  schema: AskUserInputSchema,
  intro: 'ask_user input is invalid; nothing was asked. Fix {n} and call ask_user again:',
  maxQuestions: LIMITS.maxQuestions,
  rootFields: 'questions, context, wait',
};

const API_ASK: Target<ApiAskRequest> = {
  schema: ApiAskRequestSchema,
  intro: 'AgentQuestionsApi.ask: the request is invalid; nothing was asked. Fix {n}:',
  maxQuestions: API_MAX_QUESTIONS,
  rootFields: 'questions, context, extensionId, timeoutSeconds',
};

export const parseAskUserInput = (raw: unknown) => parseQuestions(raw, ASK_USER);
export const parseApiAskRequest = (raw: unknown) => parseQuestions(raw, API_ASK);

function parseQuestions<T extends { questions: QuestionInput[]; context?: string }>(raw: unknown, target: Target<T>): ParsedQuestions<T> {
  const result = target.schema.safeParse(raw);
  const problems = result.success
    ? [...crossFieldProblems(result.data.questions), ...markdownTotalProblems(result.data)]
    : result.error.issues.map((issue) => describeIssue(issue, raw, target));
  if (problems.length > 0) return { ok: false, message: formatProblems(problems, target.intro) };
  const input = result.data as T;
  return { ok: true, input, questions: input.questions.map(normalizeQuestion) };
}

export function resolveKind(question: Pick<QuestionInput, 'kind' | 'options'>): Question['kind'] {
  return question.kind ?? (question.options ? 'single' : 'text');
}

export function normalizeQuestion(input: QuestionInput): Question {
  const kind = resolveKind(input);
  const choice = isChoiceKind(kind);
  return {
    id: input.id,
    header: input.header,
    question: input.question,
    ...(input.detail !== undefined ? { detail: input.detail } : {}),
    kind,
    options: choice ? (input.options ?? []) : [],
    allowOther: choice ? (input.allowOther ?? true) : false,
    ...(input.placeholder !== undefined ? { placeholder: input.placeholder } : {}),
    ...(input.envVar !== undefined ? { envVar: input.envVar } : {}),
    ...(input.returnValue && isSecretKind(kind) ? { returnValue: true } : {}),
  };
}

export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) text += typeof part === 'number' ? `[${part}]` : `${text ? '.' : ''}${String(part)}`;
  return text || '(input)';
}

function formatProblems(problems: Problem[], intro: string): string {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  const lines = problems.map((p) => `- ${formatPath(p.path)}: ${p.message}`);
  return [intro.replace('{n}', count), ...lines].join('\n');
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value = raw;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `a ${typeof value}`;
}

const fieldName = (path: readonly PropertyKey[]) => String([...path].reverse().find((p) => typeof p === 'string') ?? '');

function describeIssue(issue: z.core.$ZodIssue, raw: unknown, { maxQuestions, rootFields }: Target<unknown>): Problem {
  const path = issue.path;
  const field = fieldName(path);
  const value = valueAt(raw, path);
  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0)
        return {
          path,
          message: `must be an object like {"questions":[{"id":"db","header":"Database","question":"Which database?","options":[{"label":"PostgreSQL"},{"label":"SQLite"}]}]} (got ${describeValue(raw)})`,
        };
      if (value === undefined) return { path, message: `is required (${expectedText(issue.expected, field, maxQuestions)})` };
      return { path, message: `must be ${expectedText(issue.expected, field, maxQuestions)} (got ${describeValue(value)})` };
    case 'too_small':
    case 'too_big':
      return { path, message: sizeMessage(field, value, maxQuestions) };
    case 'invalid_format':
      if (field === 'id')
        return {
          path,
          message: `must be snake_case: lowercase letters, digits and underscores, starting with a letter (got ${JSON.stringify(value)}); e.g. ${JSON.stringify(toSnakeCase(String(value)))}`,
        };
      if (field === 'envVar')
        return {
          path,
          message: `must be an environment variable name matching ${ENV_VAR} (got ${JSON.stringify(value)}); e.g. ${JSON.stringify(
            String(value)
              .toUpperCase()
              .replace(/[^A-Z0-9_]/g, '_'),
          )}`,
        };
      return { path, message: `has the wrong format (got ${describeValue(value)})` };
    case 'invalid_value':
      if (field === 'kind')
        return {
          path,
          message: `must be one of ${QUESTION_KINDS.map((k) => `"${k}"`).join(', ')} (got ${JSON.stringify(value)}); use ${QUESTION_KINDS.map((k) => `"${k}" for ${kindTraits(k).useFor}`).join(', ')}`,
        };
      return { path, message: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${JSON.stringify(value)})` };
    case 'unrecognized_keys': {
      const allowed = allowedFields(path, rootFields);
      const fixes = issue.keys.map((key) => {
        const meant = closeField(key, allowed);
        return meant ? `rename "${key}" to "${meant}"` : `remove "${key}"`;
      });
      return { path, message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}; ${fixes.join(', ')} (allowed: ${allowed})` };
    }
    default:
      return { path, message: issue.message };
  }
}

function expectedText(expected: string, field: string, maxQuestions: number): string {
  if (field === 'questions') return `an array of ${LIMITS.minQuestions} to ${maxQuestions} questions`;
  if (field === 'options') return `an array of ${LIMITS.minOptions} to ${LIMITS.maxOptions} options like {"label":"PostgreSQL"}`;
  if (field === 'id') return 'a snake_case id, unique within the call, e.g. "database"';
  if (expected === 'object') return 'an object';
  if (expected === 'array') return 'an array';
  return `a ${expected}`;
}

function sizeMessage(field: string, value: unknown, maxQuestions: number): string {
  const got = Array.isArray(value) ? `got ${value.length}` : typeof value === 'string' ? `got ${value.length}` : `got ${describeValue(value)}`;
  switch (field) {
    case 'questions':
      return `needs ${LIMITS.minQuestions} to ${maxQuestions} questions (${got}); ask the most important now and the rest in a later call`;
    case 'options':
      return `needs ${LIMITS.minOptions} to ${LIMITS.maxOptions} options (${got}); use kind "text" for an open question`;
    case 'header':
      return `must be 1 to ${LIMITS.headerMax} characters (${got}); use a 1-3 word label such as "Database"`;
    case 'question':
      return `must be 1 to ${LIMITS.questionMax} characters (${got}); move background into "context"`;
    case 'label':
      return `must be 1 to ${LIMITS.labelMax} characters (${got}); put details in the option's "description"`;
    case 'description':
      return `must be at most ${LIMITS.descriptionMax} characters (${got})`;
    case 'placeholder':
      return `must be at most ${LIMITS.placeholderMax} characters (${got})`;
    case 'context':
      return `must be at most ${LIMITS.contextMax} characters (${got}); summarize`;
    case 'detail':
      return `must be at most ${LIMITS.detailMax} characters (${got}); keep the essentials`;
    case 'preview':
      return `must be at most ${LIMITS.previewMax} characters (${got}); sketch only what this option changes`;
    case 'id':
      return `must be 1 to ${LIMITS.idMax} characters (${got})`;
    default:
      return `has the wrong size (${got})`;
  }
}

function allowedFields(path: readonly PropertyKey[], rootFields: string): string {
  const last = path[path.length - 1];
  if (path.length === 0) return rootFields;
  if (path.includes('options')) return 'label, description, recommended, preview';
  if (typeof last === 'number') return `id, header, question, detail, kind, options, allowOther, placeholder, envVar${rootFields.includes('extensionId') ? ', returnValue' : ''}`;
  return 'see the tool schema';
}

/** The allowed field a misspelt one most likely meant (case, '_' and '-' ignored). */
function closeField(key: string, allowed: string): string | undefined {
  const squash = (text: string) => text.toLowerCase().replace(/[_-]/g, '');
  return allowed.split(', ').find((field) => squash(field) === squash(key));
}

function toSnakeCase(text: string): string {
  const snake = text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '');
  return snake || 'question_1';
}

function crossFieldProblems(questions: readonly QuestionInput[]): Problem[] {
  const problems: Problem[] = [];
  const firstIndexOfId = new Map<string, number>();
  questions.forEach((q, i) => {
    const at = (...rest: PropertyKey[]) => ['questions', i, ...rest];
    const earlier = firstIndexOfId.get(q.id);
    if (earlier !== undefined) problems.push({ path: at('id'), message: `"${q.id}" is already used by questions[${earlier}]; every id must be unique` });
    else firstIndexOfId.set(q.id, i);

    const kind = resolveKind(q);
    const secret = isSecretKind(kind);
    if (isChoiceKind(kind)) {
      if (!q.options)
        problems.push({
          path: at('options'),
          message: `kind "${kind}" needs ${LIMITS.minOptions} to ${LIMITS.maxOptions} options; add them, or use kind "text" for an open question`,
        });
    } else {
      if (q.options) problems.push({ path: at('options'), message: `not allowed on kind "${kind}"; remove them, or use kind "single" or "multi"` });
      if (q.allowOther !== undefined) problems.push({ path: at('allowOther'), message: `not allowed on kind "${kind}"; remove it` });
    }
    if (secret && !q.envVar)
      problems.push({ path: at('envVar'), message: 'is required for kind "secret": the environment variable new terminals receive the value in, e.g. "OPENAI_API_KEY"' });
    const refusal = q.envVar ? envVarRefusal(q.envVar) : undefined;
    if (secret && refusal) problems.push({ path: at('envVar'), message: refusal });
    if (!secret && q.envVar !== undefined) problems.push({ path: at('envVar'), message: `only allowed on kind "secret"; remove it, or set kind "secret"` });
    if (!secret && q.returnValue !== undefined) problems.push({ path: at('returnValue'), message: 'only allowed on kind "secret"; remove it' });

    const options = q.options ?? [];
    const recommended = options.filter((o) => o.recommended);
    if (kindTraits(kind).picks === 'one' && recommended.length > 1) {
      problems.push({
        path: at('options'),
        message: `at most one option may be recommended on a single-choice question (got ${recommended.length}: ${recommended.map((o) => `"${o.label}"`).join(', ')}); keep one`,
      });
    }
    const seen = new Set<string>();
    options.forEach((o, j) => {
      if (seen.has(o.label)) problems.push({ path: at('options', j, 'label'), message: `"${o.label}" appears more than once; option labels must be unique` });
      seen.add(o.label);
    });
  });
  return problems;
}

/** Every field is within its own limit, but together the markdown must stay readable (and cheap for the model). */
function markdownTotalProblems(input: { questions: readonly QuestionInput[]; context?: string }): Problem[] {
  const lengths = [input.context?.length ?? 0, ...input.questions.flatMap((q) => [q.detail?.length ?? 0, ...(q.options ?? []).map((o) => o.preview?.length ?? 0)])];
  const total = lengths.reduce((a, b) => a + b, 0);
  if (total <= LIMITS.markdownTotalMax) return [];
  return [
    {
      path: [],
      message: `context, details and previews together are ${total} characters; at most ${LIMITS.markdownTotalMax} are allowed: shorten the previews or split the questions over two calls`,
    },
  ];
}
