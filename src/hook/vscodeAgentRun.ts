// The work of the hook VS Code's own agent runs (dist/vscodeAgentHook.js), apart from its process so
// unit tests can drive it: read the PreToolUse input of either harness, decide at once what needs no
// one (vscodeAgentTools.ts), ask our `approve` tool for shell commands and edits, and answer in the
// harness's shape. Whatever leaves a call we route open (the endpoint unreachable, no answer before
// the hook's own time limit) is handed back as `ask`: VS Code's own confirmation, never a silent run.
import { HANDED_BACK_AT_DEADLINE } from '../broker/contract/wireNames';
import { askApprove, HookFailure } from './mcpApprove';
import { findEndpoint } from './findEndpoint';
import { homeFolder, nestedDeeperThan } from './hookProcess';
import { answerText, planFor, readToolCall } from './vscodeAgentTools';

export interface AgentHookRun {
  /** The command's arguments after the script: `[<hook timeout in seconds>]` (VS Code's default: 30). */
  args: string[];
  stdin: string;
  env: Record<string, string | undefined>;
  /** Aborted when VS Code stops the hook (the chat request was cancelled). */
  signal: AbortSignal;
  /** Called once a person must be asked (the hook then listens for VS Code stopping it). */
  onAsking?: () => void;
  home?: string;
  connectTimeoutMs?: number;
}

export interface AgentHookOutcome {
  stdout: string;
  stderr: string;
}

/** The client name the endpoint sees; self-reported like every client name. */
export const VSCODE_AGENT_CLIENT = { name: 'agent-questions-hook-vscode-agent', title: "VS Code's agent", version: '1' };
const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * When the hook hands the call back: a minute before VS Code's time limit, or a quarter of it when that
 * is short; sooner when the window's agentQuestions.vscodeAgent.waitSeconds says so.
 */
export function handBackAfterMs(timeoutSeconds: number, waitSeconds?: number): number {
  const timeoutMs = timeoutSeconds * 1000;
  const beforeLimit = timeoutMs - Math.min(60_000, timeoutMs / 4);
  return waitSeconds === undefined ? beforeLimit : Math.min(beforeLimit, waitSeconds * 1000);
}

const minutes = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 1000)} seconds` : `${Math.round(ms / 60_000)} minutes`);

export async function runAgentHook(run: AgentHookRun): Promise<AgentHookOutcome> {
  let input: unknown;
  try {
    input = JSON.parse(run.stdin);
  } catch {
    return { stdout: '', stderr: 'Agent Questions hook: the hook input is not JSON; no decision.\n' };
  }
  if (nestedDeeperThan(input, 64)) return { stdout: '', stderr: 'Agent Questions hook: the hook input is nested too deep; no decision.\n' };
  const call = readToolCall(input);
  if (!call) return { stdout: '', stderr: '' };
  const plan = planFor(call);
  if (plan.kind === 'none') return { stdout: '', stderr: '' };
  if (plan.kind === 'allow') return { stdout: answerText(call.harness, 'allow'), stderr: '' };
  const handBack = (reason: string) => ({ stdout: answerText(call.harness, 'ask', reason), stderr: '' });
  if (plan.kind === 'ask') return handBack(plan.reason);

  const endpoint = findEndpoint(call.cwd, run.env, run.home ?? homeFolder());
  if ('problem' in endpoint) return handBack(`Agent Questions could not be asked: ${endpoint.problem}.`);
  const seconds = Number(run.args[0]);
  const waitMs = handBackAfterMs(Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS, endpoint.waitSeconds);
  let timer: NodeJS.Timeout | undefined;
  let deadlinePassed = false;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      deadlinePassed = true;
      // The endpoint records it as handed back at the hook's deadline (decidedBy asker, hookDeadline).
      resolve(HANDED_BACK_AT_DEADLINE);
    }, waitMs);
  });
  try {
    const decision = await askApprove(
      { tool_name: plan.toolName, input: plan.input, cwd: call.cwd, ...(plan.toolName === 'Bash' ? { confinement: 'unsandboxed' as const } : {}) },
      {
        url: endpoint.url,
        token: endpoint.token,
        clientInfo: VSCODE_AGENT_CLIENT,
        signal: run.signal,
        withdrawWith: deadline,
        ...(run.onAsking ? { onAsking: run.onAsking } : {}),
        ...(run.connectTimeoutMs !== undefined ? { connectTimeoutMs: run.connectTimeoutMs } : {}),
      },
    );
    return { stdout: answerText(call.harness, decision.behavior, decision.behavior === 'deny' ? decision.message : undefined), stderr: '' };
  } catch (error) {
    if (deadlinePassed) return handBack(`Not answered in Agent Questions after ${minutes(waitMs)}; confirm it here.`);
    // VS Code stopped the hook: no one reads the answer.
    if (run.signal.aborted) return { stdout: '', stderr: '' };
    const why = error instanceof HookFailure ? error.message : `unexpected error (${error instanceof Error ? error.name : 'unknown'})`;
    return handBack(`Agent Questions could not be asked: ${why}.`);
  } finally {
    clearTimeout(timer);
  }
}
