// What every hook command does with its process: read stdin to the end (bounded), stop waiting when
// the agent does (a signal, or its parent exits without one), and refuse input nested too deep to send on.
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

export function readStdin(): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_INPUT_BYTES) chunks.push(chunk);
    });
    process.stdin.on('end', () => resolve(size > MAX_INPUT_BYTES ? '' : Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(''));
  });
}

/** Aborted on SIGTERM, SIGINT or SIGHUP, or when the parent goes (an agent that dies without a signal leaves us to a new parent). */
export function agentStopped(): { signal: AbortSignal; done: () => void } {
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop.abort();
  }, 500);
  watch.unref();
  return { signal: stop.signal, done: () => clearInterval(watch) };
}

/** Whether arrays and objects nest deeper than `max`, measured without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}
