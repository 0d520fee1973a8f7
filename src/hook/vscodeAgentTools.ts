// What the hook for VS Code's own agent does with each tool call, by the tool's model-facing name,
// in both harnesses: the "Local" one (Copilot Chat's own loop: snake_case input, VS Code's tool names)
// and the "Copilot" one (Agent Host) or Copilot CLI (camelCase input, Copilot CLI's tool names).
// An allowlist: read-only tools are allowed at once when every path they name is in the folder the
// agent works in; shell commands and edits go to our `approve` tool as a CLI agent's Bash, Write
// and Edit calls (so our rules, protected files and Queue apply); anything else gets no decision.
import { isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isObject } from './isObject';

export type Harness = 'local' | 'copilot';

export interface AgentToolCall {
  harness: Harness;
  tool: string;
  args: Record<string, unknown>;
  /** The folder the agent works in (absolute), '' when its input says none. */
  cwd: string;
}

export type Plan =
  | { kind: 'allow' }
  | { kind: 'none' }
  /** Hand back to VS Code's own confirmation, with the reason. */
  | { kind: 'ask'; reason: string }
  | { kind: 'approve'; toolName: 'Bash' | 'Write' | 'Edit'; input: Record<string, unknown> };

/** The tool call in a PreToolUse hook input of either harness, or undefined when it is neither. */
export function readToolCall(input: unknown): AgentToolCall | undefined {
  if (!isObject(input)) return undefined;
  const cwd = typeof input['cwd'] === 'string' && isAbsolute(input['cwd']) ? input['cwd'] : '';
  if (input['hook_event_name'] === 'PreToolUse' && typeof input['tool_name'] === 'string' && isObject(input['tool_input']))
    return { harness: 'local', tool: input['tool_name'], args: input['tool_input'], cwd };
  if (typeof input['toolName'] === 'string' && 'toolArgs' in input) {
    // The Agent Host passes an object; Copilot CLI's file hooks a JSON string.
    let args: unknown = input['toolArgs'];
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        return undefined;
      }
    }
    return isObject(args) ? { harness: 'copilot', tool: input['toolName'], args, cwd } : undefined;
  }
  return undefined;
}

/** Tools that only read (the workspace, VS Code's state, a terminal's output) or ask the user. */
const READ_ONLY = new Set([
  // Ours.
  'ask_user',
  'get_answers',
  // VS Code's agent (Copilot Chat 0.67).
  'read_file',
  'list_dir',
  'file_search',
  'grep_search',
  'semantic_search',
  'search_workspace_symbols',
  'get_errors',
  'get_changed_files',
  'read_project_structure',
  'view_image',
  'test_search',
  'testFailure',
  'get_vscode_api',
  'get_terminal_output',
  'terminal_last_command',
  'terminal_selection',
  'get_task_output',
  'copilot_getNotebookSummary',
  'read_notebook_cell_output',
  'manage_todo_list',
  'tool_search',
  // The Copilot harness and Copilot CLI.
  'view',
  'grep',
  'rg',
  'glob',
  'read_bash',
  'read_powershell',
  'report_intent',
]);

/** Keys that name a file or folder in read-only tools' inputs. */
const PATH_KEY = /path|file|dir|folder|uri/i;

/** Every string under a path-like key, at any depth (arrays included). */
function namedPaths(value: unknown, key = '', depth = 0, found: string[] = []): string[] {
  if (depth > 8) found.push('\0too deep');
  else if (typeof value === 'string') {
    if (PATH_KEY.test(key)) found.push(value);
  } else if (Array.isArray(value)) for (const item of value) namedPaths(item, key, depth + 1, found);
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) namedPaths(v, k, depth + 1, found);
  return found;
}

/** Whether a path, as a tool names it, is inside `folder` (by its text: `..` and `file:` folded, symlinks not followed). */
function inside(path: string, folder: string): boolean {
  if (!folder || path.includes('\0')) return false;
  let text = path;
  if (/^file:/i.test(text)) {
    try {
      text = fileURLToPath(text);
    } catch {
      return false;
    }
  } else if (/^[a-z][a-z0-9+.-]+:/i.test(text) || text.startsWith('~')) return false;
  const rel = relative(folder, resolve(folder, text));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The files a patch in the `*** Begin Patch` format names (Add, Update, Delete, Move to). */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/gm)].map((m) => m[1]!.trim());
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const defined = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

function patchPlan(patch: unknown): Plan {
  const files = typeof patch === 'string' ? patchFiles(patch) : [];
  if (!files.length) return { kind: 'ask', reason: 'Agent Questions cannot tell which files this patch changes.' };
  return { kind: 'approve', toolName: 'Edit', input: { file_paths: files, patch } };
}

function commandPlan(command: unknown, description: unknown, background: boolean): Plan {
  if (typeof command !== 'string' || !command) return { kind: 'ask', reason: 'Agent Questions cannot read the command line of this call.' };
  return { kind: 'approve', toolName: 'Bash', input: defined({ command, description: text(description), run_in_background: background || undefined }) };
}

function localPlan(tool: string, a: Record<string, unknown>): Plan | undefined {
  switch (tool) {
    case 'run_in_terminal':
      return commandPlan(a['command'], a['explanation'], a['mode'] === 'async');
    case 'send_to_terminal':
      return commandPlan(a['command'], a['explanation'], false);
    case 'create_file':
      return { kind: 'approve', toolName: 'Write', input: defined({ file_path: a['filePath'], content: a['content'] }) };
    case 'create_directory':
      return { kind: 'approve', toolName: 'Write', input: defined({ dir_path: a['dirPath'] }) };
    case 'replace_string_in_file':
      return { kind: 'approve', toolName: 'Edit', input: defined({ file_path: a['filePath'], old_string: a['oldString'], new_string: a['newString'] }) };
    case 'insert_edit_into_file':
      return { kind: 'approve', toolName: 'Edit', input: defined({ file_path: a['filePath'], code: a['code'] }) };
    case 'multi_replace_string_in_file': {
      const replacements = Array.isArray(a['replacements']) ? a['replacements'] : [];
      const edits = replacements.map((r) => (isObject(r) ? defined({ file_path: r['filePath'], old_string: r['oldString'], new_string: r['newString'] }) : {}));
      return { kind: 'approve', toolName: 'Edit', input: { edits } };
    }
    case 'apply_patch':
      return patchPlan(a['input']);
    default:
      return undefined;
  }
}

function copilotPlan(tool: string, a: Record<string, unknown>): Plan | undefined {
  switch (tool) {
    case 'bash':
      return commandPlan(a['command'], a['description'], a['mode'] === 'async');
    case 'powershell':
    case 'write_bash':
    case 'write_powershell':
      return { kind: 'ask', reason: 'Agent Questions checks bash command lines only; confirm this one here.' };
    case 'create':
      return { kind: 'approve', toolName: 'Write', input: defined({ file_path: a['path'], content: a['file_text'] }) };
    case 'edit':
    case 'str_replace':
      return { kind: 'approve', toolName: 'Edit', input: defined({ file_path: a['path'], old_string: a['old_str'], new_string: a['new_str'] }) };
    case 'insert':
      return { kind: 'approve', toolName: 'Edit', input: defined({ file_path: a['path'], new_string: a['new_str'], insert_line: a['insert_line'] }) };
    case 'apply_patch':
    case 'git_apply_patch':
      return patchPlan(a['input'] ?? a['patch']);
    case 'str_replace_editor':
      return a['command'] === 'view' ? undefined : copilotPlan(a['command'] === 'create' ? 'create' : a['command'] === 'insert' ? 'insert' : 'edit', a);
    default:
      return undefined;
  }
}

/** What the hook does with a tool call. */
export function planFor(call: AgentToolCall): Plan {
  const { tool, args } = call;
  const viewing = call.harness === 'copilot' && tool === 'str_replace_editor' && args['command'] === 'view';
  if (READ_ONLY.has(tool) || viewing) return namedPaths(args).every((p) => inside(p, call.cwd)) ? { kind: 'allow' } : { kind: 'none' };
  const plan = call.harness === 'local' ? localPlan(tool, args) : copilotPlan(tool, args);
  if (plan?.kind === 'approve' && plan.toolName !== 'Bash' && namedPaths(plan.input).length === 0)
    return { kind: 'ask', reason: 'Agent Questions cannot tell which file this edit changes.' };
  return plan ?? { kind: 'none' };
}

/** The answer in the shape the harness reads; '' is no decision. */
export function answerText(harness: Harness, decision: 'allow' | 'deny' | 'ask', reason?: string): string {
  const fields = { permissionDecision: decision, ...(reason !== undefined ? { permissionDecisionReason: reason } : {}) };
  return `${JSON.stringify(harness === 'local' ? { hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } } : fields)}\n`;
}
