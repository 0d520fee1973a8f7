// `node vscodeAgentHook.js [<timeout seconds>]`: the PreToolUse hook VS Code's own agent runs (see
// media/chat-plugin/hooks/hooks.json and vscodeAgentRun.ts). Always exits 0: any other exit is a
// warning in the chat and no decision, which VS Code may follow with an automatic approval.
import { runAgentHook } from './vscodeAgentRun';
import { agentStopped, exitWith, readStdin } from './hookProcess';

async function main(): Promise<void> {
  const stop = agentStopped();
  const stdin = await readStdin();
  const outcome = await runAgentHook({ args: process.argv.slice(2), stdin, env: process.env, signal: stop.signal, onAsking: stop.watch });
  stop.done();
  exitWith({ ...outcome, exitCode: 0 });
}

main().catch((error: unknown) => {
  process.stderr.write(`Agent Questions hook: unexpected error (${error instanceof Error ? error.name : 'unknown'}); no decision.\n`);
  process.exitCode = 0;
});
