// OpenCode's own grants, read from the texts of its configuration files (opencode.json or
// opencode.jsonc: the user's in ~/.config/opencode/, a project's at its top or in .opencode/):
// `permission` as one action for every tool, or per tool an action or a map of patterns to actions
// (`"bash": { "npm *": "allow" }`, the last matching pattern wins), also under `agent.<name>.permission`.
// Pure: the caller reads the files; a file that cannot be read gives a problem for that file, never a throw.
import { isObject, jsonObject, readEachFile, type AgentGrant, type GrantFile, type GrantFileProblem } from './agentGrant';

export type OpenCodeScope = 'user' | 'project';
export type OpenCodeFile = GrantFile<OpenCodeScope>;

export type OpenCodeGrant = AgentGrant & {
  agent: 'OpenCode';
  scope: OpenCodeScope;
  /** The permission's tool (`bash`, `edit` …), `*` for every tool. */
  tool: string;
  /** The pattern the action is for; absent when it is for every call of the tool. */
  pattern?: string;
};

const ACTIONS: Readonly<Record<string, OpenCodeGrant['list']>> = { allow: 'allow', ask: 'ask', deny: 'deny' };

export function readOpenCodeGrants(files: readonly OpenCodeFile[]): { grants: OpenCodeGrant[]; problems: GrantFileProblem[] } {
  return readEachFile('OpenCode', files, (file, problem) => {
    const config = jsonObject(withoutComments(file.text), problem, 'OpenCode may refuse to start with it');
    if (!config) return [];
    const agents = isObject(config['agent'])
      ? Object.entries(config['agent']).map(([name, agent]) => [`agent.${name}.permission`, isObject(agent) ? agent['permission'] : undefined] as const)
      : [];
    return [['permission', config['permission']] as const, ...agents].flatMap(([key, permission]) =>
      permission === undefined
        ? []
        : permissionGrants(key, permission).flatMap((found) => {
            if (typeof found !== 'string') return [found];
            problem(found);
            return [];
          }),
    );
  });
}

/** The grants of one `permission` value, or for what is not an action, the problem to show. */
function permissionGrants(key: string, permission: unknown): Array<Pick<OpenCodeGrant, 'list' | 'key' | 'rule' | 'tool' | 'pattern'> | string> {
  const action = (where: string, value: unknown, written: string, tool: string, pattern?: string) => {
    const rule = `${JSON.stringify(written)}: ${JSON.stringify(value)}`;
    const list = typeof value === 'string' ? ACTIONS[value] : undefined;
    return list ? { list, key: where, rule, tool, ...(pattern !== undefined ? { pattern } : {}) } : `\`${where}\` holds ${rule}: not an action (allow, ask, deny), not shown`;
  };
  if (!isObject(permission)) return [action(key, permission, key, '*')];
  return Object.entries(permission).flatMap(([tool, value]) =>
    isObject(value) ? Object.entries(value).map(([pattern, inner]) => action(`${key}.${tool}`, inner, pattern, tool, pattern)) : [action(`${key}.${tool}`, value, tool, tool)],
  );
}

/** JSONC as OpenCode reads it: comments and trailing commas dropped, strings left whole. */
export function withoutComments(text: string): string {
  return text
    .replace(/"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (part) => (part.startsWith('"') ? part : ''))
    .replace(/"(?:[^"\\]|\\.)*"|,(\s*[}\]])/g, (part, close: string | undefined) => close ?? part);
}
