// Which secrets are stored and where they apply: a record per name and scope, kept in global state
// (names only, never a value). A secret given in a workspace is for that workspace unless the user
// marks it for all workspaces; the values live in SecretStorage under a key per record.
import type { KeyValueStore } from '../store';

export type SecretScope = 'workspace' | 'all';

export interface SecretRecord {
  name: string;
  scope: SecretScope;
  /** The workspace it was given in, for scope 'workspace'. */
  workspace?: string;
}

const KEY = 'agentQuestions.storedSecrets';
/** Before scopes existed: a list of names, each stored for all workspaces. */
const LEGACY_KEY = 'agentQuestions.storedSecretNames';

export class SecretRecords {
  constructor(
    private readonly store: KeyValueStore,
    /** This window's workspace (see SecretVault): records of other workspaces never apply here. */
    readonly workspace: string,
  ) {}

  /** Where a record's value lives in SecretStorage; an all-workspaces secret keeps the key it always had. */
  static storageKey(record: SecretRecord): string {
    return record.scope === 'all' ? `agentQuestions.secret.${record.name}` : `agentQuestions.secret.${record.workspace}.${record.name}`;
  }

  /** Every record, of every workspace. */
  all(): SecretRecord[] {
    const saved = this.store.get<unknown>(KEY);
    if (Array.isArray(saved)) return saved.filter(isRecord);
    const legacy = this.store.get<unknown>(LEGACY_KEY);
    return Array.isArray(legacy) ? legacy.filter((n): n is string => typeof n === 'string').map((name) => ({ name, scope: 'all' })) : [];
  }

  /** The records that apply in this workspace, by name; this workspace's own one wins over an all-workspaces one. */
  here(): SecretRecord[] {
    const byName = new Map<string, SecretRecord>();
    for (const record of this.all()) {
      if (record.scope === 'workspace' && record.workspace !== this.workspace) continue;
      if (!byName.has(record.name) || record.scope === 'workspace') byName.set(record.name, record);
    }
    return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  find(name: string): SecretRecord | undefined {
    return this.here().find((r) => r.name === name);
  }

  /** Every record here with this name: this workspace's own and the all-workspaces one. */
  allNamed(name: string): SecretRecord[] {
    return this.all().filter((r) => r.name === name && (r.scope === 'all' || r.workspace === this.workspace));
  }

  /** A new record for a secret given here. */
  recordFor(name: string, scope: SecretScope): SecretRecord {
    return scope === 'all' ? { name, scope } : { name, scope, workspace: this.workspace };
  }

  async add(record: SecretRecord): Promise<void> {
    await this.save([...this.all().filter((r) => !same(r, record)), record]);
  }

  async remove(record: SecretRecord): Promise<void> {
    await this.save(this.all().filter((r) => !same(r, record)));
  }

  private async save(records: SecretRecord[]): Promise<void> {
    await this.store.update(KEY, records);
    // The old list is folded into the new one on the first write.
    if (this.store.get(LEGACY_KEY) !== undefined) await this.store.update(LEGACY_KEY, undefined);
  }
}

const same = (a: SecretRecord, b: SecretRecord) => a.name === b.name && a.scope === b.scope && a.workspace === b.workspace;

function isRecord(value: unknown): value is SecretRecord {
  if (value === null || typeof value !== 'object') return false;
  const { name, scope, workspace } = value as Record<string, unknown>;
  if (typeof name !== 'string') return false;
  return scope === 'all' || (scope === 'workspace' && typeof workspace === 'string');
}
