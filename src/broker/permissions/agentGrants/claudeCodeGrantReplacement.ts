// Replacing a Claude Code grant that is broader than our rules: the grant leaves its settings file
// (so Claude Code asks again, and through its hook the request comes to us), and the narrower rule
// we would have offered for what it was meant for is kept by us instead: Claude Code's rule format
// cannot say "only the options and paths it knows", ours can. Pure: the caller reads and writes the file.
import type { CommandChecker, RuleOption } from '../permissionRules';
import { commandPlaces } from '../agentFolder';
import { COMMAND } from '../permissionRules';
import { KNOWN_TOOLS, knownPrefixFor } from '../shell/knownTools';
import type { PathContext } from '../toolPaths';
import { isObject } from './agentGrant';
import type { ClaudeCodeGrant } from './claudeCodeGrants';
import { wordPrefixOf } from './grantMeaning';

export interface GrantReplacement {
  /** The settings file's text now, and with the grant taken out: the preview shows both. */
  before: string;
  after: string;
  /** Our rules for what the grant was meant for, narrowest first; empty when none fits (an exact command, a mode, a file). */
  narrower: RuleOption[];
}

/** At most this many narrower rules are offered for a tool's whole prefix (`npm:*` → «npm test …», «npm run …» …). */
const MAX_NARROWER = 6;

/** The edit that takes `grant` out of its file's text, and what we would keep instead; a problem when the text no longer holds it. */
export function claudeCodeGrantReplacement(
  grant: ClaudeCodeGrant,
  text: string,
  checker: CommandChecker | undefined,
  context: PathContext,
): GrantReplacement | { problem: string } {
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch {
    return { problem: `${grant.file} is no longer valid JSON: edit it by hand` };
  }
  const permissions = isObject(settings) ? settings['permissions'] : undefined;
  if (!isObject(permissions)) return { problem: `${grant.file} no longer holds \`permissions\`` };
  if (grant.list === 'defaultMode') {
    if (permissions['defaultMode'] !== grant.rule) return { problem: `${grant.file} no longer sets \`defaultMode\` to ${grant.rule}` };
    delete permissions['defaultMode'];
  } else {
    const rules = permissions[grant.list];
    if (!Array.isArray(rules) || !rules.includes(grant.rule)) return { problem: `${grant.file} no longer holds ${grant.rule} in \`permissions.${grant.list}\`` };
    permissions[grant.list] = rules.filter((rule) => rule !== grant.rule);
  }
  const after = `${JSON.stringify(settings, null, indentOf(text))}${text.endsWith('\n') ? '\n' : ''}`;
  return { before: text, after, narrower: grant.list === 'allow' ? narrowerRules(grant.rule, checker, context) : [] };
}

/** For `Bash(<prefix>:*)`: our prefix rule for the prefix, or for the tools it starts (for a whole `npm`, «npm test …», «npm run …» …). */
function narrowerRules(rule: string, checker: CommandChecker | undefined, context: PathContext): RuleOption[] {
  const specifier = /^Bash\((.*)\)$/s.exec(rule.trim())?.[1];
  const prefix = specifier === undefined ? undefined : wordPrefixOf(specifier, true);
  if (!checker || !prefix || prefix.includes('*')) return [];
  const lines = knownPrefixFor(prefix.split(/\s+/)) === prefix ? [prefix] : Object.keys(KNOWN_TOOLS).filter((key) => key.startsWith(`${prefix} `));
  return lines.slice(0, MAX_NARROWER).flatMap((line) => {
    const analysis = checker.analyse(line, checker.parse(line), commandPlaces(context));
    const offered = checker.offer(analysis, checker.decide(analysis, {})).find((o) => o.kind === 'prefix');
    return offered ? [{ key: `${COMMAND}${offered.key}`, value: offered.value, label: offered.label, description: offered.description }] : [];
  });
}

/** The file's own indentation (Claude Code writes two spaces), so the edit changes only the grant's line. */
function indentOf(text: string): string | number {
  const first = /\n([ \t]+)\S/.exec(text)?.[1];
  return first === undefined ? 2 : first.startsWith('\t') ? '\t' : first.length;
}
