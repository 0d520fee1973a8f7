// What every hook command does with its process: read stdin to the end (bounded), stop waiting when
// the agent does (a signal, or its parent exits without one), refuse input nested too deep to send on,
// and exit as soon as its answer is written.
// node:net is loaded only when a stream is needed: loading it costs a Node process 4-5 ms, and a hook
// that decides without the endpoint (VS Code's agent's read-only tools) never needs it.
import { fstatSync, readSync, writeSync } from 'node:fs';

const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** A terminal, /dev/null, /dev/zero: no agent's input, and /dev/zero would never end. */
function isCharacterDevice(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

/**
 * Stdin (or `fd`) to its end ('' from a terminal or another character device, or past the cap). Read
 * synchronously: the agent writes the input and closes it before it waits, and a stream would cost the
 * hook's start-up milliseconds more. A non-blocking stdin (EAGAIN: an agent whose runtime is not libuv
 * may hand one over) is read on as a stream. Never touches `process.stdin` before that: making it sets
 * the pipe non-blocking.
 */
export function readStdin(fd = 0): Promise<string> {
  if (isCharacterDevice(fd)) return Promise.resolve('');
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  for (;;) {
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        const { Socket } = require('node:net') as typeof import('node:net');
        return readStream(fd === 0 ? process.stdin : new Socket({ fd, readable: true, writable: false }), chunks, size);
      }
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

/**
 * Writes `bytes` to `fd` synchronously, as far as it goes; what is left when the pipe is non-blocking
 * and full (EAGAIN). The rest is dropped on any other error: nobody reads it (EPIPE).
 */
function writeNow(fd: number, bytes: Buffer): Buffer {
  try {
    while (bytes.length > 0) bytes = bytes.subarray(writeSync(fd, bytes));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return Buffer.alloc(0);
  }
  return bytes;
}

/**
 * Writes the hook's answer and exits once it is written: a natural exit takes milliseconds more, and
 * nothing is left to wait for. Written synchronously (process.stdout on a pipe is a node:net socket);
 * a full non-blocking pipe gets the rest through the streams, and the exit waits for them.
 */
export function exitWith(outcome: { exitCode: number; stdout: string; stderr: string }): void {
  const exit = () => process.exit(outcome.exitCode);
  const stderr = writeNow(2, Buffer.from(outcome.stderr));
  const stdout = stderr.length > 0 ? Buffer.from(outcome.stdout) : writeNow(1, Buffer.from(outcome.stdout));
  if (stderr.length === 0 && stdout.length === 0) return exit();
  const rest = () => (stdout.length > 0 ? process.stdout.write(stdout, exit) : exit());
  if (stderr.length > 0) process.stderr.write(stderr, rest);
  else rest();
}

/**
 * Aborted on SIGTERM, SIGINT or SIGHUP, or when the parent goes (an agent that dies without a signal
 * leaves us to a new parent), once `watch()` is called: when a person is asked. A rule's decision takes
 * milliseconds, and a signal before it ends the hook as a kill would, with no decision.
 */
export function agentStopped(): { signal: AbortSignal; watch: () => void; done: () => void } {
  const stop = new AbortController();
  const parent = process.ppid;
  let watching: NodeJS.Timeout | undefined;
  const watch = () => {
    if (watching) return;
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
    watching = setInterval(() => {
      if (process.ppid !== parent) stop.abort();
    }, 500);
    watching.unref();
  };
  return { signal: stop.signal, watch, done: () => clearInterval(watching) };
}

/** The user's home folder; node:os is loaded only here, when a hook needs it (loading it costs a Node process 0.4 ms). */
export function homeFolder(): string {
  return (require('node:os') as typeof import('node:os')).homedir();
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
