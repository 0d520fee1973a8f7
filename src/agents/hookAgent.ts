// What one agent's hook adapter is: how its hook input becomes an `approve` call and how the
// decision is printed for it. Its own module, so the adapters and their registry (hookRegistry.ts)
// import it without importing each other.
import type { ApproveCall, ApproveDecision } from '../hook/mcpApprove';
import type { Confinement } from '../broker/contract/wireNames';

export interface HookAgent {
  /** The approve call the hook input asks for, or why the input is not one this command answers. */
  approveCall(input: unknown): ApproveCall | { problem: string };
  /** The folder the agent runs the call in (absolute), as its hook input says; '' when it says none. */
  folder(input: unknown): string;
  /** Whether the agent runs this call in its sandbox (`env`: the hook's environment). */
  confinement(input: unknown, env: Record<string, string | undefined>): Confinement;
  /** The decision as the agent's hook reads it on stdout; `input` is the hook input it answers. */
  output(decision: ApproveDecision, input: unknown): string;
  /** The exit code that gives no decision, so the agent's own prompt takes over (it shows stderr). */
  noDecisionExitCode: number;
  /**
   * What a request with no decision becomes (the endpoint unreachable, no answer by the hook's
   * deadline, the endpoint gone, the hook stopped): `handBack` leaves it to the agent's own prompt
   * (noDecisionExitCode); `deny` answers a denial, for agents where "no decision" may let the call run.
   */
  undecided: 'handBack' | 'deny';
  /** How long the agent waits for its hook (the `timeout` we hand out): the hook answers before it. */
  hookTimeoutMs: number;
  /** Whether the input is another agent's that reads this agent's hook file (answered with nothing, exit 0: no decision, no warning). */
  foreign?(input: unknown): boolean;
  /** Whether the call goes the agent's own way without us (exit 0, nothing printed): a call sent only to be checked, that passed. */
  ownWay?(input: unknown, env: Record<string, string | undefined>): boolean;
  /** What to print for an undecided call when exiting with noDecisionExitCode would let it run unasked; undefined when that exit is safe. */
  handBackOutput?(input: unknown, why: string): string | undefined;
  /** For agents that ask in their own prompt meanwhile: resolves once the user answered there. */
  answeredElsewhere?(input: unknown, signal: AbortSignal): Promise<void>;
}
