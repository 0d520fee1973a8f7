// Claude Code's own grants, read from the texts of its settings files: `permissions.allow`, `deny`
// and `ask`, and a `defaultMode` that skips its prompts. Claude Code decides these before a call
// reaches us, so they belong beside our rules. Pure: the caller reads the files; a file that cannot
// be read as settings gives a problem for that file, never a throw.

/** Where a Claude Code settings file applies: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json. */
export type ClaudeCodeScope = 'user' | 'project' | 'local';

/** One settings file as the caller found it: `text` undefined when there is no such file. */
export interface ClaudeCodeSettingsFile {
  path: string;
  scope: ClaudeCodeScope;
  /** The workspace folder a project or local file belongs to (relative rule paths are against it). */
  folder?: string;
  text: string | undefined;
}

export interface ClaudeCodeGrant {
  file: string;
  scope: ClaudeCodeScope;
  folder?: string;
  /** Which list it is in; `defaultMode` for a mode that skips Claude Code's prompts. */
  list: 'allow' | 'deny' | 'ask' | 'defaultMode';
  /** The rule as written in the file. */
  rule: string;
}

export interface GrantFileProblem {
  file: string;
  scope: ClaudeCodeScope;
  problem: string;
}

const LISTS = ['allow', 'deny', 'ask'] as const;
/** Modes in which Claude Code runs calls without its own prompt (the others only ask or refuse). */
const GRANTING_MODES = new Set(['acceptEdits', 'bypassPermissions']);

/** The grants in each file, in file order, and what kept a file from being read. */
export function readClaudeCodeGrants(files: readonly ClaudeCodeSettingsFile[]): { grants: ClaudeCodeGrant[]; problems: GrantFileProblem[] } {
  const grants: ClaudeCodeGrant[] = [];
  const problems: GrantFileProblem[] = [];
  for (const file of files) {
    if (file.text === undefined || file.text.trim() === '') continue;
    const where = { file: file.path, scope: file.scope, ...(file.folder !== undefined ? { folder: file.folder } : {}) };
    const problem = (text: string) => problems.push({ file: file.path, scope: file.scope, problem: text });
    let settings: unknown;
    try {
      settings = JSON.parse(file.text);
    } catch (error) {
      problem(`not valid JSON (${error instanceof Error ? error.message : String(error)}): Claude Code may ignore the file; its grants are not shown`);
      continue;
    }
    if (!isObject(settings)) {
      problem('not a JSON object: its grants are not shown');
      continue;
    }
    const permissions = settings['permissions'];
    if (permissions === undefined) continue;
    if (!isObject(permissions)) {
      problem('`permissions` is not an object: its grants are not shown');
      continue;
    }
    for (const list of LISTS) {
      const rules = permissions[list];
      if (rules === undefined) continue;
      if (!Array.isArray(rules)) {
        problem(`\`permissions.${list}\` is not a list: its rules are not shown`);
        continue;
      }
      for (const rule of rules) {
        if (typeof rule === 'string') grants.push({ ...where, list, rule });
        else problem(`\`permissions.${list}\` holds ${JSON.stringify(rule) ?? String(rule)}, not a rule text: not shown`);
      }
    }
    const mode = permissions['defaultMode'];
    if (typeof mode === 'string' && GRANTING_MODES.has(mode)) grants.push({ ...where, list: 'defaultMode', rule: mode });
  }
  return { grants, problems };
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
