// `node approvalHook.js <agent>`: the command an agent's permission hook runs (see runHook.ts).
// Reads stdin to the end, waits for the user's decision in the panel, and gives up (the panel
// settles the request as cancelled) when the agent stops waiting: a signal, or its parent exits.
import { runHook } from './runHook';
import { agentStopped, exitWith, readStdin } from './hookProcess';

async function main(): Promise<void> {
  const stop = agentStopped();
  const stdin = await readStdin();
  const outcome = await runHook({ args: process.argv.slice(2), stdin, env: process.env, signal: stop.signal, onAsking: stop.watch });
  stop.done();
  exitWith(outcome);
}

// Fails closed quietly: whatever went wrong, no decision, one line, and the agent asks itself.
main().catch((error: unknown) => {
  process.stderr.write(`Agent Questions hook: unexpected error (${error instanceof Error ? error.name : 'unknown'}); the agent asks you itself.\n`);
  process.exitCode = 1;
});
