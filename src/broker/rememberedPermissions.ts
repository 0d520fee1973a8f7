// "Always allow" decisions, remembered per workspace by permission key.
import type { KeyValueStore } from './store';

const KEY = 'agentQuestions.alwaysAllowed';

export class RememberedPermissions {
  constructor(private readonly store: KeyValueStore) {}

  list(): string[] {
    const saved = this.store.get<unknown>(KEY);
    return Array.isArray(saved) ? saved.filter((k): k is string => typeof k === 'string') : [];
  }

  isAlwaysAllowed(permissionKey: string): boolean {
    return this.list().includes(permissionKey);
  }

  async remember(permissionKey: string): Promise<void> {
    if (!this.isAlwaysAllowed(permissionKey)) await this.store.update(KEY, [...this.list(), permissionKey]);
  }

  async clear(): Promise<void> {
    await this.store.update(KEY, []);
  }
}
