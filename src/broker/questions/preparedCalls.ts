// Tool calls VS Code has prepared but not yet invoked: each gets a preview id, is claimed by the
// invocation that runs it (the same input, from the same chat when that can be told), and is
// withdrawn after a bounded time when no invocation comes (the user skipped VS Code's confirmation,
// or the turn was stopped; "a call to prepareInvocation is not necessarily followed by invoke").
export interface PreparedCallsOptions {
  /** How long a prepared call waits for its invocation before it is withdrawn. */
  holdMs: number;
  newId: () => string;
  /** Called once for each prepared call that no invocation claimed in time. */
  withdraw: (previewId: string) => void;
  /** At most this many calls are held; a new one past it withdraws the oldest. */
  max?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

interface Held {
  previewId: string;
  input: string;
  session: string;
  timer: unknown;
}

export class PreparedCalls {
  private held: Held[] = [];
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly options: PreparedCallsOptions) {
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  get size(): number {
    return this.held.length;
  }

  /** Holds a prepared call and returns its preview id. `session`: the chat it came from, '' when unknown. */
  prepare(input: unknown, session: string): string {
    const previewId = this.options.newId();
    const timer = this.setTimer(() => this.drop(previewId), this.options.holdMs);
    this.held.push({ previewId, input: canonical(input), session, timer });
    if (this.held.length > (this.options.max ?? 20)) this.drop(this.held[0]!.previewId);
    return previewId;
  }

  /**
   * The prepared call this invocation runs: the oldest with the same input from the same session,
   * else the oldest with the same input (the session's form is VS Code's internal detail; two calls
   * with the same input show the same question). It is no longer held: nothing withdraws it.
   */
  claim(input: unknown, session: string): string | undefined {
    const json = canonical(input);
    const sameSession = session ? this.held.findIndex((h) => h.input === json && h.session === session) : -1;
    const index = sameSession >= 0 ? sameSession : this.held.findIndex((h) => h.input === json);
    if (index < 0) return undefined;
    const [claimed] = this.held.splice(index, 1);
    this.clearTimer(claimed!.timer);
    return claimed!.previewId;
  }

  /** Stops every timer (deactivation: the panel goes too, so nothing is withdrawn). */
  dispose(): void {
    for (const { timer } of this.held) this.clearTimer(timer);
    this.held = [];
  }

  private drop(previewId: string): void {
    const index = this.held.findIndex((h) => h.previewId === previewId);
    if (index < 0) return;
    const [dropped] = this.held.splice(index, 1);
    this.clearTimer(dropped!.timer);
    this.options.withdraw(previewId);
  }
}

/** The input as JSON: prepare and invoke each receive their own copy of the same object. */
function canonical(input: unknown): string {
  try {
    return JSON.stringify(input) ?? 'undefined';
  } catch {
    return String(input);
  }
}
