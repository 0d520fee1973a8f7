// Claude Code's own grants, read from the texts of its settings files: `permissions.allow`, `deny`
// and `ask`, and a `defaultMode` that skips its prompts. Claude Code decides these before a call
// reaches us, so they belong beside our rules. Pure: the caller reads the files; a file that cannot
// be read as settings gives a problem for that file, never a throw.
import { isObject, jsonObject, readEachFile, type AgentGrant, type GrantFile, type GrantFileProblem } from './agentGrant';

/** Where a Claude Code settings file applies: ~/.claude/settings.json, .claude/settings.json, .claude/settings.local.json. */
export type ClaudeCodeScope = 'user' | 'project' | 'local';

/** One settings file as the caller found it: `text` undefined when there is no such file. */
export type ClaudeCodeSettingsFile = GrantFile<ClaudeCodeScope>;

export type ClaudeCodeGrant = AgentGrant & { agent: 'Claude Code'; scope: ClaudeCodeScope };

const LISTS = ['allow', 'deny', 'ask'] as const;
/** Modes in which Claude Code runs calls without its own prompt (the others only ask or refuse). */
const GRANTING_MODES = new Set(['acceptEdits', 'bypassPermissions']);

/** The grants in each file, in file order, and what kept a file from being read. */
export function readClaudeCodeGrants(files: readonly ClaudeCodeSettingsFile[]): { grants: ClaudeCodeGrant[]; problems: GrantFileProblem[] } {
  return readEachFile('Claude Code', files, (file, problem) => {
    const settings = jsonObject(file.text, problem, 'Claude Code may ignore the file');
    const permissions = settings?.['permissions'];
    if (permissions === undefined) return [];
    if (!isObject(permissions)) {
      problem('`permissions` is not an object: its grants are not shown');
      return [];
    }
    const grants: Array<Pick<ClaudeCodeGrant, 'list' | 'key' | 'rule'>> = [];
    for (const list of LISTS) {
      const rules = permissions[list];
      if (rules === undefined) continue;
      if (!Array.isArray(rules)) {
        problem(`\`permissions.${list}\` is not a list: its rules are not shown`);
        continue;
      }
      for (const rule of rules) {
        if (typeof rule === 'string') grants.push({ list, key: `permissions.${list}`, rule });
        else problem(`\`permissions.${list}\` holds ${JSON.stringify(rule) ?? String(rule)}, not a rule text: not shown`);
      }
    }
    const mode = permissions['defaultMode'];
    if (typeof mode === 'string' && GRANTING_MODES.has(mode)) grants.push({ list: 'defaultMode', key: 'permissions.defaultMode', rule: mode });
    return grants;
  });
}
