// The agents whose hooks run this command: how each one's hook input becomes an `approve` call and
// how the decision is printed for it. One entry per agent, each in its own file.
import { claudeCodeHook } from './claudeCodeHook';
import { codexHook } from './codexHook';
import { openCodeHook } from './openCodeHook';
import type { ApproveCall, ApproveDecision } from './mcpApprove';

export interface HookAgent {
  /** The agent's name, as the panel shows it. */
  name: string;
  /** The approve call the hook input asks for, or why the input is not one this command answers. */
  approveCall(input: unknown): ApproveCall | { problem: string };
  /** The decision as the agent's hook reads it on stdout; `input` is the hook input it answers. */
  output(decision: ApproveDecision, input: unknown): string;
  /** The exit code that gives no decision, so the agent's own prompt takes over (it shows stderr). */
  noDecisionExitCode: number;
  /** For agents that ask in their own prompt meanwhile: resolves once the user answered there. */
  answeredElsewhere?(input: unknown, signal: AbortSignal): Promise<void>;
}

/** Keyed by the command's `<agent>` argument (also the keys of HOOK_WAYS). */
export const HOOK_AGENTS: Readonly<Record<string, HookAgent>> = {
  'claude-code': claudeCodeHook,
  codex: codexHook,
  opencode: openCodeHook,
};
