// What "Always allow" and "Always deny" may remember for a request, and whether one remembered rule
// matches a request. Shell commands (Bash, Codex's and OpenCode's commands, any tool that carries a
// command line) are decided per sub-command by commandRules.ts, with rules in the shape of VS Code's
// terminal auto-approve; other tools by the real paths they touch (this file, this folder, inside
// the workspace), never "any input" for a tool that names a path; other extensions by their own
// permission key. No rule covers a call that touches agent or editor configuration.
import type { NewPermissionRequest } from '../broker';
import type { analyseCommandLine, CommandDecision, CommandRuleValue, decideAnalysed, LineAnalysis, offersFor } from './shell/commandRules';
import type { RememberOption } from '../contract/schemas';
import type { ParsedCommandLine } from './shell/shellCommand';
import type { WorkspaceFiles } from './shell/runnerCode';
import { shellLineOf } from './shell/shellTools';
import { commandPlaces } from './agentFolder';
import {
  folderOf,
  isUnderFolder,
  normalizePath,
  pathsIn,
  placeOf,
  protectedMentions,
  realWorkspaceFolders,
  samePath,
  toPathContext,
  tooDeep,
  type PathContext,
  type PathPlace,
} from './toolPaths';
import { hasInvisible } from '../visibleText';

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
  /** A line read once: its parts, where each runs, what runs, and the card's line. */
  analyse: typeof analyseCommandLine;
  decide: typeof decideAnalysed;
  offer: typeof offersFor;
  /** The workspace's files under a folder, for the card and the offered rules (what a runner runs, a tsconfig). */
  files?(folder: string | undefined): WorkspaceFiles | undefined;
}

const shortText = (text: string, max = 60) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/**
 * Whether no rule may decide this call without the user: configuration it touches (a path in any
 * field, or a word of its command line), something hidden, a command line that cannot be read
 * (an argv array, a shell tool without one), or nesting too deep to check.
 */
export function neverRemembered(request: NewPermissionRequest, where: readonly string[] | PathContext = []): boolean {
  const call = request.toolCall;
  if (!call) return false;
  if (hasInvisible(call.tool) || call.fields.some((f) => hasInvisible(f.value) || hasInvisible(f.name))) return true;
  const input = inputOf(request);
  if (tooDeep(input)) return true;
  const context = toPathContext(where);
  if (call.command !== undefined && (hasInvisible(call.command) || protectedMentions(call.command, context).length > 0)) return true;
  // A shell permission without a readable command line (OpenCode's bash ask without metadata.command, an argv array): never remembered.
  if (call.command === undefined && shellLineOf(call.tool, input) !== undefined) return true;
  return placesIn(request, context).some((p) => p.place === 'protected');
}

/** Where each path of the call's input is, in order. */
function placesIn(request: NewPermissionRequest, context: PathContext): Array<PathPlace & { path: string }> {
  return pathsIn(inputOf(request)).map((path) => ({ path, ...placeOf(path, context) }));
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

/** A path shown in a rule: relative to the first workspace folder when inside it, else absolute, with the middle cut when long. */
function shownPath(resolved: string, context: PathContext): string {
  const root = realWorkspaceFolders(context)[0];
  const inFirst = root !== undefined && isUnderFolder(resolved, root, context);
  const text = inFirst ? resolved.slice(root.length).replace(/^\//, '') || '.' : resolved;
  return text.length <= 60 ? text : `${text.slice(0, 24)}…${text.slice(-35)}`;
}

const OUTSIDE = ' (outside the workspace)';

/**
 * The rules a prompt offers for a request, the narrowest first; none when no rule may cover it.
 * Path rules name the resolved path (folded, through symlinks) and store it: `file:<path>`,
 * `dir:<folder>/`, or `workspace` when every path is really inside. A path that cannot be placed
 * offers no path rule; a call with any path never offers "every call".
 */
export function rememberOptionsFor(
  request: NewPermissionRequest,
  checker: CommandChecker | undefined,
  where: readonly string[] | PathContext,
  files?: WorkspaceFiles,
  /** A command line already analysed and decided, so it is not read again. */
  read?: { analysis: LineAnalysis; decision: CommandDecision },
): RuleOption[] {
  const context = toPathContext(where);
  const call = request.toolCall;
  if (!call) {
    if (!request.permissionKey) return [];
    return [
      {
        key: `${API}${request.source.label}\n${request.permissionKey}`,
        label: request.permissionKey,
        description: `Requests from ${request.source.label} for "${request.permissionKey}"`,
      },
    ];
  }
  if (neverRemembered(request, context)) return [];
  if (call.command !== undefined) {
    if (!checker) return [];
    const analysis = read?.analysis ?? checker.analyse(call.command, checker.parse(call.command), { ...commandPlaces(context), ...(files ? { files } : {}) });
    return checker
      .offer(analysis, read?.decision ?? checker.decide(analysis, {}))
      .map((rule) => ({ key: `${COMMAND}${rule.key}`, value: rule.value, label: rule.label, description: rule.description }));
  }
  const places = placesIn(request, context);
  if (places.length === 0) {
    const exact = JSON.stringify(inputOf(request));
    return [
      { key: `${TOOL}${call.tool}\ninput:${exact}`, label: `${call.tool} ${shortText(exact)}`, description: `${call.tool} with exactly this input` },
      { key: `${TOOL}${call.tool}`, label: call.tool, description: `Every ${call.tool} call (it names no file or folder)` },
    ];
  }
  if (places.some((p) => !p.resolved)) return [];
  const options: RuleOption[] = [];
  const outside = (p: PathPlace) => (p.place === 'outside' ? OUTSIDE : '');
  if (places.length === 1) {
    const only = places[0]!;
    options.push({
      key: `${TOOL}${call.tool}\nfile:${only.resolved}`,
      label: `${call.tool} ${shownPath(only.resolved, context)}${outside(only)}`,
      description: `${call.tool} on ${only.resolved} only${outside(only)}`,
    });
  }
  const folders = [...new Set(places.map((p) => folderOf(p.resolved)))];
  if (folders.length === 1 && !places.some((p) => /[*?[\]{}]/.test(p.resolved))) {
    const folder = folders[0]!;
    const anyOutside = places.some((p) => p.place === 'outside') ? OUTSIDE : '';
    const shown = shownPath(folder.replace(/\/$/, '') || '/', context);
    options.push({
      key: `${TOOL}${call.tool}\ndir:${folder}`,
      label: `${call.tool} ${shown === '.' ? './' : `${shown}/`.replace(/\/\/$/, '/')}…${anyOutside}`,
      description: `${call.tool} on anything in ${folder}${anyOutside}`,
    });
  }
  if (places.every((p) => p.place === 'workspace'))
    options.push({ key: `${TOOL}${call.tool}\nworkspace`, label: `${call.tool} in the workspace`, description: `${call.tool} on anything inside the workspace folders` });
  return options;
}

/**
 * Whether a remembered tool or API rule matches this request (command rules: see commandRules.ts).
 * Path rules compare real paths: every path of the call must resolve to the rule's file, into its
 * folder, or into the workspace. A stored path is compared as stored (never resolved again, so a
 * symlink made later cannot widen it); keys of earlier builds that hold a relative path never match.
 */
export function ruleMatches(key: string, request: NewPermissionRequest, where: readonly string[] | PathContext): boolean {
  const context = toPathContext(where);
  const call = request.toolCall;
  if (!call) return request.permissionKey !== undefined && key === `${API}${request.source.label}\n${request.permissionKey}`;
  if (call.command !== undefined || !key.startsWith(`${TOOL}${call.tool}`) || neverRemembered(request, context)) return false;
  const scope = key.slice(`${TOOL}${call.tool}`.length);
  const places = placesIn(request, context);
  if (scope === '') return places.length === 0;
  if (scope.startsWith('\ninput:')) return places.length === 0 && scope.slice('\ninput:'.length) === JSON.stringify(inputOf(request));
  if (places.length === 0 || places.some((p) => !p.resolved)) return false;
  if (scope.startsWith('\nfile:')) {
    const file = scope.slice('\nfile:'.length);
    return normalizePath(file) === file && places.every((p) => samePath(p.resolved, file, context));
  }
  if (scope.startsWith('\ndir:')) {
    const folder = scope.slice('\ndir:'.length);
    const absolute = normalizePath(folder);
    return (
      absolute !== '' &&
      folder.replace(/\/+$/, '') === absolute.replace(/\/+$/, '') &&
      places.every((p) => !/[*?[\]{}]/.test(p.resolved) && isUnderFolder(p.resolved, absolute, context))
    );
  }
  if (scope === '\nworkspace') return places.every((p) => p.place === 'workspace');
  return false;
}
