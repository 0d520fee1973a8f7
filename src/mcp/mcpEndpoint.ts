// The local MCP endpoint (Streamable HTTP) for agents outside VS Code: 127.0.0.1 only, a bearer
// token compared in constant time, no browser origins, no foreign Host (DNS rebinding), bodies
// capped in size, time and nesting, sessions and waiting calls capped. A refusal closes the
// connection without reading the body. A tools/call is answered as an event stream at once and kept
// alive while it waits for the user (CLIs give up on a call that sends nothing for a minute or five);
// everything else, and a client that does not accept an event stream, gets one JSON response.
// No 'vscode' import, so it runs in plain Node tests too.
import { randomUUID, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { eventStreamMessages } from '../broker/contract/eventStream';
import { DECIDE_ROUTE, ENDPOINT_TURNED_OFF } from '../broker/contract/wireNames';
import type { ApproveResult } from '../broker/permissions/approveTool';
import { ConnectionGate } from './mcpConnections';
import { uiText } from '../broker/visibleText';
import { holdsLaterAnswers, selfReportedName, type CallScope, type ClientInfo } from './mcpTools';

export const MCP_PATH = '/mcp';
/** Our hook commands' route (docs/security.md): one POST, answered with the approve tool's decision when no person is needed. */
export const DECIDE_PATH = `${MCP_PATH}${DECIDE_ROUTE}`;
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SESSIONS = 32;
/** Arrays and objects nested deeper than this are refused before parsing. */
export const MAX_NESTING = 64;
/** Far above any real tool call (ask_user has at most a few dozen values), far below what stalls the host. */
export const MAX_ELEMENTS = 10_000;
/**
 * How often a waiting call's stream carries something: well under every CLI's idle limit (Claude
 * Code checks its limit every 30 s; OpenCode resets its call timeout on each progress notification).
 */
export const KEEP_ALIVE_MS = 15_000;
/**
 * TCP connections open at once. Real agents hold far fewer (a stream per session and one a waiting
 * call: under 100 at the session and waiting caps); an idle connection costs the host ~9 KB.
 */
export const MAX_CONNECTIONS = 256;
/** A connection is closed when a request's headers have not arrived this long after it opened or after its last response. */
export const HEADERS_TIMEOUT_MS = 10_000;

export interface EndpointLimits {
  /** TCP connections open at once; more are answered 503 and closed. */
  connections: number;
  /** Sessions open at once. */
  sessions: number;
  /** Tool calls waiting at once: per session, per token (across its sessions) and in all. */
  waitingPerSession: number;
  waitingPerToken: number;
  waitingTotal: number;
  /**
   * A session that completed a tool call this recently is an agent at work: it is never closed to
   * make room, and it may have one call waiting even when its token's slots are taken (every agent
   * in a VS Code terminal shares one token, so one flooding process must not lock the others out).
   */
  recentlyActiveMs: number;
}

// CLIs that print nothing but the challenge of a 401 (Codex does) then say what is wrong.
const WRONG_TOKEN_CHALLENGE =
  'Bearer realm="Agent Questions", error_description="missing or wrong token; start the agent in a VS Code terminal opened after the endpoint was turned on or the token rotated"';
const DEFAULT_LIMITS: EndpointLimits = {
  connections: MAX_CONNECTIONS,
  sessions: MAX_SESSIONS,
  waitingPerSession: 8,
  waitingPerToken: 16,
  waitingTotal: 64,
  recentlyActiveMs: 5 * 60_000,
};

export interface McpEndpointOptions {
  port: number;
  token: () => string;
  /** A new tool server for a new client session; `scope()` is the call being handled. */
  createServer: (scope: () => CallScope | undefined) => Server;
  /** The decide route: the approve tool's decision without a session, undefined when a person must be asked (without it, the route is not found). */
  decide?: (args: unknown, client: ClientInfo, tokenId: string) => Promise<ApproveResult | undefined>;
  log: (message: string) => void;
  limits?: Partial<EndpointLimits>;
  /** A body still arriving after this long is refused with 408 (default 10 s). */
  bodyTimeoutMs?: number;
  /** Progress notifications and keep-alive comments on a waiting call's stream (default KEEP_ALIVE_MS). */
  keepAliveMs?: number;
}

/** An open session as the user may see it. */
export interface SessionInfo {
  /** Names the session in this window; never its MCP session id. */
  key: number;
  /** What the client calls itself (initialize), made safe to show: self-reported, not verified. */
  name: string;
  /** Fingerprint of the token its last request came through. */
  tokenId: string;
  openedAt: number;
  lastUsedAt: number;
  /** Its tool calls waiting for the user. */
  waiting: number;
}

interface Session {
  key: number;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  /** Aborted when the session ends: every call still waiting is cancelled. */
  ended: AbortController;
  tokenId: string;
  openedAt: number;
  lastUsed: number;
  waiting: number;
  /** When a tool call of this session last completed (0: never). */
  lastCompleted: number;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** A short fingerprint that tells tokens apart in the UI and the log; never the token. */
export const tokenFingerprint = (token: string) => digest(token).toString('hex').slice(0, 6);

/** Constant-time: both sides are hashed to the same length before comparing. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}

export class McpEndpoint {
  private readonly http: HttpServer;
  private readonly gate: ConnectionGate;
  private readonly byId = new Map<string, Session>();
  private readonly callScope = new AsyncLocalStorage<CallScope>();
  /** Waiting tool calls per token fingerprint. */
  private readonly waitingByToken = new Map<string, number>();
  private readonly limits: EndpointLimits;
  private listeningPort = 0;
  private nextKey = 1;

  private constructor(private readonly options: McpEndpointOptions) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        options.log(`MCP endpoint error: ${uiText(error instanceof Error ? error.message : String(error))}`);
        if (!res.headersSent) this.refuse(res, 500, 'Internal error');
      });
    });
    // "Expect: 100-continue" is answered only once the request passes our checks (see handle).
    this.http.on('checkContinue', (req, res) => this.http.emit('request', req, res));
    this.http.requestTimeout = 0; // a tools/call waits as long as the user takes
    // Connections are capped, and held to HEADERS_TIMEOUT_MS, by the gate that listens in front.
    this.gate = new ConnectionGate(this.http, this.limits.connections, HEADERS_TIMEOUT_MS, options.log);
  }

  static async start(options: McpEndpointOptions): Promise<McpEndpoint> {
    const endpoint = new McpEndpoint(options);
    await new Promise<void>((resolve, reject) => {
      endpoint.gate.server.once('error', reject);
      endpoint.gate.server.listen(options.port, '127.0.0.1', () => resolve());
    });
    endpoint.listeningPort = (endpoint.gate.server.address() as AddressInfo).port;
    return endpoint;
  }

  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.listeningPort}${MCP_PATH}`;
  }

  /** Self-reported client names of the sessions now open. */
  clients(): string[] {
    return this.sessions().map((s) => s.name);
  }

  sessions(): SessionInfo[] {
    return [...this.byId.values()].map((s) => ({
      key: s.key,
      name: selfReportedName(s.server),
      tokenId: s.tokenId,
      openedAt: s.openedAt,
      lastUsedAt: s.lastUsed,
      waiting: s.waiting,
    }));
  }

  /** Ends a session: its waiting calls settle as cancelled. The client may initialize again. */
  disconnect(key: number): boolean {
    const entry = [...this.byId.entries()].find(([, s]) => s.key === key);
    if (entry) this.endSession(entry[0], 'disconnected by the user');
    return entry !== undefined;
  }

  async close(): Promise<void> {
    for (const id of [...this.byId.keys()]) this.endSession(id, 'closed (the endpoint stopped)', ENDPOINT_TURNED_OFF);
    this.gate.destroyAll();
    await new Promise<void>((resolve) => this.gate.server.close(() => resolve()));
  }

  /** Answers with an error and closes the connection: whatever the client still sends is never read. */
  private refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    const socket = res.socket; // detached from `res` once the response has finished
    res.writeHead(status, { 'content-type': 'application/json', connection: 'close', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }), () => socket?.destroy());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Its connection was closed to make room for another and already told 503: the body is read and dropped.
    if (this.gate.isEvicted(req.socket)) return void req.resume();
    // A browser page may not talk to us at all: it would carry an Origin.
    if (req.headers.origin !== undefined) return this.refuse(res, 403, 'Browser origins are not allowed');
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) return this.refuse(res, 403, 'Forbidden host');
    const path = (req.url ?? '').split('?')[0];
    if (path !== MCP_PATH && (path !== DECIDE_PATH || !this.options.decide)) return this.refuse(res, 404, `Not found; the endpoint is ${MCP_PATH}`);
    if (!tokenMatches(req.headers.authorization, this.options.token())) {
      return this.refuse(
        res,
        401,
        'Missing or wrong bearer token; start the agent in a VS Code terminal opened after the endpoint was turned on or the token rotated ("Agent Questions: Connect an External Agent…" shows how)',
        { 'www-authenticate': WRONG_TOKEN_CHALLENGE },
      );
    }

    const tokenId = tokenFingerprint(this.options.token());
    if (path === DECIDE_PATH) return this.decide(req, res, tokenId);

    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? this.byId.get(sessionId) : undefined;
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return this.refuse(res, 404, 'Unknown session');
      existing.tokenId = tokenId;
      existing.lastUsed = Date.now();
      await writeResponse(await existing.transport.handleRequest(webRequest(req, this.port)), res);
      if (req.method === 'DELETE') this.endSession(sessionId as string, 'closed');
      return;
    }
    if (req.method !== 'POST') return this.refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });

    const body = await this.readJson(req, res);
    if (!body) return;
    const parsed = body.parsed;

    let session = existing;
    if (!session) {
      if (typeof sessionId === 'string') return this.refuse(res, 404, 'Unknown session; initialize again');
      if (!isInitializeRequest(parsed)) return this.refuse(res, 400, 'No session; send initialize first');
      session = this.openSession(tokenId);
      if (!session)
        return this.refuse(res, 503, `Too many open sessions (${this.limits.sessions}) and every one has a call waiting or has just completed one; close an agent and retry`);
    }

    // The call ends when its HTTP request does (the agent quit) or when its session ends.
    const closed = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    const active = session;
    active.tokenId = tokenId;
    active.lastUsed = Date.now();
    // The SDK answers a request with an event stream when the client accepts one (the spec says every
    // client must); only a tools/call waits, so only a tools/call is streamed to a client that accepts it.
    const toolCallId = isJSONRPCRequest(parsed) && parsed.method === 'tools/call' ? parsed.id : undefined;
    const streamed = toolCallId !== undefined && /text\/event-stream/i.test(String(req.headers.accept ?? ''));
    // A closed transport never answers what is still open: say so, rather than hang the client.
    const closedMessage = 'The session was closed; initialize again';
    const onEnded = () => {
      if (!res.headersSent) this.refuse(res, 404, closedMessage);
      else if (streamed && !res.writableEnded)
        res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: toolCallId, error: { code: -32000, message: closedMessage } })}\n\n`);
    };
    active.ended.signal.addEventListener('abort', onEnded);
    const keepAliveMs = this.options.keepAliveMs ?? KEEP_ALIVE_MS;
    const scope: CallScope = { signal: AbortSignal.any([closed.signal, active.ended.signal]), tokenId, admit: () => this.admit(active, tokenId), progressEveryMs: keepAliveMs };
    try {
      const response = await this.callScope.run(scope, () =>
        active.transport.handleRequest(webRequest(req, this.port, 'application/json, text/event-stream'), { parsedBody: parsed }),
      );
      await writeResponse(streamed ? response : await asJson(response, res), res);
    } finally {
      active.ended.signal.removeEventListener('abort', onEnded);
    }
  }

  /** The body, parsed; undefined once the request was refused (too big, too slow, too deep, not JSON). */
  private async readJson(req: IncomingMessage, res: ServerResponse): Promise<{ parsed: unknown } | undefined> {
    if (req.headers.expect === '100-continue') res.writeContinue();
    const timeoutMs = this.options.bodyTimeoutMs ?? 10_000;
    const body = await readBody(req, MAX_BODY_BYTES, timeoutMs);
    if (body === 413) return void this.refuse(res, 413, `Request body over ${MAX_BODY_BYTES} bytes`);
    if (body === 408) return void this.refuse(res, 408, `The request body took longer than ${timeoutMs} ms to arrive`);
    // JSON.parse and the schema checks after it take seconds on a deeply nested megabyte.
    const shape = jsonShapeProblem(body);
    if (shape) return void this.refuse(res, 400, shape);
    try {
      return { parsed: JSON.parse(body) as unknown };
    } catch {
      return void this.refuse(res, 400, 'The body is not JSON');
    }
  }

  /**
   * The decide route: `{ client: { name, title? }, arguments }` (the approve tool's arguments) is
   * answered 200 with the approve tool's decision when no person is needed, or 204 when one must be
   * asked: the hook then asks through an MCP session. No session, so a rule's allow costs one request.
   */
  private async decide(req: IncomingMessage, res: ServerResponse, tokenId: string): Promise<void> {
    if (req.method !== 'POST') return this.refuse(res, 405, 'Method not allowed', { allow: 'POST' });
    const body = await this.readJson(req, res);
    if (!body) return;
    const { parsed } = body;
    const client = isRecord(parsed) ? parsed['client'] : undefined;
    if (!isRecord(parsed) || !isRecord(client) || typeof client['name'] !== 'string' || !isRecord(parsed['arguments']))
      return this.refuse(res, 400, 'Expected { "client": { "name": … }, "arguments": { tool_name, input, … } }');
    const title = typeof client['title'] === 'string' ? client['title'] : undefined;
    const decision = await this.options.decide!(parsed['arguments'], { name: client['name'], ...(title !== undefined ? { title } : {}) }, tokenId);
    if (!decision) return void res.writeHead(204).end();
    // Its length said, not chunked: the hook reads the reply off a plain socket.
    const text = JSON.stringify(decision);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }).end(text);
  }

  /** Counts a tool call as waiting until it is released, unless that would pass a cap. */
  private admit(session: Session, tokenId: string): { release: () => void } | { refused: string } {
    const { waitingPerSession, waitingPerToken, waitingTotal } = this.limits;
    const byToken = this.waitingByToken.get(tokenId) ?? 0;
    const total = [...this.waitingByToken.values()].reduce((a, b) => a + b, 0);
    const later = 'wait for an answer before asking again.';
    if (session.waiting >= waitingPerSession) return { refused: `Too many requests from this client are already waiting (${waitingPerSession}); ${later}` };
    // An agent at work keeps one call through a flood on its shared token (the total cap still holds).
    const reserved = session.waiting === 0 && this.recentlyActive(session);
    if (byToken >= waitingPerToken && !reserved) return { refused: `Too many requests through this token are already waiting (${waitingPerToken} across its sessions); ${later}` };
    if (total >= waitingTotal) return { refused: `Too many requests are already waiting (${waitingTotal} in all); ${later}` };
    session.waiting++;
    this.waitingByToken.set(tokenId, byToken + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        session.waiting--;
        session.lastUsed = Date.now();
        session.lastCompleted = Date.now();
        const left = (this.waitingByToken.get(tokenId) ?? 1) - 1;
        if (left > 0) this.waitingByToken.set(tokenId, left);
        else this.waitingByToken.delete(tokenId);
      },
    };
  }

  private recentlyActive(session: Session): boolean {
    return session.lastCompleted > 0 && Date.now() - session.lastCompleted < this.limits.recentlyActiveMs;
  }

  private openSession(tokenId: string): Session | undefined {
    if (this.byId.size >= this.limits.sessions) {
      // Make room by closing the session idle the longest; never one with a call waiting, nor an agent at work;
      // one whose client has `wait: false` answers to collect last (they survive it, but its client must reconnect).
      const candidates = [...this.byId.entries()]
        .filter(([, s]) => s.waiting === 0 && !this.recentlyActive(s))
        .map(([id, s]) => ({ id, lastUsed: s.lastUsed, holds: Number(holdsLaterAnswers(s.server, s.tokenId)) }));
      const idle = candidates.sort((a, b) => a.holds - b.holds || a.lastUsed - b.lastUsed)[0];
      if (!idle) return undefined;
      this.endSession(idle.id, 'closed to make room (idle the longest)');
    }
    const ended = new AbortController();
    const server = this.options.createServer(() => this.callScope.getStore());
    const now = Date.now();
    const session: Session = { key: this.nextKey++, transport: undefined as never, server, ended, tokenId, openedAt: now, lastUsed: now, waiting: 0, lastCompleted: 0 };
    session.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: this.options.keepAliveMs ?? KEEP_ALIVE_MS,
      onsessioninitialized: (id) => {
        this.byId.set(id, session);
        this.options.log(`MCP session opened (${this.byId.size} open)`);
      },
    });
    session.transport.onclose = () => ended.abort();
    void server.connect(session.transport);
    return session;
  }

  private endSession(id: string, why: string, reason?: string): void {
    const session = this.byId.get(id);
    if (!session) return;
    this.byId.delete(id);
    session.ended.abort(reason);
    void session.server.close().catch(() => undefined);
    this.options.log(`MCP session of ${selfReportedName(session.server)} (token ${session.tokenId}) ${why} (${this.byId.size} open)`);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The Node request as the SDK's web-standard transport takes it (the body is passed parsed). */
function webRequest(req: IncomingMessage, port: number, accept?: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  if (accept) headers.set('accept', accept);
  return new Request(`http://127.0.0.1:${port}${req.url ?? MCP_PATH}`, { method: req.method ?? 'GET', headers });
}

/** Sends a response as it comes: an event stream chunk by chunk, until it ends or the client goes away. */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  // Already answered (the session ended and said so) or gone: nothing more to send.
  if (res.headersSent || res.destroyed) return void response.body?.cancel().catch(() => undefined);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (let chunk = await reader.read(); !chunk.done && !res.writableEnded; chunk = await reader.read()) res.write(chunk.value);
  } finally {
    res.removeListener('close', stop);
    stop();
    if (!res.writableEnded) res.end();
  }
}

/**
 * An event-stream response folded into one JSON response, as a client that accepts no event stream
 * (and every request but a tools/call) gets it: the JSON-RPC responses it carries, without the
 * notifications and keep-alive comments. Nothing is sent until the stream ends.
 */
async function asJson(response: Response, res: ServerResponse): Promise<Response> {
  if (!/text\/event-stream/i.test(response.headers.get('content-type') ?? '') || !response.body) return response;
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
  } finally {
    res.removeListener('close', stop);
  }
  const responses = eventStreamMessages(text).filter((m) => typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m));
  const headers = new Headers({ 'content-type': 'application/json' });
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId) headers.set('mcp-session-id', sessionId);
  return new Response(JSON.stringify(responses.length === 1 ? responses[0] : responses), { status: response.status, headers });
}

/**
 * The body as text; 413 as soon as it is declared or passes `max` bytes, 408 when it is still
 * arriving after `timeoutMs`. What is left unread stays unread: the caller closes the connection.
 */
function readBody(req: IncomingMessage, max: number, timeoutMs: number): Promise<string | 408 | 413> {
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve(413);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (result: 408 | 413) => {
      clearTimeout(timer);
      req.removeListener('data', onData);
      req.pause();
      resolve(result);
    };
    const timer = setTimeout(() => stop(408), timeoutMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return stop(413);
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Whether JSON text nests arrays and objects deeper than `max`: one linear pass, strings skipped. */
/**
 * Why a JSON text would take the host's thread too long to parse and check, found in one linear
 * scan before parsing (strings skipped): nested too deep, or too many elements (commas) in all.
 */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  let elements = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character, a quote included
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_NESTING) return `The body is nested deeper than ${MAX_NESTING} levels`;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++elements > MAX_ELEMENTS) return `The body has more than ${MAX_ELEMENTS} JSON elements`;
  }
  return undefined;
}
