// VS Code's own grants for its agent, read from the values of its settings at user and workspace
// level (the caller inspects them): `chat.tools.terminal.autoApprove` (a command prefix, or a
// `/regex/`, to true, false or `{ approve, matchCommandLine }`), `chat.tools.edits.autoApprove` (a
// glob to true or false) and `chat.tools.global.autoApprove` (every tool call without asking).
// Pure: a value of another shape gives a problem, never a throw.
import { isObject, type AgentGrant, type GrantFileProblem } from './agentGrant';

export const TERMINAL_AUTO_APPROVE = 'chat.tools.terminal.autoApprove';
export const EDITS_AUTO_APPROVE = 'chat.tools.edits.autoApprove';
export const GLOBAL_AUTO_APPROVE = 'chat.tools.global.autoApprove';
export const VS_CODE_GRANT_SETTINGS = [TERMINAL_AUTO_APPROVE, EDITS_AUTO_APPROVE, GLOBAL_AUTO_APPROVE] as const;

export type VsCodeScope = 'user' | 'workspace';

/** The settings as set at one level (not VS Code's defaults), and the file that holds them. */
export interface VsCodeSettings {
  path: string;
  scope: VsCodeScope;
  values: Partial<Record<(typeof VS_CODE_GRANT_SETTINGS)[number], unknown>>;
}

export type VsCodeGrant = AgentGrant & {
  agent: 'VS Code';
  scope: VsCodeScope;
  /** A terminal rule matched against the whole command line, not each command in it. */
  matchCommandLine?: boolean;
};

export function readVsCodeGrants(levels: readonly VsCodeSettings[]): { grants: VsCodeGrant[]; problems: GrantFileProblem[] } {
  const grants: VsCodeGrant[] = [];
  const problems: GrantFileProblem[] = [];
  for (const { path, scope, values } of levels) {
    const where = { agent: 'VS Code' as const, file: path, scope };
    const problem = (key: string, value: unknown) =>
      problems.push({
        agent: 'VS Code',
        file: path,
        scope,
        problem: `\`${key}\` holds ${JSON.stringify(value) ?? String(value)}, which VS Code does not read as a grant: not shown`,
      });
    const global = values[GLOBAL_AUTO_APPROVE];
    if (global === true) grants.push({ ...where, list: 'defaultMode', key: GLOBAL_AUTO_APPROVE, rule: 'true' });
    else if (global !== undefined && global !== false) problem(GLOBAL_AUTO_APPROVE, global);
    for (const key of [TERMINAL_AUTO_APPROVE, EDITS_AUTO_APPROVE] as const) {
      const rules = values[key];
      if (rules === undefined || rules === null) continue;
      if (!isObject(rules)) {
        problem(key, rules);
        continue;
      }
      for (const [rule, value] of Object.entries(rules)) {
        const approve = isObject(value) ? value['approve'] : value;
        // null removes a default rule: it grants nothing.
        if (approve === null) continue;
        if (typeof approve !== 'boolean') {
          problem(`${key}.${rule}`, value);
          continue;
        }
        const wholeLine = key === TERMINAL_AUTO_APPROVE && isObject(value) && value['matchCommandLine'] === true;
        grants.push({ ...where, list: approve ? 'allow' : 'ask', key, rule, ...(wholeLine ? { matchCommandLine: true } : {}) });
      }
    }
  }
  return { grants, problems };
}
