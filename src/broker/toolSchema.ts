// The `ask_user` JSON Schema and model description, written into package.json by esbuild.mjs and
// served as they are by the MCP endpoint: one source for every transport.
import * as z from 'zod';
import { AskUserInputSchema } from './schemas';

/** A tool's input schema as JSON Schema, without the `$schema` key tool schemas leave out. */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

export function askUserJsonSchema(): Record<string, unknown> {
  return toolJsonSchema(AskUserInputSchema);
}

export const ASK_USER_DESCRIPTION =
  "Ask the human user 1-4 structured questions and wait for typed answers. Use it when you meet a real decision you should not guess: choosing between libraries, designs or API shapes, resolving an ambiguous requirement, or getting a value only the user has. Prefer it over asking in chat text, which breaks the tool loop. Prefer it over the built-in vscode_askQuestions when you need a secret (kind 'secret' stores the value in VS Code's SecretStorage and gives new terminals an environment variable; you receive only a handle, never the value), when the user may answer later from the Agent Questions sidebar queue, or when answers may be scripted (CI, evals). Do not use it for things you can find out yourself (read the code, run a command), for confirmation of routine steps, or to chat. Give each question a short header and 2-6 concrete options when the answer is a choice; mark at most one option recommended. For design decisions (architecture, API shapes, migrations) show what each choice means: a question's 'detail' and each option's 'preview' take markdown (code blocks, tables, ASCII diagrams; 2000 characters each, 12000 for context, details and previews together); the user sees an option's preview while on it. The result is one readable line followed by JSON: status 'answered' with answers keyed by question id ({selected, other?, note?, skipped, images?}) and an optional batch 'note', plus any images the user attached as image parts; or 'rejected', 'cancelled', 'timed_out' or 'unavailable' - in those cases continue on stated assumptions and do not ask the same thing again.";
