// The MCP face of Agent Questions: tools `ask_user` and `get_answers` (the same contracts as the
// language-model tools) and `approve` (a permission prompt). One SDK Server per client session; a
// question asked with `wait: false` belongs to the client (its token and name), not to the session,
// so the client collects it after its session was closed or evicted. No 'vscode' import.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { attachedImages } from '../broker/questions/answerImages';
import {
  APPROVE_DESCRIPTION,
  ApproveInputSchema,
  approveResultFor,
  askUserQuestionResultFor,
  permissionRequestFor,
  questionRequestFor,
  type ApproveResult,
} from '../broker/permissions/approveTool';
import { callAskUser } from '../broker/questions/askUserCall';
import { callGetAnswers } from '../broker/questions/getAnswersCall';
import type { LaterAnswers } from '../broker/questions/laterAnswers';
import { askPermission, askQuestions, permissionWithoutAsking, type Policy } from '../broker/askWithPolicy';
import type { AskOptions, QuestionBroker } from '../broker/broker';
import type { CancellationSignal } from '../broker/events';
import type { DecidedBy, RequestSource } from '../broker/contract/schemas';
import { ASK_USER_DESCRIPTION, askUserJsonSchema, GET_ANSWERS_DESCRIPTION, getAnswersJsonSchema, toolJsonSchema } from '../broker/contract/toolSchema';
import { uiText } from '../broker/visibleText';
import { ANSWERED_IN_AGENT_PROMPT, APPROVE_TOOL, ASK_USER_TOOL, connectionWay, ENDPOINT_TURNED_OFF, GET_ANSWERS_TOOL, HANDED_BACK_AT_DEADLINE } from '../broker/contract/wireNames';

export interface McpToolsContext {
  broker: QuestionBroker;
  policy: Policy;
  /** Questions asked with `wait: false`, until get_answers collects them. */
  later: LaterAnswers;
  timeoutMs: () => number;
  log: (message: string) => void;
  /** Absolute paths of the workspace folders: a path outside them is called out on a permission prompt. */
  workspaceFolders: () => string[];
}

/** What the endpoint knows about the call in progress: its cancellation, its token, and whether it may wait. */
export interface CallScope {
  signal: AbortSignal;
  /** Fingerprint of the token the request came through. */
  tokenId: string;
  /** Counts the call as waiting until `release()`, or says which cap it would pass. */
  admit(): { release: () => void } | { refused: string };
  /** How often a waiting call reports progress to a client that asked for it. */
  progressEveryMs: number;
}

/** What a CLI that shows progress tells its user while the call waits. */
export const WAITING_MESSAGE = 'Waiting for your answer in VS Code (the Agent Questions panel)';

// Built once: this module is loaded only when the endpoint is on.
const TOOLS = [
  { name: ASK_USER_TOOL, description: ASK_USER_DESCRIPTION, inputSchema: askUserJsonSchema() as never },
  { name: GET_ANSWERS_TOOL, description: GET_ANSWERS_DESCRIPTION, inputSchema: getAnswersJsonSchema() as never },
  { name: APPROVE_TOOL, description: APPROVE_DESCRIPTION, inputSchema: toolJsonSchema(ApproveInputSchema) as never },
];
const TOOL_NAMES = new Set(TOOLS.map((t) => t.name));

/**
 * Who owns a `wait: false` question asked through `server`: the token's fingerprint and the name the
 * client gives itself (not its version: an upgrade keeps its answers). A client that reconnects
 * presents both again; two instances of one CLI on one token share their answers, which they can
 * only read by the request ids the asker was given.
 */
export function askerOf(server: Server, tokenId: string): { owner: string; group: string } {
  return { owner: `mcp:${tokenId}:${(server.getClientVersion()?.name ?? '').slice(0, 200)}`, group: `mcp:${tokenId}` };
}

// Whether a server's client holds `wait: false` questions or answers: the endpoint closes such a session last.
const holdsLater = new WeakMap<Server, (tokenId: string) => boolean>();

/** Whether the client of `server`, through the token `tokenId`, has questions asked with `wait: false` waiting or answers it has not collected. */
export function holdsLaterAnswers(server: Server, tokenId: string): boolean {
  return holdsLater.get(server)?.(tokenId) ?? false;
}

/** The name a client gives itself in `initialize` (title, else name), made safe to show. Anyone with the token can claim any name. */
export function selfReportedName(server: Server): string {
  return nameOf(server.getClientVersion());
}

/** What a client says it is (initialize's clientInfo, or the decide route's `client`). */
export interface ClientInfo {
  name?: string;
  title?: string;
}

const nameOf = (client: ClientInfo | undefined) => uiText(client?.title || client?.name || '', 60) || 'External agent';

/** Who asks, as the panel shows it: the way it connected (MCP, or the hook command of an agent) is self-reported like the name. */
function sourceOf(client: ClientInfo | undefined, tokenId: string | undefined): RequestSource {
  const way = connectionWay(client?.name);
  return { type: 'mcp', label: nameOf(client), via: `${way} · name self-reported${tokenId !== undefined ? ` · token ${tokenId}` : ''}`, way };
}

const text = (value: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });

function toSignal(...signals: AbortSignal[]): CancellationSignal {
  const any = AbortSignal.any(signals);
  return {
    get isCancellationRequested() {
      return any.aborted;
    },
    onCancellationRequested(listener) {
      any.addEventListener('abort', listener, { once: true });
      return { dispose: () => any.removeEventListener('abort', listener) };
    },
  };
}

/** Who ended a call: the hook's own reason (notifications/cancelled), or the endpoint's when it was turned off. */
function cancelledBy(hookReason: unknown, endpointReason: unknown): DecidedBy {
  if (endpointReason === ENDPOINT_TURNED_OFF) return { by: 'shutdown', part: 'endpoint' };
  if (hookReason === ANSWERED_IN_AGENT_PROMPT) return { by: 'user', where: 'agent' };
  if (hookReason === HANDED_BACK_AT_DEADLINE) return { by: 'asker', at: 'hookDeadline' };
  return { by: 'asker' };
}

/** The SDK validates elicitation replies with this; the endpoint never elicits, so ajv is not bundled (esbuild.mjs). */
const NO_JSON_SCHEMA_VALIDATION: jsonSchemaValidator = {
  getValidator: () => () => ({ valid: false, data: undefined, errorMessage: 'Agent Questions validates no JSON Schema replies' }),
};

/**
 * A Server for one client. `scope()` gives the transport-level cancellation of the call being
 * handled (the HTTP request closed, or the session ended).
 */
export function createToolServer(context: McpToolsContext, version: string, scope: () => CallScope | undefined): Server {
  const server = new Server({ name: 'agent-questions', version }, { capabilities: { tools: {} }, jsonSchemaValidator: NO_JSON_SCHEMA_VALIDATION });
  // Without an endpoint's call scope (no token) only this server collects its answers.
  const alone = { owner: `mcp:${randomUUID()}` };
  const asker = (call: CallScope | undefined) => (call ? askerOf(server, call.tokenId) : alone);
  holdsLater.set(server, (tokenId) => context.later.holds(askerOf(server, tokenId).owner));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    if (!TOOL_NAMES.has(name)) return text(`Unknown tool "${uiText(name, 60)}"; this server has ask_user, get_answers and approve.`, true);
    const call = scope();
    const admitted = call ? call.admit() : { release: () => undefined };
    if ('refused' in admitted) return text(admitted.refused, true);
    const options = {
      token: toSignal(...(call ? [extra.signal, call.signal] : [extra.signal])),
      timeoutMs: context.timeoutMs(),
      // The hook command withdraws a call with this reason when the user answered in the agent's own prompt.
      cancelledBy: (): DecidedBy => cancelledBy(extra.signal.reason, call?.signal.reason),
    };
    const from = sourceOf(server.getClientVersion(), call?.tokenId);
    const progress = reportProgress(request.params._meta?.progressToken, call?.progressEveryMs, extra.sendNotification);
    try {
      if (name === ASK_USER_TOOL) {
        const later = { store: context.later, ...asker(call) };
        const result = await callAskUser(args ?? {}, { broker: context.broker, policy: context.policy, source: from, options, later });
        if (result.waitingId) context.log(`MCP ask_user from ${from.label}: waiting (wait: false)`);
        if (!result.response) return text(result.text, result.isError);
        context.log(`MCP ask_user from ${from.label}: ${result.response.status}`);
        // The text describes each image; the bytes follow as MCP image content.
        const images = attachedImages(result.response).map(({ data, mimeType }) => ({ type: 'image' as const, data, mimeType }));
        return { content: [...text(result.text).content, ...images] };
      }
      if (name === GET_ANSWERS_TOOL) {
        const result = await callGetAnswers(args ?? {}, {
          store: context.later,
          owner: asker(call).owner,
          signal: AbortSignal.any(call ? [extra.signal, call.signal] : [extra.signal]),
        });
        if (!result.results) return text(result.text, true);
        return { content: [...text(result.text).content, ...result.images.map(({ data, mimeType }) => ({ type: 'image' as const, data, mimeType }))] };
      }
      return text(JSON.stringify(await approve(context, args, from, options)));
    } finally {
      progress.stop();
      admitted.release();
    }
  });
  return server;
}

type SendNotification = Parameters<Parameters<Server['setRequestHandler']>[1]>[1]['sendNotification'];

/**
 * Progress notifications for a waiting call, at once and then every `everyMs`, while the client
 * asked for them (a progressToken): they keep the call alive in CLIs that give up on a silent one.
 */
function reportProgress(progressToken: string | number | undefined, everyMs: number | undefined, send: SendNotification): { stop: () => void } {
  if (progressToken === undefined || !everyMs) return { stop: () => undefined };
  let progress = 0;
  const tick = () => void send({ method: 'notifications/progress', params: { progressToken, progress: ++progress, message: WAITING_MESSAGE } }).catch(() => undefined);
  tick();
  const timer = setInterval(tick, everyMs);
  return { stop: () => clearInterval(timer) };
}

/**
 * The decide route's answer (the endpoint's, for our own hook commands): the approve tool's decision
 * when no person is needed (invalid input, a refusal, the policy or a remembered rule decides), else
 * undefined, and the hook asks through an MCP session.
 */
export function approveDecider(context: McpToolsContext): (args: unknown, client: ClientInfo, tokenId: string) => Promise<ApproveResult | undefined> {
  return (args, client, tokenId) => approve(context, args, sourceOf(client, tokenId));
}

/** The approve tool's answer; without `options` only what needs no person, else undefined. */
async function approve(context: McpToolsContext, args: unknown, source: RequestSource, options: AskOptions): Promise<ApproveResult>;
async function approve(context: McpToolsContext, args: unknown, source: RequestSource): Promise<ApproveResult | undefined>;
async function approve(context: McpToolsContext, args: unknown, source: RequestSource, options?: AskOptions): Promise<ApproveResult | undefined> {
  const parsed = ApproveInputSchema.safeParse(args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ');
    return { behavior: 'deny', message: `approve input is invalid (${problems}); expected { tool_name, input, tool_use_id }.` };
  }
  const call = parsed.data;
  const questions = questionRequestFor(call, source);
  if (questions && 'refused' in questions) return { behavior: 'deny', message: questions.refused };
  if (questions) {
    if (!options) return undefined;
    const response = await askQuestions(context.broker, questions, context.policy, options);
    context.log(`MCP AskUserQuestion from ${source.label}: ${response.status}`);
    return askUserQuestionResultFor(call, questions, response);
  }
  // The policy's path context (home, User folder, symlinks), with this endpoint's folders.
  const request = permissionRequestFor(call, source, { ...context.policy.permissions.pathContext(), workspaceFolders: context.workspaceFolders() });
  if ('refused' in request) return { behavior: 'deny', message: request.refused };
  const response = options ? await askPermission(context.broker, request, context.policy, options) : await permissionWithoutAsking(context.broker, request, context.policy);
  if (!response) return undefined;
  context.log(`MCP approve ${uiText(call.tool_name, 60)} from ${source.label}: ${response.decision ?? response.status}`);
  return approveResultFor(call, response);
}
