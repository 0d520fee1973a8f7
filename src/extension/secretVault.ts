// Secret answers: values live only in VS Code's SecretStorage and reach new integrated terminals
// through a non-persistent environment collection. A secret is for the workspace it was given in
// unless the user marks it for all workspaces; only names and scopes are kept elsewhere (global
// state, see SecretRecords), never a value.
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { envVarRefusal } from '../broker/secrets/envVarPolicy';
import { Emitter } from '../broker/events';
import { SecretRecords, type SecretRecord, type SecretScope } from '../broker/secrets/secretRecords';

export type { SecretScope } from '../broker/secrets/secretRecords';

/** This window's workspace: the workspace file or first folder, hashed; every window without a folder shares one. */
export function currentWorkspaceId(): string {
  const identity = (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? 'no folder';
  return createHash('sha256').update(identity).digest('hex').slice(0, 16);
}

export class SecretVault implements vscode.Disposable {
  private readonly changed = new Emitter<string[]>();
  /** Fires with the names stored for this workspace whenever one is added or deleted. */
  readonly onDidChange = this.changed.event;
  private readonly records: SecretRecords;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    globalState: vscode.Memento,
    private readonly environment: vscode.GlobalEnvironmentVariableCollection,
    private readonly log: vscode.LogOutputChannel,
    workspace = currentWorkspaceId(),
  ) {
    this.records = new SecretRecords(globalState, workspace);
    // Never written to VS Code's state on disk; restored from SecretStorage on activation.
    environment.persistent = false;
    this.describe();
  }

  /** The names that apply in this workspace (its own and those for all workspaces). */
  names(): string[] {
    return this.records.here().map((r) => r.name);
  }

  /** The same, with each one's scope. */
  list(): Array<{ name: string; scope: SecretScope }> {
    return this.records.here().map(({ name, scope }) => ({ name, scope }));
  }

  has(envVar: string): boolean {
    return this.records.find(envVar) !== undefined;
  }

  async get(envVar: string): Promise<string | undefined> {
    const record = this.records.find(envVar);
    return record && this.secrets.get(SecretRecords.storageKey(record));
  }

  /** Stores a value for this workspace (the default) or for all workspaces. */
  async store(envVar: string, value: string, scope: SecretScope = 'workspace'): Promise<void> {
    const refusal = envVarRefusal(envVar);
    if (refusal) throw new Error(`Refused to store a secret: ${refusal}.`);
    const record = this.records.recordFor(envVar, scope);
    await this.secrets.store(SecretRecords.storageKey(record), value);
    await this.records.add(record);
    // A value for all workspaces replaces this workspace's own one, or that would still win here.
    if (scope === 'all') for (const own of this.records.allNamed(envVar).filter((r) => r.scope === 'workspace')) await this.forget(own);
    this.environment.replace(envVar, value, { applyAtProcessCreation: true, applyAtShellIntegration: false });
    this.describe();
    this.log.info(`Stored a secret for ${envVar} (${scope === 'all' ? 'all workspaces' : 'this workspace'}); new terminals get it as an environment variable.`);
    this.changed.fire(this.names());
  }

  /** Deletes what applies here under this name: this workspace's own value and the one for all workspaces. */
  async delete(envVar: string): Promise<void> {
    for (const record of this.records.allNamed(envVar)) await this.forget(record);
    this.environment.delete(envVar);
    this.describe();
    this.log.info(`Deleted the stored secret for ${envVar}.`);
    this.changed.fire(this.names());
  }

  /** Puts the secrets for this workspace back into the terminal environment (the collection is not persisted). */
  async restore(): Promise<void> {
    for (const record of this.records.here()) {
      const value = await this.secrets.get(SecretRecords.storageKey(record));
      if (value === undefined) await this.records.remove(record);
      else if (envVarRefusal(record.name))
        this.log.warn(`Did not give new terminals the stored secret ${record.name}: that name changes how programs run. Delete it with Manage Stored Secrets.`);
      else this.environment.replace(record.name, value, { applyAtProcessCreation: true, applyAtShellIntegration: false });
    }
    this.describe();
    this.changed.fire(this.names());
  }

  private async forget(record: SecretRecord): Promise<void> {
    await this.secrets.delete(SecretRecords.storageKey(record));
    await this.records.remove(record);
  }

  private describe(): void {
    const names = this.names();
    this.environment.description = names.length
      ? new vscode.MarkdownString(
          vscode.l10n.t(
            "Agent Questions: secrets you typed for agents, kept in VS Code's secret storage ({0}). Manage them with **Agent Questions: Manage Stored Secrets**.",
            names.map((n) => `\`$${n}\``).join(', '),
          ),
        )
      : undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
