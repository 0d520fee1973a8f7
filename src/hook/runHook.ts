// The hook command's work, apart from the process it runs in (so unit tests can drive it): read the
// agent's hook input, ask the endpoint's `approve` tool, print the decision in the agent's shape.
// Fails closed: whatever leaves the decision open (a problem before the request reached the panel, or
// the hook's deadline, the endpoint gone, the hook stopped after) is left to a person: no decision,
// one line on stderr, and the agent's own prompt asks; or, for an agent where "no decision" may let
// the call run (Codex hands it to its automatic reviewer under `exec --approve-for-me`), a denial.
import { ANSWERED_IN_AGENT_PROMPT, HANDED_BACK_AT_DEADLINE, HOOK_CLIENT_PREFIX, MCP_TOKEN_VAR, MCP_URL_VAR } from '../broker/contract/wireNames';
import { AGENT_IDS, AGENT_NAMES, isAgentId } from '../broker/contract/agentIds';
import { HOOK_AGENTS } from '../agents/hookRegistry';
import { askApprove, HookFailure } from './mcpApprove';
import { nestedDeeperThan } from './hookProcess';

export interface HookRun {
  /** The command's arguments after the script: `<agent>`. */
  args: string[];
  /** The hook input, read whole from stdin. */
  stdin: string;
  env: Record<string, string | undefined>;
  /** Aborted when the agent goes away or stops waiting. */
  signal: AbortSignal;
  /** Called once a person must be asked (the hook then listens for the agent stopping). */
  onAsking?: () => void;
  connectTimeoutMs?: number;
  /** How long before the agent's hook time limit the hook gives the decision back (default: a minute). */
  handBackBeforeMs?: number;
}

export interface HookOutcome {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const MAX_INPUT_DEPTH = 64;
/** The hook hands the decision back this long before the agent's hook time limit, so it is never killed mid-wait. */
const HAND_BACK_BEFORE_MS = 60_000;

const USAGE = `usage: node approvalHook.js <${AGENT_IDS.join('|')}>, run by the agent's permission hook with its hook input on stdin`;

export async function runHook(run: HookRun): Promise<HookOutcome> {
  const agentId = run.args[0] ?? '';
  if (!isAgentId(agentId)) return { exitCode: 1, stdout: '', stderr: `Agent Questions hook: unknown agent ${JSON.stringify(agentId)}; ${USAGE}\n` };
  const agent = HOOK_AGENTS[agentId];
  const { name } = AGENT_NAMES[agentId];
  let input: unknown;
  const fail = (why: string): HookOutcome => {
    if (agent.undecided === 'deny')
      return {
        exitCode: 0,
        stdout: `${agent.output({ behavior: 'deny', message: `No decision in the Agent Questions panel (${why}); denied, so nothing decides for the user. Ask again when they are back.` }, input)}\n`,
        stderr: `Agent Questions hook: ${why}; denied.\n`,
      };
    const handBack = agent.handBackOutput?.(input, why);
    const stderr = `Agent Questions hook: ${why}; ${name} asks you itself.\n`;
    return handBack ? { exitCode: 0, stdout: `${handBack}\n`, stderr } : { exitCode: agent.noDecisionExitCode, stdout: '', stderr };
  };

  try {
    input = JSON.parse(run.stdin);
  } catch {
    return fail('the hook input on stdin is not JSON');
  }
  // Deeper than any real tool input; deeper still would overflow the stack while it is sent on.
  if (nestedDeeperThan(input, MAX_INPUT_DEPTH)) return fail(`the hook input is nested deeper than ${MAX_INPUT_DEPTH} levels`);
  if (agent.foreign?.(input)) return { exitCode: 0, stdout: '', stderr: '' };
  const call = agent.approveCall(input);
  if ('problem' in call) return fail(call.problem);
  if (agent.ownWay?.(input, run.env)) return { exitCode: 0, stdout: '', stderr: '' };

  const url = run.env[MCP_URL_VAR];
  const token = run.env[MCP_TOKEN_VAR];
  if (!url || !token)
    return fail(
      `$${MCP_URL_VAR} or $${MCP_TOKEN_VAR} is not set: start ${name} from a VS Code terminal opened after turning on the endpoint (Agent Questions: Connect an External Agent…)`,
    );

  // Stops waiting when the agent does, or when the user answered in the agent's own prompt.
  const waiting = new AbortController();
  const stopWaiting = () => waiting.abort();
  run.signal.addEventListener('abort', stopWaiting, { once: true });
  if (run.signal.aborted) waiting.abort();
  let answeredElsewhere = false;
  let deadlinePassed = false;
  // Watching the agent's own prompt starts when a person is asked: a rule's decision reads nothing
  // more (Claude Code's transcript may be megabytes, read and parsed before the request otherwise).
  let asking!: () => void;
  let asked = false;
  const askingStarted = new Promise<void>((resolve) => (asking = resolve));
  const watchElsewhere = agent.answeredElsewhere;
  // askApprove tells the endpoint why, then withdraws the call: the user answered in the agent's prompt,
  // or the agent's hook time limit is near (a hook it kills is no answer at all).
  const elsewhere = watchElsewhere
    ? askingStarted
        .then(() => watchElsewhere(input, waiting.signal))
        .then(() => {
          answeredElsewhere = true;
          return ANSWERED_IN_AGENT_PROMPT;
        })
    : undefined;
  let deadlineTimer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    deadlineTimer = setTimeout(
      () => {
        deadlinePassed = true;
        resolve(HANDED_BACK_AT_DEADLINE);
      },
      Math.max(0, agent.hookTimeoutMs - (run.handBackBeforeMs ?? HAND_BACK_BEFORE_MS)),
    );
  });
  try {
    const decision = await askApprove(
      { ...call, cwd: agent.folder(input), confinement: agent.confinement(input, run.env) },
      {
        url,
        token,
        clientInfo: { name: `${HOOK_CLIENT_PREFIX}${agentId}`, title: name, version: '1' },
        signal: waiting.signal,
        withdrawWith: elsewhere ? Promise.race([elsewhere, deadline]) : deadline,
        onAsking: () => {
          asked = true;
          run.onAsking?.();
          asking();
        },
        ...(run.connectTimeoutMs !== undefined ? { connectTimeoutMs: run.connectTimeoutMs } : {}),
      },
    );
    return { exitCode: 0, stdout: `${agent.output(decision, input)}\n`, stderr: '' };
  } catch (error) {
    // The agent has its answer; the panel settles the request as cancelled, decided by the user in the agent's prompt.
    if (answeredElsewhere) return { exitCode: 0, stdout: '', stderr: '' };
    if (deadlinePassed) return fail(`no answer before ${name}'s hook time limit`);
    if (error instanceof HookFailure) return fail(error.message);
    return fail(`unexpected error (${error instanceof Error ? error.name : 'unknown'})`);
  } finally {
    clearTimeout(deadlineTimer);
    run.signal.removeEventListener('abort', stopWaiting);
    // Ends what asking a person started (the watch on the agent's prompt, the session's requests); a rule's decision started none.
    if (asked) waiting.abort();
  }
}
