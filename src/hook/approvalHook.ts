// `node approvalHook.js <agent>`: the command an agent's permission hook runs (see runHook.ts).
// Reads stdin to the end, waits for the user's decision in the panel, and gives up (the panel
// settles the request as cancelled) when the agent stops waiting: a signal, or its parent exits.
import { runHook } from './runHook';

const MAX_INPUT_BYTES = 8 * 1024 * 1024;

function readStdin(): Promise<string> {
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

async function main(): Promise<void> {
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => stop.abort());
  // An agent that dies without a signal leaves us to a new parent.
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop.abort();
  }, 500);
  watch.unref();

  const stdin = process.stdin.isTTY ? '' : await readStdin();
  const outcome = await runHook({ args: process.argv.slice(2), stdin, env: process.env, signal: stop.signal });
  clearInterval(watch);
  if (outcome.stderr) process.stderr.write(outcome.stderr);
  if (outcome.stdout) process.stdout.write(outcome.stdout);
  process.exitCode = outcome.exitCode;
}

// Fails closed quietly: whatever went wrong, no decision, one line, and the agent asks itself.
main().catch((error: unknown) => {
  process.stderr.write(`Agent Questions hook: unexpected error (${error instanceof Error ? error.name : 'unknown'}); the agent asks you itself.\n`);
  process.exitCode = 1;
});
