// A tool call as the user sees it before allowing it: the whole input, never cut. The command in
// full, every other key by name and value, and what is unusual called out. An input too large to
// show in full is refused instead of cut.
import type { ToolCall } from './schemas';
import { pathsIn, protectedMentions, protectedTarget } from './toolPaths';

/** The most input characters a permission prompt shows; larger calls are denied, never cut. */
export const MAX_SHOWN_CHARS = 20_000;
/** A run of blank characters this long can push the rest of a line out of sight. */
const LONG_BLANK_RUN = 20;
/** Anything that renders blank or nearly so: tabs, every space separator, fillers, Braille blank, zero-width and other format characters. */
const BLANK_RUN = /[\t\p{Zs}\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u17B4\u17B5]+/gu;

export type ToolCallDisplay = { ok: true; toolCall: ToolCall } | { ok: false; message: string };

export function displayToolCall(tool: string, input: Record<string, unknown>, workspaceFolders: readonly string[]): ToolCallDisplay {
  const command = tool === 'Bash' && typeof input['command'] === 'string' ? input['command'] : undefined;
  const fields = Object.entries(input)
    .filter(([name]) => command === undefined || name !== 'command')
    .map(([name, value]) => {
      const text = typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value));
      const warning = fieldWarning(tool, name, value, workspaceFolders);
      return { name, value: text, ...(warning ? { warning } : {}) };
    });
  const shown = tool.length + (command?.length ?? 0) + fields.reduce((sum, f) => sum + f.name.length + f.value.length, 0);
  if (shown > MAX_SHOWN_CHARS) {
    return {
      ok: false,
      message: `The ${tool} call is too large to show the user in full (${shown} characters; at most ${MAX_SHOWN_CHARS}), so it was not allowed. Write long content to a file first, or split the work into smaller calls.`,
    };
  }
  const warnings = [...new Set([...(command !== undefined ? commandWarnings(command) : []), ...fields.flatMap((f) => (f.warning ? [f.warning] : []))])];
  return { ok: true, toolCall: { tool, ...(command !== undefined ? { command } : {}), fields, warnings } };
}

function commandWarnings(command: string): string[] {
  const warnings: string[] = protectedMentions(command).map(protectedWarning);
  const lines = command.split('\n').length;
  if (lines > 1) warnings.push(`The command has ${lines} lines; read all of them.`);
  const blank = Math.max(0, ...[...command.matchAll(BLANK_RUN)].map((m) => [...m[0]].length));
  if (blank >= LONG_BLANK_RUN) warnings.push(`The command contains a run of ${blank} blank characters; read it to the end.`);
  return warnings;
}

function fieldWarning(tool: string, name: string, value: unknown, workspaceFolders: readonly string[]): string | undefined {
  if (tool === 'Bash' && name === 'dangerouslyDisableSandbox' && value === true) return 'Runs outside the sandbox (dangerouslyDisableSandbox: true).';
  if (tool === 'Bash' && name === 'run_in_background' && value === true) return 'Runs in the background (run_in_background: true): it keeps running after you answer.';
  // Every path under this key, at any depth and in arrays: configuration first, then outside the workspace.
  const paths = pathsIn({ [name]: value });
  const guarded = paths.find((p) => protectedTarget(p) !== undefined);
  if (guarded !== undefined) return `${protectedWarning(protectedTarget(guarded)!)} (${name}: ${guarded})`;
  const outside = paths.find((p) => !isInside(p, workspaceFolders));
  return outside !== undefined ? `${name} is outside the workspace: ${outside}` : undefined;
}

const protectedWarning = (what: string) => `Touches ${what}, which can grant an agent permissions or run code: always asked, no rule covers it.`;

/** Whether a path (absolute, or relative to the first folder) stays inside one of the workspace folders. */
export function isInside(path: string, workspaceFolders: readonly string[]): boolean {
  const slashes = (p: string) => p.replace(/\\/g, '/');
  const target = slashes(path);
  if (workspaceFolders.length === 0 || target.startsWith('~')) return false;
  const absolute = target.startsWith('/') || /^[a-zA-Z]:\//.test(target);
  const resolved = normalize(absolute ? target : `${slashes(workspaceFolders[0]!)}/${target}`);
  return workspaceFolders.some((folder) => {
    const root = normalize(slashes(folder));
    return resolved === root || resolved.startsWith(root.endsWith('/') ? root : `${root}/`);
  });
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return `${/^[a-zA-Z]:/.test(path) ? '' : '/'}${parts.join('/')}`;
}
