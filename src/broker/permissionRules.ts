// What "Always allow" and "Always deny" may remember for a request, and whether one remembered rule
// matches a request. Shell commands (Bash, Codex's and OpenCode's commands) are decided per
// sub-command by commandRules.ts, with rules in the shape of VS Code's terminal auto-approve; other
// tools by the paths they touch (this file, this folder, inside the workspace), never "any input"
// for a tool that takes a path; other extensions by their own permission key. No rule covers a
// call that touches agent or editor configuration.
import type { NewPermissionRequest } from './broker';
import type { CommandRuleValue, decideCommandLine, offeredRules } from './commandRules';
import type { RememberOption } from './schemas';
import type { ParsedCommandLine } from './shellCommand';
import { isInside } from './toolCallDisplay';
import { folderOf, isUnder, pathsIn, protectedMentions, protectedTarget } from './toolPaths';
import { hasInvisible } from './visibleText';

/** Rule keys by kind: a command rule's key is its CommandRules key after the prefix. */
export const COMMAND = 'cmd:';
const TOOL = 'tool:';
const API = 'api:';

/** A remembered option with what it is, so the store can decide with it later. */
export interface RuleOption extends RememberOption {
  /** Command rules: the value in VS Code's auto-approve shape. */
  value?: CommandRuleValue;
}

/**
 * The shell parser and the command rules, loaded together on first use: in the extension they are
 * a bundle of their own (dist/shell.js), so activation never pays for them.
 */
export interface CommandChecker {
  parse(line: string): ParsedCommandLine;
  decide: typeof decideCommandLine;
  offer: typeof offeredRules;
  /** One line on what a parsed line does (commandEffects.ts), for the card and Check a Command. */
  summarize?(parsed: ParsedCommandLine, workspaceFolders: readonly string[]): string;
}

const shortText = (text: string, max = 60) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Whether no rule may decide this call without the user: configuration it touches, or something hidden. */
export function neverRemembered(request: NewPermissionRequest): boolean {
  const call = request.toolCall;
  if (!call) return false;
  if (hasInvisible(call.tool) || call.fields.some((f) => hasInvisible(f.value) || hasInvisible(f.name))) return true;
  if (call.command !== undefined) return hasInvisible(call.command) || protectedMentions(call.command).length > 0;
  // A shell permission without its command line (OpenCode's bash ask without metadata.command): shown as it arrived, never remembered.
  if (/^(bash|shell|sh|exec_command)$/i.test(call.tool)) return true;
  return pathsIn(inputOf(request)).some((p) => protectedTarget(p) !== undefined);
}

/** The call's input as the agent sent it (fields hold strings; JSON values are parsed back). */
export function inputOf(request: NewPermissionRequest): Record<string, unknown> {
  const input: Record<string, unknown> = Object.create(null);
  for (const field of request.toolCall?.fields ?? []) {
    try {
      input[field.name] = /^[[{]/.test(field.value) ? JSON.parse(field.value) : field.value;
    } catch {
      input[field.name] = field.value;
    }
  }
  return input;
}

/** The rules a prompt offers for a request, the narrowest first; none when no rule may cover it. */
export function rememberOptionsFor(request: NewPermissionRequest, checker: CommandChecker | undefined, workspaceFolders: readonly string[]): RuleOption[] {
  const call = request.toolCall;
  if (!call) {
    if (!request.permissionKey) return [];
    return [{ key: `${API}${request.source.label}\n${request.permissionKey}`, label: request.permissionKey, description: `Requests from ${request.source.label} for "${request.permissionKey}"` }];
  }
  if (neverRemembered(request)) return [];
  if (call.command !== undefined) {
    if (!checker) return [];
    return checker.offer(call.command, checker.parse(call.command), {}).map((rule) => ({ key: `${COMMAND}${rule.key}`, value: rule.value, label: rule.label, description: rule.description }));
  }
  const paths = pathsIn(inputOf(request));
  if (paths.length === 0) {
    const exact = JSON.stringify(inputOf(request));
    return [
      { key: `${TOOL}${call.tool}\ninput:${exact}`, label: `${call.tool} ${shortText(exact)}`, description: `${call.tool} with exactly this input` },
      { key: `${TOOL}${call.tool}`, label: call.tool, description: `Every ${call.tool} call (it names no file or folder)` },
    ];
  }
  const options: RuleOption[] = [];
  if (paths.length === 1) options.push({ key: `${TOOL}${call.tool}\nfile:${paths[0]}`, label: `${call.tool} ${shortText(paths[0]!)}`, description: `${call.tool} on this path only` });
  const folders = [...new Set(paths.map(folderOf))];
  if (folders.length === 1 && !folders[0]!.includes('*')) options.push({ key: `${TOOL}${call.tool}\ndir:${folders[0]}`, label: `${call.tool} ${shortText(folders[0]!)}…`, description: `${call.tool} on anything in ${folders[0]}` });
  if (paths.every((p) => isInside(p, workspaceFolders))) options.push({ key: `${TOOL}${call.tool}\nworkspace`, label: `${call.tool} in the workspace`, description: `${call.tool} on anything inside the workspace folders` });
  return options;
}

/** Whether a remembered tool or API rule matches this request (command rules: see commandRules.ts). */
export function ruleMatches(key: string, request: NewPermissionRequest, workspaceFolders: readonly string[]): boolean {
  const call = request.toolCall;
  if (!call) return request.permissionKey !== undefined && key === `${API}${request.source.label}\n${request.permissionKey}`;
  if (call.command !== undefined || !key.startsWith(`${TOOL}${call.tool}`) || neverRemembered(request)) return false;
  const scope = key.slice(`${TOOL}${call.tool}`.length);
  const paths = pathsIn(inputOf(request));
  if (scope === '') return paths.length === 0;
  if (scope.startsWith('\ninput:')) return paths.length === 0 && scope.slice('\ninput:'.length) === JSON.stringify(inputOf(request));
  if (paths.length === 0) return false;
  if (scope.startsWith('\nfile:')) return paths.every((p) => p === scope.slice('\nfile:'.length));
  if (scope.startsWith('\ndir:')) return paths.every((p) => !p.includes('*') && isUnder(p, scope.slice('\ndir:'.length), workspaceFolders));
  if (scope === '\nworkspace') return paths.every((p) => isInside(p, workspaceFolders));
  return false;
}
