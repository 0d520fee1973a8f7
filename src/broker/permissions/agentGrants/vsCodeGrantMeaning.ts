// What each of VS Code's own grants lets through, in our words (grantMeaning.ts). They decide VS
// Code's own agent's calls before ours: a terminal rule `"npm test": true` auto-approves every
// command that starts with those words (VS Code matches `^npm test\b`), in a terminal with no sandbox.
// Pure: no `vscode` import.
import type { CommandChecker } from '../permissionRules';
import type { PathContext } from '../toolPaths';
import type { AgentLedger, GrantMeaning } from './agentGrant';
import { code, notUnderstood, pathMeaning, prefixMeaning } from './grantMeaning';
import { EDITS_AUTO_APPROVE, readVsCodeGrants, type VsCodeGrant, type VsCodeSettings } from './vsCodeGrants';

export function vsCodeLedger(levels: readonly VsCodeSettings[], checker: CommandChecker | undefined, context: PathContext): AgentLedger {
  const { grants, problems } = readVsCodeGrants(levels);
  return { grants: grants.map((grant) => ({ ...grant, ...vsCodeGrantMeaning(grant, checker, context) })), problems };
}

export function vsCodeGrantMeaning(grant: VsCodeGrant, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  if (grant.list === 'defaultMode') return { meaning: "every tool call of VS Code's agent without asking", broader: 'our rules never allow every call' };
  const isEdit = grant.key === EDITS_AUTO_APPROVE;
  if (grant.list === 'ask') return { meaning: `VS Code's agent asks for ${isEdit ? 'edits of ' : ''}${code(grant.rule)} in its own prompt` };
  if (isEdit) return pathMeaning(grant.rule, 'editing', grant.rule, grant.rule, context);
  // A `/…/` key is a regular expression: what it matches is not judged here.
  if (/^\/.*\/[a-z]*$/s.test(grant.rule) || grant.rule.trim() === '') return notUnderstood(grant.rule);
  const prefix = prefixMeaning(grant.rule.trim(), checker, context);
  const wholeLine = grant.matchCommandLine ? ', and whatever is chained after it on the same line' : '';
  return { meaning: `${prefix.meaning}${wholeLine}: run in VS Code's agent's terminal without asking`, ...(prefix.broader ? { broader: prefix.broader } : {}) };
}
