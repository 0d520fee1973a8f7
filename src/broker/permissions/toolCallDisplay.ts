// A tool call as the user sees it before allowing it: the whole input, never cut. The command in
// full (Bash's, or any tool's that carries a command line), every other key by name and value, and
// what is unusual called out. An input too large to show in full is refused instead of cut.
import type { ToolCall } from '../contract/schemas';
import { shellLineOf } from './shell/shellTools';
import { MAX_DEPTH, normalizePath, pathsIn, placeOf, protectedMentions, toPathContext, tooDeep, type PathContext } from './toolPaths';

/** The most input characters a permission prompt shows; larger calls are denied, never cut. */
export const MAX_SHOWN_CHARS = 20_000;
/** A run of blank characters this long can push the rest of a line out of sight. */
const LONG_BLANK_RUN = 20;
/** Anything that renders blank or nearly so: tabs, every space separator, fillers, Braille blank, zero-width and other format characters. */
const BLANK_RUN = /[\t\p{Zs}\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u17B4\u17B5]+/gu;

export type ToolCallDisplay = { ok: true; toolCall: ToolCall } | { ok: false; message: string };

/** The call as shown; `where`: the workspace folders, or the whole path context (home, User folder, symlinks). */
export function displayToolCall(tool: string, input: Record<string, unknown>, where: readonly string[] | PathContext): ToolCallDisplay {
  const context = toPathContext(where);
  const line = shellLineOf(tool, input);
  const command = typeof line === 'object' ? line.command : undefined;
  const fields = Object.entries(input)
    .filter(([name]) => typeof line !== 'object' || name !== line.key)
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
      const warning = fieldWarning(tool, name, value, context);
      return { name, value: text, ...(warning ? { warning } : {}) };
    });
  const shown = tool.length + (command?.length ?? 0) + fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
  if (shown > MAX_SHOWN_CHARS) {
    return {
      ok: false,
      message: `The ${tool} call is too large to show the user in full (${shown} characters; at most ${MAX_SHOWN_CHARS}), so it was not allowed. Write long content to a file first, or split the work into smaller calls.`,
    };
  }
  const deep = tooDeep(input) ? [`The input nests deeper than ${MAX_DEPTH} levels, so its paths were not all checked.`] : [];
  const warnings = [...new Set([...(command !== undefined ? commandWarnings(command, context) : []), ...fields.flatMap((f) => (f.warning ? [f.warning] : [])), ...deep])];
  return { ok: true, toolCall: { tool, ...(command !== undefined ? { command } : {}), fields, warnings } };
}

function commandWarnings(command: string, context: PathContext): string[] {
  const warnings: string[] = protectedMentions(command, context).map(protectedWarning);
  const lines = command.split('\n').length;
  if (lines > 1) warnings.push(`The command has ${lines} lines; read all of them.`);
  const blank = Math.max(0, ...[...command.matchAll(BLANK_RUN)].map((m) => [...m[0]].length));
  if (blank >= LONG_BLANK_RUN) warnings.push(`The command contains a run of ${blank} blank characters; read it to the end.`);
  return warnings;
}

function fieldWarning(tool: string, name: string, value: unknown, context: PathContext): string | undefined {
  if (tool === 'Bash' && name === 'dangerouslyDisableSandbox' && value === true) return 'Runs outside the sandbox (dangerouslyDisableSandbox: true).';
  if (tool === 'Bash' && name === 'run_in_background' && value === true) return 'Runs in the background (run_in_background: true): it keeps running after you answer.';
  // Every path in this field, at any depth and in arrays: configuration first, then outside the workspace.
  const places = pathsIn({ [name]: value }).map((path) => ({ path, ...placeOf(path, context) }));
  const guarded = places.find((p) => p.place === 'protected');
  if (guarded !== undefined) return `${protectedWarning(guarded.what!)} (${name}: ${shownPath(guarded, context)})`;
  const outside = places.find((p) => p.place === 'outside');
  return outside !== undefined ? `${name} is outside the workspace: ${shownPath(outside, context)}` : undefined;
}

/** A path as written, and where it really leads when that reads differently (`..`, a symlink). */
function shownPath({ path, resolved }: { path: string; resolved: string }, context: PathContext): string {
  if (!resolved) return `${path} (cannot be placed)`;
  const plain = !/(^|[\\/])\.\.([\\/]|$)/.test(path) && normalizePath(path, context.workspaceFolders[0], context.home) === resolved;
  return plain ? path : `${path} (${resolved})`;
}

const protectedWarning = (what: string) => `Touches ${what}, which can grant an agent permissions or run code: always asked, no rule covers it.`;
