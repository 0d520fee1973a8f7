// What every agent's own grant looks like in the ledger, whichever agent's file it was read from:
// the agent, its file and scope, where in the file, the rule as written. Pure: no `vscode` import.

/** The agents whose own stores decide calls before ours (named as their makers name them). */
export type GrantAgent = 'Claude Code' | 'Codex' | 'OpenCode' | 'VS Code';

/** Where a store applies: the user's, a project's shared file, a project's local one, VS Code's workspace settings. */
export type GrantScope = 'user' | 'project' | 'local' | 'workspace';

/** One store file as the caller found it: `text` undefined when there is no such file. */
export interface GrantFile<Scope extends GrantScope = GrantScope> {
  path: string;
  scope: Scope;
  /** The workspace folder a project file belongs to (relative paths in it are against it). */
  folder?: string;
  text: string | undefined;
}

export interface AgentGrant {
  agent: GrantAgent;
  file: string;
  scope: GrantScope;
  folder?: string;
  /** What it does: lets through, refuses, asks; `defaultMode` for a mode that skips the agent's prompts. */
  list: 'allow' | 'deny' | 'ask' | 'defaultMode';
  /** Where it is in its file, by the file's own key (`permissions.allow`, `prefix_rule`, `permission.bash` …). */
  key: string;
  /** The rule as written in the file. */
  rule: string;
}

export interface GrantFileProblem {
  agent: GrantAgent;
  file: string;
  scope: GrantScope;
  problem: string;
}

export interface GrantMeaning {
  /** What the grant lets through, in our words. */
  meaning: string;
  /** Why it lets through what our rules would ask; absent when shown no broader, or not ours to judge. */
  broader?: string;
}

export type TranslatedGrant = AgentGrant & GrantMeaning;

export interface AgentLedger {
  grants: TranslatedGrant[];
  problems: GrantFileProblem[];
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a grant was read: its agent, file, scope and folder. */
export type GrantPlace<Agent extends GrantAgent, Scope extends GrantScope> = { agent: Agent; file: string; scope: Scope; folder?: string };

/**
 * Each file's grants in file order, with where each was read, and what kept a file from being read:
 * `read` gives a file's grants and reports its problems; files with no text are skipped.
 */
export function readEachFile<Agent extends GrantAgent, Scope extends GrantScope, File extends GrantFile<Scope>, Grant>(
  agent: Agent,
  files: readonly File[],
  read: (file: File & { text: string }, problem: (text: string) => void) => Grant[],
): { grants: Array<GrantPlace<Agent, Scope> & Grant>; problems: GrantFileProblem[] } {
  const problems: GrantFileProblem[] = [];
  const grants = files.flatMap((file) => {
    if (file.text === undefined || file.text.trim() === '') return [];
    const where = { agent, file: file.path, scope: file.scope, ...(file.folder !== undefined ? { folder: file.folder } : {}) };
    return read(file as File & { text: string }, (problem) => problems.push({ agent, file: file.path, scope: file.scope, problem })).map((grant) => ({ ...where, ...grant }));
  });
  return { grants, problems };
}

/** The text as a JSON object, or undefined with the problem reported (`consequence`: what the agent does with such a file). */
export function jsonObject(text: string, problem: (text: string) => void, consequence: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problem(`not valid JSON (${error instanceof Error ? error.message : String(error)}): ${consequence}; its grants are not shown`);
    return undefined;
  }
  if (!isObject(value)) problem('not a JSON object: its grants are not shown');
  return isObject(value) ? value : undefined;
}
