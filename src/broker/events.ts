// A minimal typed event, shaped like vscode.Event so adapters can pass it straight through.

export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    // A Set may be iterated while listeners remove themselves; no copy needed on this hot path.
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch {
        // A failing listener must not stop the others or the broker that fired the event.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** The part of a cancellation token the broker needs; vscode.CancellationToken fits it. */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): Disposable;
}
