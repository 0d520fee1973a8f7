// The one decision on a permission request, in policy order: who can answer (the route), what no
// rule may decide (never remembered), deny from any source, allow (remembered rules, the user's
// settings, honoured terminal rules), else ask — and only when it asks, what the prompt offers and
// what each offer would have covered. A command line is analysed once; that analysis gives the
// decision, the offers and the card's line. Pure: the rules, settings and checker are handed in.
import type { NewPermissionRequest } from '../broker';
import type { Route } from '../policy';
import type { DecidingRule, PolicySetting, RuleScope } from '../contract/schemas';
import type { CommandRules, CommandRuleValue, LineAnalysis } from './shell/commandRules';
import type { WorkspaceFiles } from './shell/runnerCode';
import { COMMAND, neverRemembered, rememberOptionsFor, ruleMatches, type CommandChecker, type RuleOption } from './permissionRules';
import { commandPlaces } from './agentFolder';
import type { PathContext } from './toolPaths';
import { isRunnerLabel, isWorkspaceWriteKey, leavesSandbox, NOT_CONFINED, WRITE_AND_RUN_WARNING } from './runnerConfinement';

/** A rule as the decision reads it (the store keeps more: when it was made, how often it decided). */
export interface HeldRule extends RuleOption {
  decision: 'allow' | 'deny';
  scope: RuleScope;
  /** Who asked when the user chose it; YOUR_SETTINGS for rules written in the user's settings. */
  source: string;
}

/** The `source` of a rule written in the user's settings. */
export const YOUR_SETTINGS = 'your settings';

/** Command rules that live in settings, read at each decision (the user may edit them). */
export interface SettingsCommandRules {
  /** The user's own rules (user settings): allow and deny. */
  user(): CommandRules;
  /** Deny rules from the workspace's settings (allow entries there are ignored by the reader). */
  workspaceDeny(): CommandRules;
  /** VS Code's chat.tools.terminal.autoApprove from user settings, when the user chose to honour it; else {}. */
  terminal(): CommandRules;
}

/** Everything the decision reads, gathered by the store (rememberedPermissions.ts). */
export interface DecisionInputs {
  route: Route;
  /** Remembered rules and the user's command rules in settings. */
  rules: readonly HeldRule[];
  settings: SettingsCommandRules;
  /** The shell parser and command rules; without them every command is asked. */
  checker: CommandChecker | undefined;
  /** Where paths are, with the folder this call runs in. */
  context: PathContext;
  files: WorkspaceFiles | undefined;
  /** Commands the user decided lately (in memory), for the previews of offered rules. */
  recent: ReadonlyArray<{ command: string; denied: boolean }>;
}

export type PermissionOutcome =
  | { decision: 'unavailable'; reason: string; setting: PolicySetting; options: RuleOption[] }
  | {
      decision: 'allow' | 'deny' | 'ask';
      /** The rule that decided (allow: one of them), for the response and the history. */
      rule?: { key: string; label: string };
      /** Allow or deny: every rule that decided, with its origin and scope, for the record of who decided. */
      deciding?: DecidingRule[];
      /** Allow: the held rules that decided, whose uses the store counts. */
      used?: HeldRule[];
      reason?: string;
      /** What the prompt offers (only when it asks). */
      options: RuleOption[];
      /** A shell command's card line, from the same analysis. */
      summary?: string;
    };

export function decidePermission(request: NewPermissionRequest, inputs: DecisionInputs): PermissionOutcome {
  const { route } = inputs;
  // Policy first: with no one to ask, or in answersFile mode, nothing is allowed, remembered or not.
  if (route.kind !== 'ask') {
    const reason = route.kind === 'unavailable' ? route.reason : 'Permission requests are never answered from the answers file.';
    // In answersFile mode it is the mode that refuses a permission, not the file.
    return { decision: 'unavailable', reason, setting: route.kind === 'unavailable' ? route.setting : 'mode', options: [] };
  }
  const command = request.toolCall?.command;
  if (command !== undefined) return decideCommand(command, request, inputs);
  const { rules, context } = inputs;
  const denied = rules.find((r) => r.decision === 'deny' && ruleMatches(r.key, request, context));
  if (denied) return { decision: 'deny', rule: denied, deciding: [decidingRule(denied)], reason: `The user chose "Always deny" for ${denied.label}.`, options: [] };
  if (neverRemembered(request, context) || blockingWarnings(request)) return { decision: 'ask', options: offers(request, inputs) };
  const allowed = rules.find((r) => r.decision === 'allow' && ruleMatches(r.key, request, context));
  if (allowed)
    return {
      decision: 'allow',
      rule: allowed,
      deciding: [decidingRule(allowed)],
      used: [allowed],
      reason: `The user chose "Always allow" for ${allowed.label} earlier.`,
      options: [],
    };
  return { decision: 'ask', options: offers(request, inputs) };
}

function decideCommand(command: string, request: NewPermissionRequest, inputs: DecisionInputs): PermissionOutcome {
  const { checker, rules, settings, context, files } = inputs;
  if (!checker) return { decision: 'ask', reason: 'The shell parser did not load, so every command is asked.', options: [] };
  const analysis = checker.analyse(command, checker.parse(command), { ...commandPlaces(context), ...(files ? { files } : {}) });
  // A card that says the line runs the workspace's code says whether that is confined: only a call the agent runs in its sandbox is.
  const confined = request.confinement === 'sandboxed' || !analysis.runsWorkspaceCode;
  const summary = confined ? analysis.summary : `${analysis.summary} ${NOT_CONFINED}`;
  // Deny entries from every source; allow entries only from the user's settings, the honoured
  // terminal rules and remembered grants. Deny wins when both name the same key.
  const merged: CommandRules = { ...settings.terminal() };
  // Where each merged entry came from (the last writer wins, as in `merged`), for the record of who decided.
  const origins = new Map<string, DecidingRule>(Object.keys(merged).map((key) => [key, { text: key, origin: 'terminalSettings' }]));
  for (const rule of rules)
    if (rule.key.startsWith(COMMAND) && rule.decision === 'allow') {
      merged[rule.key.slice(COMMAND.length)] = rule.value ?? true;
      origins.set(rule.key.slice(COMMAND.length), decidingRule(rule));
    }
  const denyRules = rules.filter((r) => r.decision === 'deny' && r.key.startsWith(COMMAND));
  for (const [key, value, origin] of [
    ...Object.entries(settings.terminal()).map(([key, value]) => [key, value, { text: key, origin: 'terminalSettings' }] as const),
    ...Object.entries(settings.workspaceDeny()).map(([key, value]) => [key, value, { text: key, origin: 'workspaceSettings' }] as const),
    ...denyRules.map((r) => [r.key.slice(COMMAND.length), r.value ?? false, decidingRule(r)] as const),
  ]) {
    if (approves(value)) continue;
    merged[key] = denyValue(value);
    origins.set(key, origin);
  }
  const decidingOf = (keys: string[]): DecidingRule[] => keys.map((key) => origins.get(key) ?? { text: key, origin: 'userSettings' });
  // Rules the user wrote (settings, VS Code's terminal rules) keep VS Code's meaning; remembered ones are read in the positive model.
  const remembered = new Set(rules.filter((r) => r.source !== YOUR_SETTINGS && r.key.startsWith(COMMAND)).map((r) => r.key.slice(COMMAND.length)));
  const handWritten = new Set([...Object.keys(settings.user()), ...Object.keys(settings.terminal())].filter((key) => !remembered.has(key)));
  const result = checker.decide({ ...analysis, context: { ...analysis.context, handWritten } }, merged);
  const deciding = rules.filter((r) => result.rules.includes(r.key.slice(COMMAND.length)));
  const label = deciding[0]?.label ?? result.rules[0] ?? '';
  if (result.decision === 'deny')
    return {
      decision: 'deny',
      rule: { key: `${COMMAND}${result.rules[0] ?? ''}`, label },
      deciding: decidingOf(result.rules.slice(0, 1)),
      reason: `Denied by the rule ${label}: ${result.reason}`,
      options: [],
      summary,
    };
  const ask = (reason: string): PermissionOutcome => ({ decision: 'ask', reason, options: offers(request, inputs, analysis, result), summary });
  // A runner rule covers a call only inside the agent's sandbox.
  const outside = result.decision === 'allow' ? leavesSandbox(request.confinement, result.parts) : undefined;
  if (outside) return ask(outside);
  // Something the user must see (sandbox off, background, invisible text, configuration) is always asked.
  if (result.decision === 'allow' && !neverRemembered(request, context) && !blockingWarnings(request)) {
    // Said with the labels the user saw ("npm test …"); rules from VS Code's terminal settings by their key.
    const labels = result.rules.map((key) => rules.find((r) => r.key === `${COMMAND}${key}`)?.label ?? key);
    return {
      decision: 'allow',
      rule: { key: `${COMMAND}${result.rules.join('\n')}`, label: labels.join(', ') },
      deciding: decidingOf(result.rules),
      used: deciding,
      reason: `The user chose "Always allow" for ${labels.join(', ')} earlier.`,
      options: [],
      summary,
    };
  }
  return ask(result.decision === 'allow' ? 'A rule covers it, but it is always asked: it has a warning, invisible text, or touches protected configuration.' : result.reason);
}

/**
 * What the prompt offers, narrowest first, with what each command rule would have covered lately;
 * a runner rule says whether it is confined, and the rule that would complete a write-and-run pair says so.
 */
function offers(request: NewPermissionRequest, inputs: DecisionInputs, analysis?: LineAnalysis, decision?: ReturnType<CommandChecker['decide']>): RuleOption[] {
  const { checker, rules, context, files } = inputs;
  return (
    rememberOptionsFor(request, checker, context, files, analysis && decision ? { analysis, decision } : undefined)
      // A runner rule would never cover a call outside the agent's sandbox: not offered for one.
      .filter((o) => request.confinement !== 'unsandboxed' || !isRunnerOption(o))
      .map((o) => (checker && o.key.startsWith(COMMAND) ? { ...o, preview: previewOf(o, checker, inputs) } : o))
      .map((o) => (request.confinement !== 'sandboxed' && isRunnerOption(o) ? { ...o, description: `${o.description} ${NOT_CONFINED}` } : o))
      .map((o) => (request.confinement !== 'sandboxed' && completesWriteAndRun(o, rules) ? { ...o, description: `${o.description} ${WRITE_AND_RUN_WARNING}` } : o))
  );
}

/** Which recent commands a command rule would have allowed, and which of those the user denied (each recent line analysed once). */
function previewOf(option: RuleOption, checker: CommandChecker, inputs: DecisionInputs): RuleOption['preview'] {
  const key = option.key.slice(COMMAND.length);
  const where = { ...commandPlaces(inputs.context), ...(inputs.files ? { files: inputs.files } : {}) };
  const covered = inputs.recent.filter((r) => checker.decide(checker.analyse(r.command, checker.parse(r.command), where), { [key]: option.value ?? true }).decision === 'allow');
  return {
    covers: covered.map((r) => r.command).slice(0, 10),
    denied: covered
      .filter((r) => r.denied)
      .map((r) => r.command)
      .slice(0, 10),
  };
}

/** A held rule as the record of who decided names it: remembered from a prompt (with its scope), or written in the user's settings. */
const decidingRule = (rule: HeldRule): DecidingRule =>
  rule.source === YOUR_SETTINGS ? { text: rule.label, origin: 'userSettings' } : { text: rule.label, origin: 'remembered', scope: rule.scope };

export const approves = (value: CommandRuleValue) => (typeof value === 'boolean' ? value : value.approve);
export const denyValue = (value: CommandRuleValue): CommandRuleValue => (typeof value === 'boolean' ? false : { ...value, approve: false });

/** Whether a command rule (or its offer) is a runner's: «npm test …», `make test`. */
const isRunnerOption = (rule: Pick<RuleOption, 'key' | 'label'>) => rule.key.startsWith(COMMAND) && isRunnerLabel(rule.label);

/** Whether the rules hold a workspace write rule and a runner rule: together they let the agent run any code it writes. */
export function writeAndRun(rules: ReadonlyArray<Pick<HeldRule, 'key' | 'label' | 'decision'>>): boolean {
  const allowed = rules.filter((r) => r.decision === 'allow');
  return allowed.some((r) => isWorkspaceWriteKey(r.key)) && allowed.some(isRunnerOption);
}

/** Whether remembering `option` would complete that pair. */
const completesWriteAndRun = (option: RuleOption, rules: readonly HeldRule[]) => !writeAndRun(rules) && writeAndRun([...rules, { ...option, decision: 'allow' }]);

/** Warnings that keep any rule from allowing without the user (all but a path outside the workspace, which a path rule names). */
function blockingWarnings(request: NewPermissionRequest): boolean {
  return (request.toolCall?.warnings ?? []).some((w) => !w.includes(' is outside the workspace: ') || request.toolCall?.command !== undefined);
}
