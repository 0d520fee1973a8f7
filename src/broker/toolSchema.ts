// The `ask_user` JSON Schema for package.json, generated from the zod source by esbuild.mjs.
import * as z from 'zod';
import { AskUserInputSchema } from './schemas';

export function askUserJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(AskUserInputSchema, { io: 'input' }) as Record<string, unknown>;
  return schema;
}
