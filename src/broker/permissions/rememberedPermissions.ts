// Remembered "Always allow" / "Always deny" rules and how they decide a request. Three scopes, as in
// VS Code: this session (memory), this workspace (the extension's workspace state, never a file in
// the workspace) and all workspaces (the extension's global state; command rules go to the user's
// settings, where the user reads and edits them). Rules from settings join them: the user's own
// (allow and deny), deny rules from the workspace's settings (a file the agent can write may add a
// deny, never an allow), and, when the user turns it on, VS Code's own terminal auto-approve rules.
// A rule of this session or this workspace may end (a day, a week): from then on it decides nothing
// and is dropped at the next write. Deny wins everywhere. The decision itself is decidePermission.ts;
// this file keeps and gathers the rules.
import type { NewPermissionRequest } from '../broker';
import type { CommandRuleValue } from './shell/commandRules';
import { COMMAND, type CommandChecker, type RuleOption } from './permissionRules';
import type { KeyValueStore } from '../store';
import { RULE_SCOPES, type RuleScope } from '../contract/schemas';
import type { PathContext } from './toolPaths';
import type { Route } from '../policy';
import { contextFor } from './agentFolder';
import type { WorkspaceFiles } from './shell/runnerCode';
import { approves, decidePermission, denyValue, YOUR_SETTINGS, type HeldRule, type PermissionOutcome, type SettingsCommandRules } from './decidePermission';

export type { PermissionOutcome } from './decidePermission';

// A new key: rules of earlier builds (prefix keys without sub-command parsing) are never honoured again.
const KEY = 'agentQuestions.permissionRules.v2';

export type { RuleScope } from '../contract/schemas';
export type RuleDecision = 'allow' | 'deny';

export interface PermissionRule extends HeldRule {
  createdAt: number;
  /** How often it decided a request without asking. */
  uses: number;
  lastUsedAt?: number;
  /** When it stops deciding (ms since the epoch); absent: when it is forgotten (this session's rules: with the window). */
  expiresAt?: number;
}

/** Command rules that live in settings, read each time (the user may edit them), and where the store writes the user's. */
export interface SettingsRules extends SettingsCommandRules {
  /** Writes (or with undefined, removes) a rule in the user's settings. */
  setUser(key: string, value: CommandRuleValue | undefined): Promise<void>;
}

export interface RuleStores {
  session: KeyValueStore;
  workspace: KeyValueStore;
  user: KeyValueStore;
}

/** Decisions are taken as if someone can be asked unless the caller says who can answer. */
const ASK: Route = { kind: 'ask' };

const NO_SETTINGS: SettingsRules = { user: () => ({}), workspaceDeny: () => ({}), terminal: () => ({}), setUser: async () => undefined };

const isRule = (value: unknown): value is PermissionRule =>
  typeof value === 'object' &&
  value !== null &&
  ['key', 'label', 'description', 'source', 'decision', 'scope'].every((k) => typeof (value as Record<string, unknown>)[k] === 'string');

export interface DecideHow {
  /** Who can answer now (policy.ts); without it, decided as if someone can be asked. */
  route?: Route;
  /** Decide without counting a use (Check a Command). */
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
  /** Rules already reported as unreadable, so each is logged once, not at every decision. */
  private readonly reported = new Set<string>();

  constructor(
    stores: RuleStores | KeyValueStore,
    private readonly options: {
      settings?: SettingsRules;
      loadChecker?: () => Promise<CommandChecker>;
      workspaceFolders?: () => readonly string[];
      /** Where paths really are (home, VS Code's User folder, case, symlinks); default: the workspace folders alone. */
      pathContext?: () => PathContext;
      now?: () => number;
      /** Where a rule that cannot be read is reported (never its text: a command line may hold a secret). */
      log?: (message: string) => void;
    } = {},
  ) {
    this.stores = 'session' in stores ? stores : { session: memoryStore(), workspace: stores, user: memoryStore() };
  }

  private get settings(): SettingsRules {
    return this.options.settings ?? NO_SETTINGS;
  }

  pathContext(): PathContext {
    return this.options.pathContext?.() ?? { workspaceFolders: this.options.workspaceFolders?.() ?? [] };
  }

  /** The files a command's relative paths name (read by the checker): under the folder relative paths are placed against (none when it is not known). */
  private files(context = this.pathContext(), checker = this.checker): WorkspaceFiles | undefined {
    const folder = context.folder ?? context.workspaceFolders[0];
    return folder ? checker?.files?.(folder) : undefined;
  }

  /** Loads the shell parser and rules once; without them every command is asked and no command rule is offered. */
  async ready(): Promise<CommandChecker | undefined> {
    if (!this.checker && this.options.loadChecker) this.checker = await this.options.loadChecker().catch(() => undefined);
    return this.checker;
  }

  private stored(scope: RuleScope): PermissionRule[] {
    const saved = this.stores[scope].get<unknown>(KEY);
    return Array.isArray(saved) ? saved.filter(isRule).filter((r) => r.scope === scope && this.live(r)) : [];
  }

  /** Whether a rule still decides: not past its end. An end that is not a time ends it now (asked again, never allowed forever). */
  private live(rule: PermissionRule): boolean {
    const end: unknown = rule.expiresAt;
    if (end === undefined) return true;
    if (typeof end === 'number' && Number.isFinite(end)) return this.now() < end;
    const id = `${rule.scope}\n${rule.key}`;
    if (!this.reported.has(id)) {
      this.reported.add(id);
      this.options.log?.(`A remembered rule (${rule.scope}) was dropped: its expiry is not a time (${typeof end}); the agent will be asked again.`);
    }
    return false;
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

  /** Decides a request (decidePermission.ts); a shell command waits for the parser to load. */
  async decide(request: NewPermissionRequest, how: DecideHow = {}): Promise<PermissionOutcome> {
    if (request.toolCall?.command !== undefined) await this.ready();
    return this.decideNow(request, how);
  }

  /** The same, at once: requests without a shell command need no parser, and are queued in the same tick. */
  decideNow(request: NewPermissionRequest, how: DecideHow = {}): PermissionOutcome {
    const context = contextFor(request, this.pathContext());
    const inputs = { route: how.route ?? ASK, rules: this.list(), settings: this.settings, checker: this.checker, context, recent: this.recent };
    // The workspace's files are read for a shell command's card and offers only.
    const outcome = decidePermission(request, { ...inputs, files: request.toolCall?.command !== undefined ? this.files(context) : undefined });
    if (outcome.decision === 'allow' && outcome.used && !how.dryRun) void this.used(outcome.used);
    return outcome;
  }

  /** `expiresAfterMinutes`: the rule ends then (this session's or this workspace's; all workspaces' command rules live in settings, which do not expire). */
  async remember(option: RuleOption, source: string, how: { decision?: RuleDecision; scope?: RuleScope; expiresAfterMinutes?: number } = {}): Promise<void> {
    const decision = how.decision ?? 'allow';
    const scope = how.scope ?? 'workspace';
    if (how.expiresAfterMinutes !== undefined && scope === 'user') throw new Error('A rule for all workspaces does not expire; choose this workspace or this session.');
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
      ...(how.expiresAfterMinutes !== undefined ? { expiresAt: this.now() + how.expiresAfterMinutes * 60_000 } : {}),
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

  /** The rules' clock (tests move it; the ledger says when a rule ends by it). */
  now(): number {
    return (this.options.now ?? Date.now)();
  }
}
