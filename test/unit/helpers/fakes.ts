// Plain in-memory stand-ins for the broker's ports (no vscode involved).
import { QuestionBroker, type NewQuestionRequest } from '../../../src/broker/broker';
import type { CancellationSignal } from '../../../src/broker/events';
import type { Policy } from '../../../src/broker/askWithPolicy';
import type { Route } from '../../../src/broker/policy';
import { join } from 'node:path';
import { RememberedPermissions } from '../../../src/broker/permissions/rememberedPermissions';
import { loadCommandChecker } from '../../../src/extension/shellModule';
import type { ParsedAnswersFile } from '../../../src/broker/scriptedAnswers';
import type { KeyValueStore } from '../../../src/broker/store';
import { ROOT } from './repoRoot';

export class MemoryStore implements KeyValueStore {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  update(key: string, value: unknown): Promise<void> {
    this.data.set(key, structuredClone(value));
    return Promise.resolve();
  }
}

export function makeBroker() {
  let next = 0;
  const logs: string[] = [];
  const broker = new QuestionBroker({ newId: () => `r${++next}`, now: () => 1000 + next, log: (m) => logs.push(m) });
  return { broker, logs };
}

/** The shell parser and rules, from the package's WASM files (the extension loads the same files from dist/). */
export const loadTestChecker = () => loadCommandChecker(join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm'));

export function makePolicy(route: Route = { kind: 'ask' }, file: ParsedAnswersFile = { ok: true, entries: {} }): Policy & { store: MemoryStore; route(): Route } {
  const store = new MemoryStore();
  return {
    route: () => route,
    loadAnswersFile: () => Promise.resolve(file),
    permissions: new RememberedPermissions(store, { loadChecker: loadTestChecker, workspaceFolders: () => ['/home/dev/project'] }),
    store,
  };
}

export function cancellation(): CancellationSignal & { cancel(): void } {
  const listeners = new Set<() => void>();
  let cancelled = false;
  return {
    get isCancellationRequested() {
      return cancelled;
    },
    onCancellationRequested(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    cancel() {
      if (cancelled) return;
      cancelled = true;
      for (const l of [...listeners]) l();
    },
  };
}

export const DB_QUESTION: NewQuestionRequest = {
  source: { type: 'tool', label: 'Chat tool' },
  questions: [{ id: 'db', header: 'Database', question: 'Which?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true }],
};
