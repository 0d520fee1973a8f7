// What a rule for a tool that runs the workspace's code (shell/runners.ts) may allow: a call the
// agent runs in its own sandbox, or one whose confinement no hook told (covered, not confined);
// never a call that leaves the sandbox. And the warning for a workspace write rule held together
// with a runner rule: with both, the agent can write code and run it, as the user. No `vscode`.
import type { Confinement } from '../contract/wireNames';
import { runnerFor, type Runner } from './shell/runners';

/** Tools whose "in the workspace" rule writes files: Claude Code's, OpenCode's, Codex's. */
const WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'write', 'edit', 'patch', 'apply_patch']);

/** Said on a runner rule offered where no hook says the agent runs it in a sandbox. */
export const NOT_CONFINED = "Not confined: this call runs in no sandbox we know of, so what the workspace's code does, it does as you.";

/** Said where a user holds both, or is offered the second. */
export const WRITE_AND_RUN_WARNING =
  "Together with a rule that writes in the workspace, a rule for a tool that runs the workspace's code lets the agent run any code it writes, as you, wherever it does not run in its sandbox.";

/** A program's name as written in a rule (`/usr/bin/make` → `make`); the shell tables load lazily, so not theirs. */
const programName = (word: string) => (word.split(/[\\/]/).pop() ?? word).toLowerCase();

/**
 * The runner a line's parts run, looked for at every word of each part (a wrapper such as `env`,
 * `time` or `xvfb-run` puts it later): a false match only asks.
 */
export function runnerIn(parts: ReadonlyArray<{ command: { words: readonly string[] } }>): (Runner & { name: string }) | undefined {
  for (const { command } of parts)
    for (let i = 0; i < command.words.length; i++) {
      const name = [programName(command.words[i]!), command.words[i + 1] ?? ''].join(' ').trim();
      const runner = runnerFor(name);
      if (runner) return { ...runner, name: name.split(' ')[0]! };
    }
  return undefined;
}

/** Why a runner rule does not cover this call, or undefined when it may. */
export function leavesSandbox(confinement: Confinement | undefined, parts: ReadonlyArray<{ command: { words: readonly string[] } }>): string | undefined {
  if (confinement !== 'unsandboxed') return undefined;
  const runner = runnerIn(parts);
  if (!runner) return undefined;
  return `${runner.name} runs this workspace's code (${runner.runs}); a rule for it covers a call only inside the agent's sandbox, and this call runs outside it.`;
}

/** Whether a command rule, by its label («npm test …», `make test`), is a runner's. */
export const isRunnerLabel = (label: string): boolean => runnerFor(label.replace(/\s*…$/, '')) !== undefined;

/** Whether a remembered tool rule is a workspace write rule («Write in the workspace»). */
export function isWorkspaceWriteKey(key: string): boolean {
  const match = /^tool:([^\n]+)\nworkspace$/.exec(key);
  return match !== null && WRITING_TOOLS.has(match[1]!);
}
