// Secret answers: values live only in VS Code's SecretStorage, keyed by the environment variable
// they are for, and reach new integrated terminals through a non-persistent environment
// collection. Only the names are kept elsewhere (global state), never a value.
import * as vscode from 'vscode';
import { Emitter } from '../broker/events';

const NAMES_KEY = 'agentQuestions.storedSecretNames';

export class SecretVault implements vscode.Disposable {
  private readonly changed = new Emitter<string[]>();
  /** Fires with the stored names whenever one is added or deleted. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly globalState: vscode.Memento,
    private readonly environment: vscode.GlobalEnvironmentVariableCollection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // Never written to VS Code's state on disk; restored from SecretStorage on activation.
    environment.persistent = false;
    this.describe();
  }

  static keyFor(envVar: string): string {
    return `agentQuestions.secret.${envVar}`;
  }

  names(): string[] {
    const saved = this.globalState.get<unknown>(NAMES_KEY);
    return Array.isArray(saved) ? saved.filter((n): n is string => typeof n === 'string').sort() : [];
  }

  has(envVar: string): boolean {
    return this.names().includes(envVar);
  }

  async get(envVar: string): Promise<string | undefined> {
    return this.secrets.get(SecretVault.keyFor(envVar));
  }

  async store(envVar: string, value: string): Promise<void> {
    await this.secrets.store(SecretVault.keyFor(envVar), value);
    this.environment.replace(envVar, value, { applyAtProcessCreation: true, applyAtShellIntegration: false });
    if (!this.has(envVar)) await this.globalState.update(NAMES_KEY, [...this.names(), envVar]);
    this.describe();
    this.log.info(`Stored a secret for ${envVar}; new terminals get it as an environment variable.`);
    this.changed.fire(this.names());
  }

  async delete(envVar: string): Promise<void> {
    await this.secrets.delete(SecretVault.keyFor(envVar));
    this.environment.delete(envVar);
    await this.globalState.update(NAMES_KEY, this.names().filter((n) => n !== envVar));
    this.describe();
    this.log.info(`Deleted the stored secret for ${envVar}.`);
    this.changed.fire(this.names());
  }

  /** Puts every stored secret back into the terminal environment (the collection is not persisted). */
  async restore(): Promise<void> {
    for (const name of this.names()) {
      const value = await this.get(name);
      if (value === undefined) await this.globalState.update(NAMES_KEY, this.names().filter((n) => n !== name));
      else this.environment.replace(name, value, { applyAtProcessCreation: true, applyAtShellIntegration: false });
    }
    this.describe();
    this.changed.fire(this.names());
  }

  private describe(): void {
    const names = this.names();
    this.environment.description = names.length
      ? new vscode.MarkdownString(`Agent Questions: secrets you typed for agents, kept in VS Code's secret storage (${names.map((n) => `\`$${n}\``).join(', ')}). Manage them with **Agent Questions: Manage Stored Secrets**.`)
      : undefined;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
