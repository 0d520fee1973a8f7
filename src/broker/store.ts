/** Where small state persists; vscode.Memento (workspaceState) fits it. */
export interface KeyValueStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}
