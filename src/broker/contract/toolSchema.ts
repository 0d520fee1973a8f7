// The `ask_user` JSON Schema and model description, written into package.json by esbuild.mjs and
// served as they are by the MCP endpoint: one source for every transport.
import * as z from 'zod';
import { AskUserInputSchema, GetAnswersInputSchema } from './schemas';

/** A tool's input schema as JSON Schema, without the `$schema` key tool schemas leave out. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

export function askUserJsonSchema(): Record<string, unknown> {
  return toolJsonSchema(AskUserInputSchema);
}

export function getAnswersJsonSchema(): Record<string, unknown> {
  return toolJsonSchema(GetAnswersInputSchema);
}

export const ASK_USER_DESCRIPTION =
  "Ask the human user 1-4 structured questions and wait for typed answers. Use it when you meet a real decision you should not guess: choosing between libraries, designs or API shapes, resolving an ambiguous requirement, or getting a value only the user has. Prefer it over asking in chat text, which breaks the tool loop. Prefer it over the built-in vscode_askQuestions when you need a secret (kind 'secret' stores the value in VS Code's SecretStorage and gives new terminals an environment variable; you receive only a handle, never the value), when the user may answer later from the Agent Questions sidebar queue, or when answers may be scripted (CI, evals). Do not use it for things you can find out yourself (read the code, run a command), for confirmation of routine steps, or to chat. Give each question a short header and 2-6 concrete options when the answer is a choice; mark at most one option recommended. For design decisions (architecture, API shapes, migrations) show what each choice means: a question's 'detail' and each option's 'preview' take markdown (code blocks, tables, ASCII diagrams; 2000 characters each, 12000 for context, details and previews together); the user sees an option's preview while on it. The result is one readable line followed by JSON: status 'answered' with answers keyed by question id ({selected, other?, note?, skipped, images?}) and an optional batch 'note', plus any images the user attached as image parts; or 'rejected', 'cancelled', 'timed_out' or 'unavailable' - in those cases continue on stated assumptions and do not ask the same thing again. By default the call waits for the answer: use that when you cannot go on without it. Set wait: false when you have other work that does not depend on the answer (the user may be away for a while): the call returns at once with status 'waiting' and a request id; keep working, and call get_answers with that id before you rely on the answer. If your client moves a waiting call to the background, do not act on the decision it asks about until its result arrives: that result names the question and the request id, and it is the user's answer even when it comes as a background-task notification.";

export const GET_ANSWERS_DESCRIPTION =
  "Collect the answers to questions you asked with ask_user and wait: false. Pass the request ids ask_user returned. waitSeconds 0 (default) looks and returns at once; a positive waitSeconds blocks until every id is answered or settled, or the time passes - use it when you have nothing else left to do. For each id the result has the same shape ask_user returns (status 'answered' with answers keyed by question id, or 'rejected', 'cancelled', 'timed_out', 'unavailable'), or status 'waiting' (the user has not answered yet: keep working and check again later), or 'unknown' (not asked by you in this chat or by this MCP client, or dropped after it was collected). Answers are kept after you collect them, for a while, so a later turn can read them again.";
