// Keeps the chat's token counter warm while ask_user waits for the human. Copilot Chat counts the
// tokens of new prompt text in a worker thread that it ends 15 s after its last use; the first new
// text after that (the user's answer) waits 1-2 s for a new worker to load its token file. Counting a
// short string through the invocation's own `countTokens` (the same tokenizer) keeps that worker alive.
// Imports no 'vscode', so the unit tests drive it with short intervals.
import { mark } from './benchTrace';

/** Well under the 15 s after which Copilot Chat ends its tokenizer worker. */
export const KEEP_WARM_INTERVAL_MS = 10_000;

/** The part of `vscode.LanguageModelToolTokenizationOptions` used here. */
export interface TokenCounter {
  countTokens(text: string): PromiseLike<number>;
}

/**
 * Counts a new, meaningless string every `intervalMs` until the returned stop function is called.
 * Nothing happens without a counter (tools invoked without tokenization options). Errors are
 * swallowed; `onError` hears only the first one.
 */
export function keepTokenizerWarm(counter: TokenCounter | undefined, onError: (error: unknown) => void, intervalMs = KEEP_WARM_INTERVAL_MS): () => void {
  if (!counter) return () => undefined;
  let ticks = 0;
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    onError(error);
  };
  const timer = setInterval(() => {
    ticks += 1;
    // New text every time: Copilot answers a string it has counted before from a cache, without the worker.
    const text = `waiting for the user ${ticks} ${Date.now().toString(36)}`;
    mark('keep warm');
    try {
      Promise.resolve(counter.countTokens(text)).then(() => mark('keep warm counted'), fail);
    } catch (error) {
      fail(error);
    }
  }, intervalMs);
  return () => clearInterval(timer);
}
