// Watches the agents' own grant files and says once, per grant, when one allows what our rules
// would ask: "Claude Code's own settings allow `Bash(npm:*)`: it runs without asking you here."
// A file watcher, no polling: a "don't ask again" in Claude Code's terminal, or a pull that brings
// a .claude/settings.json, is read again within a moment. Nothing is read until a file holds grants,
// so a window without any pays nothing for the command rules.
import * as vscode from 'vscode';
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { TranslatedGrant } from '../broker/permissions/agentGrants/agentGrant';
import type { RememberedPermissions } from '../broker/permissions/rememberedPermissions';
import { uiText } from '../broker/visibleText';
import { agentGrantFileUris, agentGrants } from './agentGrantFiles';
import { broaderGrants, replaceable, type ReplaceGrantArgs } from './replaceAgentGrant';

/** The grants already named in a notification (globalState): each is said once, ever. */
const NOTIFIED = 'agentQuestions.notifiedAgentGrants';
/** Several writes of one save (or of a pull) are read once. */
const SETTLE_MS = 300;

const grantKey = (grant: TranslatedGrant) => `${grant.file}\n${grant.list}\n${grant.rule}`;

export function watchAgentGrants(context: vscode.ExtensionContext, permissions: RememberedPermissions, log: vscode.LogOutputChannel): void {
  /** What each notification named (tests read it through an internal command). */
  const notices: Array<{ message: string; grants: string[] }> = [];
  let watchers: FSWatcher[] = [];
  let rewatch: ReturnType<typeof setTimeout> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checking = Promise.resolve();

  const check = async () => {
    // Nothing to translate until some agent's file exists: the command rules are not loaded for nothing.
    const found = await Promise.all(
      agentGrantFileUris().map((uri) =>
        vscode.workspace.fs.stat(uri).then(
          () => true,
          () => false,
        ),
      ),
    );
    if (!found.some(Boolean)) return;
    const { grants } = await agentGrants(permissions, context.globalStorageUri);
    const said = new Set(context.globalState.get<string[]>(NOTIFIED, []));
    // VS Code's own settings are the user's typing in its Settings, which warn about auto-approve themselves: listed, not announced.
    const fresh = broaderGrants(grants).filter((grant) => grant.agent !== 'VS Code' && !said.has(grantKey(grant)));
    if (fresh.length === 0) return;
    await context.globalState.update(NOTIFIED, [...said, ...fresh.map(grantKey)]);
    const first = fresh[0]!;
    const message =
      fresh.length === 1
        ? vscode.l10n.t("{0}'s own settings allow {1}: it runs without asking you here.", first.agent, `\`${uiText(first.rule, 80)}\``)
        : vscode.l10n.t("{0}'s own settings allow {1} and {2} more: they run without asking you here.", first.agent, `\`${uiText(first.rule, 80)}\``, fresh.length - 1);
    notices.push({ message, grants: fresh.map((grant) => grant.rule) });
    log.info(`The agents' own settings allow what Agent Questions would ask: ${fresh.map((grant) => `${grant.agent}: ${grant.rule} (${grant.file})`).join(', ')}.`);
    const replace = vscode.l10n.t('Replace with a Narrower Rule…');
    const show = vscode.l10n.t('Show All Grants');
    // Not awaited: the next change is read while this notification waits for the user.
    void vscode.window.showWarningMessage(message, ...(replaceable(first) ? [replace] : []), show).then((choice) => {
      if (choice === replace && replaceable(first)) void vscode.commands.executeCommand('agentQuestions.replaceAgentGrant', { grant: first } satisfies ReplaceGrantArgs);
      if (choice === show) void vscode.commands.executeCommand('agentQuestions.manageRememberedPermissions');
    });
  };
  // One check at a time, the last change always read.
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      checking = checking.then(check).catch((error: unknown) => log.warn(`Reading the agents' own grants failed: ${error instanceof Error ? error.message : String(error)}`));
    }, SETTLE_MS);
  };
  const watch = () => {
    for (const watcher of watchers) watcher.close();
    // Node's watcher on each folder a store is in, and the folder above it (where `.claude/` appears):
    // VS Code's own watcher did not report files written on the disk in code-server's extension host.
    const files = agentGrantFileUris().filter((uri) => uri.scheme === 'file');
    const folders = new Set(files.flatMap((uri) => [uri.fsPath, dirname(uri.fsPath), dirname(dirname(uri.fsPath))]));
    watchers = [...folders].flatMap((folder) => {
      try {
        // A change anywhere here may add a store or a folder for one: read again, and watch again.
        return [fsWatch(folder, { persistent: false }, changed).on('error', () => undefined)];
      } catch {
        return []; // not there (yet), or not a folder: its parent's watcher sees it appear
      }
    });
  };
  const changed = () => {
    soon();
    clearTimeout(rewatch);
    rewatch = setTimeout(watch, SETTLE_MS);
  };
  // After activation, as for a change: the watchers start and the grants are first read SETTLE_MS later.
  changed();
  context.subscriptions.push(
    vscode.workspace.onDidChangeWorkspaceFolders(watch),
    vscode.commands.registerCommand('agentQuestions.internal.agentGrantNotices', () => notices),
    { dispose: () => (clearTimeout(timer), clearTimeout(rewatch), watchers.forEach((watcher) => watcher.close())) },
  );
}
