// Remembered "Always allow" and "Always deny" rules: list them with their scope, source, age and
// uses, and forget one, or all. "Check a Command…": how a shell command would be decided right now,
// by which rule and why, and what it does.
import * as vscode from 'vscode';
import { COMMAND } from '../broker/permissions/permissionRules';
import type { PermissionOutcome, RememberedPermissions, RuleScope } from '../broker/permissions/rememberedPermissions';
import { writeAndRun } from '../broker/permissions/decidePermission';
import { displayToolCall } from '../broker/permissions/toolCallDisplay';
import { hasInvisible, invisibleCodePoints, invisibleCount, markInvisible, uiText } from '../broker/visibleText';
import { localizedAge, localizedEnd } from './localizedAge';
import { agentGrants } from './agentGrantFiles';
import type { GrantAgent, GrantFileProblem, TranslatedGrant } from '../broker/permissions/agentGrants/agentGrant';
import { broaderGrants, replaceable, type ReplaceGrantArgs } from './replaceAgentGrant';

/** What Check a Command returns to a caller that passes the line (tests, other extensions). */
export interface CommandCheck {
  decision: PermissionOutcome['decision'];
  /** The rule that decides (the first, when several allow the parts of a line). */
  rule?: DecidingRule;
  /** Every rule that decides. */
  rules: DecidingRule[];
  reason: string;
  /** What the command does (commandEffects.ts), or why that is not known. */
  summary: string;
}
export interface DecidingRule {
  label: string;
  scope: RuleScope;
  /** Who asked when the user chose it (as it named itself), or the settings it was written in. */
  source: string;
}

/** How a Bash request with this command would be decided now, by the remembered rules and settings. */
async function checkCommand(permissions: RememberedPermissions, command: string): Promise<CommandCheck> {
  const display = displayToolCall('Bash', { command }, permissions.pathContext());
  if (!display.ok) return { decision: 'ask', rules: [], reason: display.message, summary: '' };
  const outcome = await permissions.decide(
    { source: { type: 'extension', label: 'Check a Command' }, title: 'Check a Command', detail: command, toolCall: display.toolCall },
    { dryRun: true },
  );
  if (outcome.decision === 'unavailable') return { decision: 'ask', rules: [], reason: outcome.reason, summary: '' };
  const summary = outcome.summary ?? 'Not analysed: the shell parser did not load.';
  const rules = outcome.rule ? decidingRules(permissions, outcome.rule.key, outcome.decision) : [];
  // Hidden characters are why it is asked whatever the rules say: said first, with what to look for.
  const count = invisibleCount(command);
  const hidden =
    outcome.decision === 'ask' && hasInvisible(command)
      ? `Contains ${count === 1 ? 'an invisible character' : `${count} invisible characters`} (${invisibleCodePoints(command).join(', ')}), shown as ⟨U+…⟩ markers: always asked, no rule covers it.`
      : undefined;
  const reason = hidden ?? outcome.reason ?? (outcome.decision === 'ask' ? 'No rule decides it.' : '');
  return { decision: outcome.decision, ...(rules[0] ? { rule: rules[0] } : {}), rules, reason, summary };
}

/** The rules behind an outcome's key: remembered ones with their scope and source; others by the setting that holds them. */
function decidingRules(permissions: RememberedPermissions, key: string, decision: PermissionOutcome['decision']): DecidingRule[] {
  const known = permissions.list();
  const keys = key.startsWith(COMMAND) ? key.slice(COMMAND.length).split('\n') : [key];
  return keys.map((k) => {
    const rule = known.find((r) => r.key === `${COMMAND}${k}` && (decision === 'ask' || r.decision === decision)) ?? known.find((r) => r.key === `${COMMAND}${k}`);
    if (rule) return { label: rule.label, scope: rule.scope, source: rule.source };
    // Not remembered: a deny entry in the workspace's settings, or VS Code's own terminal rules.
    const ours = vscode.workspace.getConfiguration('agentQuestions').inspect<Record<string, unknown>>('permissions.autoApprove');
    if (ours?.workspaceValue && Object.hasOwn(ours.workspaceValue, k))
      return { label: k, scope: 'workspace', source: "the workspace's settings (agentQuestions.permissions.autoApprove)" };
    const terminal = vscode.workspace.getConfiguration('chat.tools.terminal').inspect<Record<string, unknown>>('autoApprove');
    const inWorkspace = terminal?.workspaceValue !== undefined && Object.hasOwn(terminal.workspaceValue, k);
    return { label: k, scope: inWorkspace ? 'workspace' : 'user', source: "VS Code's terminal auto-approve rules (chat.tools.terminal.autoApprove)" };
  });
}

/** What other extensions and tests may pass to Manage Remembered Permissions. */
interface ManageOptions {
  forget?: string;
  scope?: RuleScope;
  list?: boolean;
  agentGrants?: boolean;
}

/** Every agent's grants for this window; a failure to read them is a problem shown with them, never a failed command. */
async function agentGrantsOrProblem(permissions: RememberedPermissions, globalStorage: vscode.Uri): Promise<{ agentGrants: TranslatedGrant[]; problems: GrantFileProblem[] }> {
  try {
    const { grants, problems } = await agentGrants(permissions, globalStorage);
    return { agentGrants: grants, problems };
  } catch (error) {
    return {
      agentGrants: [],
      problems: [
        { agent: 'Claude Code', file: '', scope: 'user', problem: `The agents' own settings could not be read: ${error instanceof Error ? error.message : String(error)}` },
      ],
    };
  }
}

/** Each agent's grants after ours, under one separator per agent: the rule as written, its file and scope, what it lets through, a warning when broader than ours. */
function agentGrantItems({ agentGrants, problems }: { agentGrants: TranslatedGrant[]; problems: GrantFileProblem[] }) {
  const scopes = { user: vscode.l10n.t('user'), project: vscode.l10n.t('project, shared'), local: vscode.l10n.t('project, local'), workspace: vscode.l10n.t('workspace') };
  const separators: Record<GrantAgent, string> = {
    'Claude Code': vscode.l10n.t("Claude Code's own grants (decided before Agent Questions sees the call)"),
    Codex: vscode.l10n.t("Codex's own grants (decided before Agent Questions sees the call)"),
    OpenCode: vscode.l10n.t("OpenCode's own grants (decided before Agent Questions sees the call)"),
    'VS Code': vscode.l10n.t("VS Code's own grants (they decide its agent's calls before Agent Questions sees them)"),
  };
  const fileName = (file: string) => vscode.workspace.asRelativePath(file, true);
  return (Object.keys(separators) as GrantAgent[]).flatMap((agent) => {
    const grants = agentGrants.filter((grant) => grant.agent === agent);
    const failed = problems.filter((problem) => problem.agent === agent);
    if (grants.length === 0 && failed.length === 0) return [];
    return [
      { label: separators[agent], kind: vscode.QuickPickItemKind.Separator },
      ...grants.map((grant) => ({
        label: `${grant.broader ? '$(warning)' : grant.list === 'deny' ? '$(circle-slash)' : '$(check)'} ${uiText(grant.rule, 100)}`,
        // Where it is in the file, by the file's own key.
        description: [grant.key, scopes[grant.scope], ...(grant.file ? [fileName(grant.file)] : [])].join(' · '),
        detail: uiText(grant.broader ? vscode.l10n.t('{0}. Broader than your Agent Questions rules: {1}', grant.meaning, grant.broader) : grant.meaning, 300),
        ...(grant.file ? { file: grant.file, grant } : { warning: true }),
      })),
      ...failed.map((problem) => ({
        label: `$(error) ${problem.file ? fileName(problem.file) : vscode.l10n.t("The agents' own settings")}`,
        description: scopes[problem.scope],
        detail: uiText(problem.problem, 300),
        ...(problem.file ? { file: problem.file } : { warning: true }),
      })),
    ];
  });
}

/** An agent's grant: a broader one may be replaced with a narrower rule (after a preview); any may be opened in its file. */
async function openOrReplace(file: string, grant: TranslatedGrant | undefined): Promise<void> {
  if (grant && replaceable(grant)) {
    const replace = {
      label: `$(replace) ${vscode.l10n.t('Replace with a Narrower Rule…')}`,
      detail: vscode.l10n.t('See the edit of {0} first.', vscode.workspace.asRelativePath(file, true)),
    };
    const open = { label: `$(go-to-file) ${vscode.l10n.t('Open the File')}` };
    const picked = await vscode.window.showQuickPick([replace, open], { title: uiText(grant.rule, 100) });
    if (picked === replace) return void (await vscode.commands.executeCommand('agentQuestions.replaceAgentGrant', { grant } satisfies ReplaceGrantArgs));
    if (picked !== open) return;
  }
  await vscode.window.showTextDocument(vscode.Uri.file(file));
}

/** The check as text a user reads and copies. */
function checkText(command: string, check: CommandCheck): { message: string; detail: string } {
  const scopes: Record<RuleScope, string> = { session: vscode.l10n.t('this session'), workspace: vscode.l10n.t('this workspace'), user: vscode.l10n.t('all workspaces') };
  const message =
    check.decision === 'allow'
      ? vscode.l10n.t('Allowed without asking: {0}', command)
      : check.decision === 'deny'
        ? vscode.l10n.t('Denied without asking: {0}', command)
        : vscode.l10n.t('Asked: {0}', command);
  const lines = [
    ...check.rules.map((rule) => vscode.l10n.t('Rule: {0} ({1}; from {2})', rule.label, scopes[rule.scope], rule.source)),
    vscode.l10n.t('Why: {0}', check.reason),
    ...(check.summary ? [vscode.l10n.t('What it does: {0}', check.summary)] : []),
  ];
  // Every hidden character as a marker (⟨U+200B⟩), in the line and in what is said of it.
  return { message: markInvisible(message), detail: markInvisible(lines.join('\n')) };
}

export function registerPermissionCommands(context: vscode.ExtensionContext, permissions: RememberedPermissions): void {
  context.subscriptions.push(
    // With a command line as argument (tests, other extensions): returns the check, shows nothing.
    vscode.commands.registerCommand('agentQuestions.checkCommand', async (line?: unknown): Promise<CommandCheck | undefined> => {
      if (typeof line === 'string') return checkCommand(permissions, line);
      let value = '';
      for (;;) {
        const command = await vscode.window.showInputBox({
          title: vscode.l10n.t('Agent Questions: Check a Command'),
          prompt: vscode.l10n.t('A shell command line, as an agent would run it: see whether the remembered rules and settings allow it, deny it or ask, and what it does.'),
          placeHolder: 'git status',
          value,
          ignoreFocusOut: true,
          validateInput: (text) => (text.trim() ? undefined : vscode.l10n.t('Type a command line.')),
        });
        if (command === undefined || !command.trim()) return undefined;
        const { message, detail } = checkText(command, await checkCommand(permissions, command));
        const copy = vscode.l10n.t('Copy');
        const again = vscode.l10n.t('Check Another…');
        const choice = await vscode.window.showInformationMessage(message, { modal: true, detail }, copy, again);
        if (choice === copy) await vscode.env.clipboard.writeText(`${message}\n${detail}`);
        if (choice !== again) return undefined;
        value = command;
      }
    }),
    vscode.commands.registerCommand('agentQuestions.clearRememberedPermissions', async () => {
      await permissions.clear();
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: remembered "Always allow" permissions were cleared for this workspace.'));
    }),
    // Other extensions and tests may pass { forget: KEY, scope? } (no prompt), or { list: true } for the rules
    // ({ list: true, agentGrants: true }: with every agent's own grants, translated, and the files it could not read).
    vscode.commands.registerCommand('agentQuestions.manageRememberedPermissions', async (options?: ManageOptions) => {
      if (options?.forget !== undefined) return permissions.forget(options.forget, options.scope);
      const rules = permissions.list();
      // When a rule ends, as the quick pick says it: "ends in 23 h", "ends 12 Dec".
      const ends = (expiresAt: number | undefined) => (expiresAt !== undefined ? [localizedEnd(expiresAt, permissions.now())] : []);
      const listed = () =>
        rules.map(({ key, label, decision, scope, source, uses, expiresAt }) => ({
          key,
          label,
          decision,
          scope,
          source,
          uses,
          ...(expiresAt !== undefined ? { expiresAt, ends: ends(expiresAt)[0] } : {}),
        }));
      if (options?.list && options.agentGrants) return { rules: listed(), ...(await agentGrantsOrProblem(permissions, context.globalStorageUri)) };
      if (options?.list) return listed();
      const agents = await agentGrantsOrProblem(permissions, context.globalStorageUri);
      if (rules.length === 0 && agents.agentGrants.length === 0 && agents.problems.length === 0)
        return void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: no "Always allow" rule is remembered in this workspace.'));
      const scopes: Record<RuleScope, string> = { session: vscode.l10n.t('this session'), workspace: vscode.l10n.t('this workspace'), user: vscode.l10n.t('all workspaces') };
      const clearAll = {
        label: `$(clear-all) ${vscode.l10n.t('Forget All')}`,
        description: vscode.l10n.t('{0} remembered', rules.length),
        key: undefined,
        scope: undefined,
        name: '',
      };
      // A workspace write rule and a runner rule: the agent can write code and run it, as the user.
      const together = writeAndRun(rules)
        ? [
            {
              label: `$(warning) ${vscode.l10n.t("«Write in the workspace» and a rule that runs the workspace's code, together")}`,
              detail: vscode.l10n.t(
                'Together they let the agent run any code it writes, as you, wherever it does not run in its sandbox (OpenCode, Codex leaving its sandbox, Claude Code without its sandbox). Forget one of them to stop it.',
              ),
              key: undefined,
              scope: undefined,
              name: '',
              warning: true,
            },
          ]
        : [];
      const broader = broaderGrants(agents.agentGrants);
      const header = broader.length
        ? [
            {
              label: `$(warning) ${vscode.l10n.t("{0} of the agents' own grants allow what your rules would ask", broader.length)}`,
              detail: vscode.l10n.t('The agent decides them before Agent Questions sees the call. Pick one below to replace it with a narrower rule.'),
              key: undefined,
              scope: undefined,
              name: '',
              warning: true,
            },
          ]
        : [];
      const picked = await vscode.window.showQuickPick(
        [
          ...header,
          ...together,
          ...rules.map((rule) => ({
            label: `${rule.decision === 'allow' ? '$(check)' : '$(circle-slash)'} ${uiText(rule.label, 100)}`,
            description: [
              rule.decision === 'allow' ? vscode.l10n.t('Always allow') : vscode.l10n.t('Always deny'),
              scopes[rule.scope],
              // Early in the row: a narrow quick pick cuts the end of it.
              ...ends(rule.expiresAt),
              rule.createdAt
                ? vscode.l10n.t('granted to {0} (as it named itself) · {1}', uiText(rule.source, 60), localizedAge(rule.createdAt))
                : vscode.l10n.t('in your settings'),
              vscode.l10n.t('used {0} times', rule.uses),
            ].join(' · '),
            detail: uiText(rule.description, 200),
            key: rule.key,
            scope: rule.scope,
            name: uiText(rule.label, 100),
          })),
          ...(rules.length > 0 ? [clearAll] : []),
          ...agentGrantItems(agents),
        ],
        {
          title: vscode.l10n.t('Agent Questions: Remembered Permissions'),
          placeHolder: vscode.l10n.t('Pick a rule to forget it: the agent will be asked again'),
        },
      );
      if (!picked || ('warning' in picked && picked.warning)) return;
      if ('file' in picked && typeof picked.file === 'string') return openOrReplace(picked.file, 'grant' in picked ? (picked.grant as TranslatedGrant) : undefined);
      if (!('key' in picked)) return;
      const question =
        picked.key !== undefined
          ? vscode.l10n.t('Forget "Always allow {0}"?', picked.name)
          : rules.length === 1
            ? vscode.l10n.t('Forget the 1 remembered rule?')
            : vscode.l10n.t('Forget all {0} remembered rules?', rules.length);
      const forget = vscode.l10n.t('Forget');
      const confirmed = await vscode.window.showWarningMessage(question, { modal: true, detail: vscode.l10n.t('Agents will be asked again before these calls run.') }, forget);
      if (confirmed !== forget) return;
      await (picked.key === undefined ? permissions.clear() : permissions.forget(picked.key, picked.scope));
    }),
  );
}
