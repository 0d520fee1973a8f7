// Remembered "Always allow" / "Always deny" rules and how they decide a request. Three scopes, as in
// VS Code: this session (memory), this workspace (the extension's workspace state, never a file in
// the workspace) and all workspaces (the extension's global state; command rules go to the user's
// settings, where the user reads and edits them). Rules from settings join them: the user's own
// (allow and deny), deny rules from the workspace's settings (a file the agent can write may add a
// deny, never an allow), and, when the user turns it on, VS Code's own terminal auto-approve rules.
// Deny wins everywhere.
import type { NewPermissionRequest } from '../broker';
import type { CommandRules, CommandRuleValue } from './shell/commandRules';
import { COMMAND, neverRemembered, rememberOptionsFor, ruleMatches, type CommandChecker, type RuleOption } from './permissionRules';
import type { KeyValueStore } from '../store';
import type { DecidingRule } from '../contract/schemas';
import type { PathContext } from './toolPaths';
import { commandPlaces, contextFor } from './agentFolder';
import type { WorkspaceFiles } from './shell/runnerCode';
import { isRunnerLabel, isWorkspaceWriteKey, leavesSandbox, NOT_CONFINED, WRITE_AND_RUN_WARNING } from './runnerConfinement';

type CommandPlaces = ReturnType<typeof commandPlaces>;

// A new key: rules of earlier builds (prefix keys without sub-command parsing) are never honoured again.
const KEY = 'agentQuestions.permissionRules.v2';

export const RULE_SCOPES = ['session', 'workspace', 'user'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];
export type RuleDecision = 'allow' | 'deny';

export interface PermissionRule extends RuleOption {
  decision: RuleDecision;
  scope: RuleScope;
  /** Who asked when the user chose it (as that asker named itself); "your settings" for rules written there. */
  source: string;
  createdAt: number;
  /** How often it decided a request without asking. */
  uses: number;
  lastUsedAt?: number;
}

/** Command rules that live in settings, read each time (the user may edit them). */
export interface SettingsRules {
  /** The user's own rules (user settings): allow and deny. */
  user(): CommandRules;
  /** Deny rules from the workspace's settings (allow entries there are ignored by the reader). */
  workspaceDeny(): CommandRules;
  /** VS Code's chat.tools.terminal.autoApprove from user settings, when the user chose to honour it; else {}. */
  terminal(): CommandRules;
  /** Writes (or with undefined, removes) a rule in the user's settings. */
  setUser(key: string, value: CommandRuleValue | undefined): Promise<void>;
}

export interface RuleStores {
  session: KeyValueStore;
  workspace: KeyValueStore;
  user: KeyValueStore;
}

export interface PermissionOutcome {
  decision: 'allow' | 'deny' | 'ask';
  /** The rule that decided (allow: one of them), for the response and the history. */
  rule?: { key: string; label: string };
  /** Allow or deny: every rule that decided, with its origin and scope, for the record of who decided. */
  deciding?: DecidingRule[];
  reason?: string;
  /** What the prompt offers when it asks. */
  options: RuleOption[];
}

/** The `source` of a rule written in the user's settings. */
const YOUR_SETTINGS = 'your settings';

const NO_SETTINGS: SettingsRules = { user: () => ({}), workspaceDeny: () => ({}), terminal: () => ({}), setUser: async () => undefined };

const isRule = (value: unknown): value is PermissionRule =>
  typeof value === 'object' &&
  value !== null &&
  ['key', 'label', 'description', 'source', 'decision', 'scope'].every((k) => typeof (value as Record<string, unknown>)[k] === 'string');

/** `dryRun`: decide without counting a use (Check a Command). */
export interface DecideHow {
  dryRun?: boolean;
}

/** A store kept in memory: this session's rules, gone with the window. */
export function memoryStore(): KeyValueStore {
  const data = new Map<string, unknown>();
  return { get: <T>(key: string) => data.get(key) as T | undefined, update: async (key, value) => void data.set(key, value) };
}

/** How many recent commands a rule's preview looks at (kept in memory only: a command line may hold a secret). */
const RECENT_COMMANDS = 50;

export class RememberedPermissions {
  private checker: CommandChecker | undefined;
  private readonly stores: RuleStores;
  private recent: Array<{ command: string; denied: boolean }> = [];
  private readonly ruleListeners = new Set<() => void>();

  constructor(
    stores: RuleStores | KeyValueStore,
    private readonly options: {
      settings?: SettingsRules;
      loadChecker?: () => Promise<CommandChecker>;
      workspaceFolders?: () => readonly string[];
      /** Where paths really are (home, VS Code's User folder, case, symlinks); default: the workspace folders alone. */
      pathContext?: () => PathContext;
      now?: () => number;
    } = {},
  ) {
    this.stores = 'session' in stores ? stores : { session: memoryStore(), workspace: stores, user: memoryStore() };
  }

  private get settings(): SettingsRules {
    return this.options.settings ?? NO_SETTINGS;
  }

  /** Where paths really are, read at each decision (folders come and go). */
  /** Where a command's paths resolve, by real path (for the command rules). */
  private classifier(context = this.pathContext()): CommandPlaces {
    return commandPlaces(context);
  }

  pathContext(): PathContext {
    return this.options.pathContext?.() ?? { workspaceFolders: this.options.workspaceFolders?.() ?? [] };
  }

  /** The files a command's relative paths name (read by the checker): under the folder relative paths are placed against (none when it is not known). */
  private files(context = this.pathContext(), checker = this.checker): WorkspaceFiles | undefined {
    const folder = context.folder ?? context.workspaceFolders[0];
    return folder ? checker?.files?.(folder) : undefined;
  }

  /** What a shell command does, in one line, with paths placed as the rules place them (undefined: the parser did not load). */
  async summarize(command: string, cwd?: string): Promise<string | undefined> {
    const checker = await this.ready();
    const context = this.pathContext();
    const placed = cwd === undefined ? context : { ...context, folder: cwd };
    return checker?.summarize?.(checker.parse(command), this.classifier(placed).classify, this.files(placed, checker));
  }

  /** Loads the shell parser and rules once; without them every command is asked and no command rule is offered. */
  async ready(): Promise<CommandChecker | undefined> {
    if (!this.checker && this.options.loadChecker) this.checker = await this.options.loadChecker().catch(() => undefined);
    return this.checker;
  }

  private stored(scope: RuleScope): PermissionRule[] {
    const saved = this.stores[scope].get<unknown>(KEY);
    return Array.isArray(saved) ? saved.filter(isRule).filter((r) => r.scope === scope) : [];
  }

  /** Every rule: remembered ones (session, workspace, all workspaces) and the user's own command rules in settings. */
  list(): PermissionRule[] {
    const remembered = RULE_SCOPES.flatMap((scope) => this.stored(scope));
    const userRules = Object.entries(this.settings.user())
      .filter(([key]) => !remembered.some((r) => r.scope === 'user' && r.key === `${COMMAND}${key}`))
      .map(([key, value]): PermissionRule => ({
        key: `${COMMAND}${key}`,
        value,
        label: key,
        description: 'Written in your settings (agentQuestions.permissions.autoApprove)',
        decision: approves(value) ? 'allow' : 'deny',
        scope: 'user',
        source: YOUR_SETTINGS,
        createdAt: 0,
        uses: 0,
      }));
    // A user-scope command rule lives in settings: if the user removed it there, it is gone.
    return [...remembered.filter((r) => r.scope !== 'user' || !r.key.startsWith(COMMAND) || Object.hasOwn(this.settings.user(), r.key.slice(COMMAND.length))), ...userRules];
  }

  /** Calls `listener` after a rule is remembered or forgotten (the Queue's write-and-run warning follows the rules). */
  onDidChangeRules(listener: () => void): { dispose(): void } {
    this.ruleListeners.add(listener);
    return { dispose: () => void this.ruleListeners.delete(listener) };
  }

  /** Remembers, in memory, a command the user decided, for the previews of later rules. */
  noteCommand(command: string, denied: boolean): void {
    this.recent = [{ command, denied }, ...this.recent.filter((r) => r.command !== command)].slice(0, RECENT_COMMANDS);
  }

  /** Which recent commands a command rule would have allowed, and which of those the user denied. */
  private previewOf(option: RuleOption, checker: CommandChecker): RuleOption['preview'] {
    const key = option.key.slice(COMMAND.length);
    const context = this.pathContext();
    const places = this.classifier(context);
    const files = this.files(context);
    const covered = this.recent.filter((r) => checker.covers(key, option.value ?? true, r.command, checker.parse(r.command), { ...places, ...(files ? { files } : {}) }));
    return {
      covers: covered.map((r) => r.command).slice(0, 10),
      denied: covered
        .filter((r) => r.denied)
        .map((r) => r.command)
        .slice(0, 10),
    };
  }

  /** Decides a request by the rules, or says to ask and what to offer (a shell command waits for the parser to load). */
  async decide(request: NewPermissionRequest, how: DecideHow = {}): Promise<PermissionOutcome> {
    return this.decideNow(request, request.toolCall?.command !== undefined ? await this.ready() : this.checker, how);
  }

  /** The same, at once: requests without a shell command need no parser, and are queued in the same tick. */
  decideNow(request: NewPermissionRequest, checker = this.checker, how: DecideHow = {}): PermissionOutcome {
    const context = contextFor(request, this.pathContext());
    const rules = this.list();
    const options = rememberOptionsFor(request, checker, context, this.files(context, checker))
      // A runner rule would never cover a call outside the agent's sandbox: not offered for one.
      .filter((o) => request.confinement !== 'unsandboxed' || !isRunnerOption(o))
      .map((o) => (checker && o.key.startsWith(COMMAND) ? { ...o, preview: this.previewOf(o, checker) } : o))
      .map((o) => (request.confinement !== 'sandboxed' && isRunnerOption(o) ? { ...o, description: `${o.description} ${NOT_CONFINED}` } : o))
      .map((o) => (request.confinement !== 'sandboxed' && completesWriteAndRun(o, rules) ? { ...o, description: `${o.description} ${WRITE_AND_RUN_WARNING}` } : o));
    const call = request.toolCall;
    if (call?.command !== undefined) return this.decideCommand(call.command, request, rules, checker, options, context, how);
    const denied = rules.find((r) => r.decision === 'deny' && ruleMatches(r.key, request, context));
    if (denied) return { decision: 'deny', rule: denied, deciding: [decidingRule(denied)], reason: `The user chose "Always deny" for ${denied.label}.`, options };
    if (neverRemembered(request, context) || blockingWarnings(request)) return { decision: 'ask', options };
    const allowed = rules.find((r) => r.decision === 'allow' && ruleMatches(r.key, request, context));
    if (allowed) {
      if (!how.dryRun) void this.used([allowed]);
      return { decision: 'allow', rule: allowed, deciding: [decidingRule(allowed)], reason: `The user chose "Always allow" for ${allowed.label} earlier.`, options };
    }
    return { decision: 'ask', options };
  }

  private decideCommand(
    command: string,
    request: NewPermissionRequest,
    rules: PermissionRule[],
    checker: CommandChecker | undefined,
    options: RuleOption[],
    context: PathContext,
    how: DecideHow,
  ): PermissionOutcome {
    if (!checker) return { decision: 'ask', reason: 'The shell parser did not load, so every command is asked.', options };
    // Deny entries from every source; allow entries only from the user's settings, the honoured
    // terminal rules and remembered grants. Deny wins when both name the same key.
    const merged: CommandRules = { ...this.settings.terminal() };
    // Where each merged entry came from (the last writer wins, as in `merged`), for the record of who decided.
    const origins = new Map<string, DecidingRule>(Object.keys(merged).map((key) => [key, { text: key, origin: 'terminalSettings' }]));
    for (const rule of rules)
      if (rule.key.startsWith(COMMAND) && rule.decision === 'allow') {
        merged[rule.key.slice(COMMAND.length)] = rule.value ?? true;
        origins.set(rule.key.slice(COMMAND.length), decidingRule(rule));
      }
    const denyRules = rules.filter((r) => r.decision === 'deny' && r.key.startsWith(COMMAND));
    for (const [key, value, origin] of [
      ...Object.entries(this.settings.terminal()).map(([key, value]) => [key, value, { text: key, origin: 'terminalSettings' }] as const),
      ...Object.entries(this.settings.workspaceDeny()).map(([key, value]) => [key, value, { text: key, origin: 'workspaceSettings' }] as const),
      ...denyRules.map((r) => [r.key.slice(COMMAND.length), r.value ?? false, decidingRule(r)] as const),
    ]) {
      if (approves(value)) continue;
      merged[key] = denyValue(value);
      origins.set(key, origin);
    }
    const decidingOf = (keys: string[]): DecidingRule[] => keys.map((key) => origins.get(key) ?? { text: key, origin: 'userSettings' });
    // Rules the user wrote (settings, VS Code's terminal rules) keep VS Code's meaning; remembered ones are read in the positive model.
    const remembered = new Set(rules.filter((r) => r.source !== YOUR_SETTINGS && r.key.startsWith(COMMAND)).map((r) => r.key.slice(COMMAND.length)));
    const handWritten = new Set([...Object.keys(this.settings.user()), ...Object.keys(this.settings.terminal())].filter((key) => !remembered.has(key)));
    const files = this.files(context, checker);
    const result = checker.decide(command, checker.parse(command), merged, { handWritten, ...this.classifier(context), ...(files ? { files } : {}) });
    const deciding = rules.filter((r) => result.rules.includes(r.key.slice(COMMAND.length)));
    const label = deciding[0]?.label ?? result.rules[0] ?? '';
    if (result.decision === 'deny')
      return {
        decision: 'deny',
        rule: { key: `${COMMAND}${result.rules[0] ?? ''}`, label },
        deciding: decidingOf(result.rules.slice(0, 1)),
        reason: `Denied by the rule ${label}: ${result.reason}`,
        options,
      };
    // A runner rule covers a call only inside the agent's sandbox.
    const outside = result.decision === 'allow' ? leavesSandbox(request.confinement, result.parts) : undefined;
    if (outside) return { decision: 'ask', reason: outside, options };
    // Something the user must see (sandbox off, background, invisible text, configuration) is always asked.
    if (result.decision === 'allow' && !neverRemembered(request, context) && !blockingWarnings(request)) {
      if (!how.dryRun) void this.used(deciding);
      // Said with the labels the user saw ("npm test …"); rules from VS Code's terminal settings by their key.
      const labels = result.rules.map((key) => rules.find((r) => r.key === `${COMMAND}${key}`)?.label ?? key);
      return {
        decision: 'allow',
        rule: { key: `${COMMAND}${result.rules.join('\n')}`, label: labels.join(', ') },
        deciding: decidingOf(result.rules),
        reason: `The user chose "Always allow" for ${labels.join(', ')} earlier.`,
        options,
      };
    }
    return {
      decision: 'ask',
      reason: result.decision === 'allow' ? 'A rule covers it, but it is always asked: it has a warning, invisible text, or touches protected configuration.' : result.reason,
      options,
    };
  }

  async remember(option: RuleOption, source: string, how: { decision?: RuleDecision; scope?: RuleScope } = {}): Promise<void> {
    const decision = how.decision ?? 'allow';
    const scope = how.scope ?? 'workspace';
    const value: CommandRuleValue | undefined = option.key.startsWith(COMMAND) ? (decision === 'allow' ? (option.value ?? true) : denyValue(option.value ?? false)) : undefined;
    const rule: PermissionRule = {
      key: option.key,
      label: option.label,
      description: option.description,
      ...(value !== undefined ? { value } : {}),
      decision,
      scope,
      source,
      createdAt: this.now(),
      uses: 0,
    };
    const others = this.stored(scope).filter((r) => r.key !== option.key);
    await this.stores[scope].update(KEY, [...others, rule]);
    if (scope === 'user' && value !== undefined) await this.settings.setUser(option.key.slice(COMMAND.length), value);
    for (const listener of this.ruleListeners) listener();
  }

  /** Forgets one rule (in one scope, or in all), or a rule written in the user's settings. */
  async forget(key: string, scope?: RuleScope): Promise<void> {
    for (const s of scope ? [scope] : RULE_SCOPES)
      await this.stores[s].update(
        KEY,
        this.stored(s).filter((r) => r.key !== key),
      );
    if ((!scope || scope === 'user') && key.startsWith(COMMAND) && Object.hasOwn(this.settings.user(), key.slice(COMMAND.length)))
      await this.settings.setUser(key.slice(COMMAND.length), undefined);
    for (const listener of this.ruleListeners) listener();
  }

  /** Forgets every remembered rule (the user's own settings are left as they are, but for rules this extension wrote there). */
  async clear(): Promise<void> {
    for (const rule of this.stored('user')) if (rule.key.startsWith(COMMAND)) await this.settings.setUser(rule.key.slice(COMMAND.length), undefined);
    for (const scope of RULE_SCOPES) await this.stores[scope].update(KEY, []);
    for (const listener of this.ruleListeners) listener();
  }

  private async used(rules: Array<{ key: string }>): Promise<void> {
    for (const scope of RULE_SCOPES) {
      const saved = this.stored(scope);
      if (!saved.some((r) => rules.some((u) => u.key === r.key))) continue;
      await this.stores[scope].update(
        KEY,
        saved.map((r) => (rules.some((u) => u.key === r.key) ? { ...r, uses: r.uses + 1, lastUsedAt: this.now() } : r)),
      );
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

/** A listed rule as the record of who decided names it: remembered from a prompt (with its scope), or written in the user's settings. */
const decidingRule = (rule: PermissionRule): DecidingRule =>
  rule.source === YOUR_SETTINGS ? { text: rule.label, origin: 'userSettings' } : { text: rule.label, origin: 'remembered', scope: rule.scope };

const approves = (value: CommandRuleValue) => (typeof value === 'boolean' ? value : value.approve);
const denyValue = (value: CommandRuleValue): CommandRuleValue => (typeof value === 'boolean' ? false : { ...value, approve: false });

/** Whether a command rule (or its offer) is a runner's: «npm test …», `make test`. */
const isRunnerOption = (rule: Pick<RuleOption, 'key' | 'label'>) => rule.key.startsWith(COMMAND) && isRunnerLabel(rule.label);

/** Whether the rules hold a workspace write rule and a runner rule: together they let the agent run any code it writes. */
export function writeAndRun(rules: ReadonlyArray<Pick<PermissionRule, 'key' | 'label' | 'decision'>>): boolean {
  const allowed = rules.filter((r) => r.decision === 'allow');
  return allowed.some((r) => isWorkspaceWriteKey(r.key)) && allowed.some(isRunnerOption);
}

/** Whether remembering `option` would complete that pair. */
const completesWriteAndRun = (option: RuleOption, rules: PermissionRule[]) => !writeAndRun(rules) && writeAndRun([...rules, { ...option, decision: 'allow' }]);

/** Warnings that keep any rule from allowing without the user (all but a path outside the workspace, which a path rule names). */
function blockingWarnings(request: NewPermissionRequest): boolean {
  return (request.toolCall?.warnings ?? []).some((w) => !w.includes(' is outside the workspace: ') || request.toolCall?.command !== undefined);
}
