// "Always allow" rules, remembered per workspace: each with what it allows, who it was first
// granted to, and when. Rules are narrow (see permissionRules.ts); the user can forget any one.
import type { NewPermissionRequest } from './broker';
import { ruleAllows } from './permissionRules';
import type { RememberOption } from './schemas';
import type { KeyValueStore } from './store';

// A new key: rules of earlier builds (a bare tool name, under another key) are never honoured again.
const KEY = 'agentQuestions.permissionRules';

export interface PermissionRule extends RememberOption {
  /** Who asked when the user chose "Always allow" (as that asker named itself). */
  source: string;
  createdAt: number;
}

const isRule = (value: unknown): value is PermissionRule =>
  typeof value === 'object' && value !== null && ['key', 'label', 'description', 'source'].every((k) => typeof (value as Record<string, unknown>)[k] === 'string');

export class RememberedPermissions {
  constructor(
    private readonly store: KeyValueStore,
    private readonly now: () => number = Date.now,
  ) {}

  list(): PermissionRule[] {
    const saved = this.store.get<unknown>(KEY);
    return Array.isArray(saved) ? saved.filter(isRule) : [];
  }

  /** The remembered rule that allows this request, if any. */
  allowing(request: NewPermissionRequest): PermissionRule | undefined {
    return this.list().find((rule) => ruleAllows(rule.key, request));
  }

  async remember(option: RememberOption, source: string): Promise<void> {
    if (this.list().some((r) => r.key === option.key)) return;
    await this.store.update(KEY, [...this.list(), { key: option.key, label: option.label, description: option.description, source, createdAt: this.now() }]);
  }

  async forget(key: string): Promise<void> {
    await this.store.update(KEY, this.list().filter((r) => r.key !== key));
  }

  async clear(): Promise<void> {
    await this.store.update(KEY, []);
  }
}
