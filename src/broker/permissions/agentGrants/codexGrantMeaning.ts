// What each of Codex's own grants lets through, in our words (grantMeaning.ts). A prefix rule that
// allows lets every command starting with its tokens run without asking and outside Codex's
// sandbox (Codex bypasses its sandbox for a command its rules allow), so it is judged as a prefix.
// Pure: no `vscode` import.
import type { CommandChecker } from '../permissionRules';
import type { PathContext } from '../toolPaths';
import type { AgentLedger, GrantMeaning } from './agentGrant';
import { readCodexGrants, type CodexFile, type CodexGrant } from './codexGrants';
import { code, notUnderstood, prefixMeaning } from './grantMeaning';

/** More alternatives than this in one rule are not spelled out: marked instead. */
const MOST_ALTERNATIVES = 8;

export function codexLedger(files: readonly CodexFile[], checker: CommandChecker | undefined, context: PathContext): AgentLedger {
  const { grants, problems } = readCodexGrants(files);
  return { grants: grants.map((grant) => ({ ...grant, ...codexGrantMeaning(grant, checker, { ...context, ...(grant.folder ? { folder: grant.folder } : {}) }) })), problems };
}

export function codexGrantMeaning(grant: CodexGrant, checker: CommandChecker | undefined, context: PathContext): GrantMeaning {
  if (grant.list === 'defaultMode') return modeMeaning(grant);
  if (!grant.pattern) return notUnderstood(grant.rule);
  const prefixes = alternatives(grant.pattern);
  if (prefixes.length > MOST_ALTERNATIVES) return notUnderstood(grant.rule);
  const said = prefixes.map(code).join(' or ');
  if (grant.list === 'deny') return { meaning: `Codex refuses any command that starts with ${said} itself` };
  if (grant.list === 'ask') return { meaning: `Codex asks for any command that starts with ${said} in its own prompt` };
  const meanings = prefixes.map((prefix) => prefixMeaning(prefix, checker, context));
  return {
    meaning: `${meanings.map((m) => m.meaning).join('; ')}: run without asking and outside Codex's sandbox`,
    ...(meanings.find((m) => m.broader) ? { broader: meanings.find((m) => m.broader)!.broader! } : {}),
  };
}

/** Every command prefix the tokens spell, each token shell-quoted when it needs it. */
function alternatives(pattern: readonly string[][]): string[] {
  return pattern.reduce<string[]>(
    (prefixes, token) => prefixes.flatMap((prefix) => token.map((word) => `${prefix}${prefix ? ' ' : ''}${quoted(word)}`)).slice(0, MOST_ALTERNATIVES + 1),
    [''],
  );
}

const quoted = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function modeMeaning(grant: CodexGrant): GrantMeaning {
  const { approvalPolicy: approval, sandboxMode: sandbox } = grant;
  const isApproval = grant.key.endsWith('approval_policy');
  if ((isApproval ? approval : sandbox) === undefined) return notUnderstood(grant.rule);
  if (approval === 'never' && sandbox === 'danger-full-access')
    return {
      meaning: 'every command without asking, with no sandbox (approval_policy "never" with sandbox_mode "danger-full-access")',
      broader: 'our rules never allow every command',
    };
  if (isApproval) return { meaning: `Codex never asks: commands run only inside its sandbox${sandbox ? ` (${sandbox})` : ''}, and what the sandbox refuses fails` };
  if (approval === 'untrusted') return { meaning: 'commands run with no sandbox, but Codex asks for every command it does not know to be read-only' };
  return {
    meaning: `commands run with no sandbox; Codex asks only for those it judges dangerous (approval_policy ${approval ? `"${approval}"` : 'not set here'})`,
    broader: 'our rules ask for every command they cannot show harmless, and Codex runs them unconfined without asking',
  };
}
