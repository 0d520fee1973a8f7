// What every hook command does with its process: read stdin to the end (bounded), stop waiting when
// the agent does (a signal, or its parent exits without one), refuse input nested too deep to send on,
// and exit as soon as its answer is written.
import { readSync } from 'node:fs';
import { Socket } from 'node:net';
import { isatty } from 'node:tty';

const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * Stdin (or `fd`) to its end ('' from a terminal, or past the cap). Read synchronously: the agent writes
 * the input and closes it before it waits, and a stream would cost the hook's start-up milliseconds
 * more. A non-blocking stdin (EAGAIN: an agent whose runtime is not libuv may hand one over) is read on
 * as a stream. Never touches `process.stdin` before that: making it sets the pipe non-blocking.
 */
export function readStdin(fd = 0): Promise<string> {
  if (isatty(fd)) return Promise.resolve('');
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') return readStream(fd === 0 ? process.stdin : new Socket({ fd, readable: true, writable: false }), chunks, size);
      // Windows says EOF at a pipe's end.
      if (code === 'EOF') break;
      return Promise.resolve('');
    }
    if (read === 0) break;
    size += read;
    if (size <= MAX_INPUT_BYTES) chunks.push(Buffer.from(buffer.subarray(0, read)));
  }
  return Promise.resolve(size > MAX_INPUT_BYTES ? '' : Buffer.concat(chunks).toString('utf8'));
}

/** The rest of the input as a stream, after `chunks` (`size` bytes) read already. */
function readStream(stream: NodeJS.ReadableStream, chunks: Buffer[], size: number): Promise<string> {
  return new Promise((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_INPUT_BYTES) chunks.push(chunk);
    });
    stream.on('end', () => resolve(size > MAX_INPUT_BYTES ? '' : Buffer.concat(chunks).toString('utf8')));
    stream.on('error', () => resolve(''));
  });
}

/** Writes the hook's answer and exits once it is written: a natural exit takes milliseconds more, and nothing is left to wait for. */
export function exitWith(outcome: { exitCode: number; stdout: string; stderr: string }): void {
  const exit = () => process.exit(outcome.exitCode);
  const stdout = () => (outcome.stdout ? process.stdout.write(outcome.stdout, exit) : exit());
  if (outcome.stderr) process.stderr.write(outcome.stderr, stdout);
  else stdout();
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
