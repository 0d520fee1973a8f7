// Secret answers live in VS Code's SecretStorage, keyed by the environment variable they are for.
import type * as vscode from 'vscode';

export class SecretVault {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  static keyFor(envVar: string): string {
    return `agentQuestions.secret.${envVar}`;
  }

  async store(envVar: string, value: string): Promise<void> {
    await this.secrets.store(SecretVault.keyFor(envVar), value);
  }
}
