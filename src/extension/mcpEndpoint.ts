// The local MCP endpoint (Streamable HTTP) for agents outside VS Code: 127.0.0.1 only, a bearer
// token compared in constant time, no browser origins, no foreign Host (DNS rebinding), bodies
// capped, sessions capped. No 'vscode' import, so it runs in plain Node tests too.
import { randomUUID, createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallScope } from './mcpTools';

export const MCP_PATH = '/mcp';
export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_SESSIONS = 32;

export interface McpEndpointOptions {
  port: number;
  token: () => string;
  /** A new tool server for a new client session; `scope()` is the call being handled. */
  createServer: (scope: () => CallScope | undefined) => Server;
  log: (message: string) => void;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  /** Aborted when the session ends: every call still waiting is cancelled. */
  ended: AbortController;
  lastUsed: number;
  inFlight: number;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time: both sides are hashed to the same length before comparing. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}

export class McpEndpoint {
  private readonly http: HttpServer;
  private readonly sessions = new Map<string, Session>();
  private readonly callScope = new AsyncLocalStorage<CallScope>();
  private listeningPort = 0;

  private constructor(private readonly options: McpEndpointOptions) {
    this.http = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        options.log(`MCP endpoint error: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) this.refuse(res, 500, 'Internal error');
      });
    });
    this.http.headersTimeout = 10_000;
    this.http.requestTimeout = 0; // a tools/call waits as long as the user takes
  }

  static async start(options: McpEndpointOptions): Promise<McpEndpoint> {
    const endpoint = new McpEndpoint(options);
    await new Promise<void>((resolve, reject) => {
      endpoint.http.once('error', reject);
      endpoint.http.listen(options.port, '127.0.0.1', () => resolve());
    });
    endpoint.listeningPort = (endpoint.http.address() as AddressInfo).port;
    return endpoint;
  }

  get port(): number {
    return this.listeningPort;
  }

  get url(): string {
    return `http://127.0.0.1:${this.listeningPort}${MCP_PATH}`;
  }

  /** Client names of the sessions now open. */
  clients(): string[] {
    return [...this.sessions.values()].map((s) => s.server.getClientVersion()?.name ?? 'unknown');
  }

  async close(): Promise<void> {
    for (const id of [...this.sessions.keys()]) this.endSession(id);
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A browser page may not talk to us at all: it would carry an Origin.
    if (req.headers.origin !== undefined) return this.refuse(res, 403, 'Browser origins are not allowed');
    const host = req.headers.host ?? '';
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) return this.refuse(res, 403, 'Forbidden host');
    if ((req.url ?? '').split('?')[0] !== MCP_PATH) return this.refuse(res, 404, `Not found; the endpoint is ${MCP_PATH}`);
    if (!tokenMatches(req.headers.authorization, this.options.token())) {
      return this.refuse(res, 401, 'Missing or wrong bearer token; copy it with "Agent Questions: Connect an External Agent…"', { 'www-authenticate': 'Bearer' });
    }

    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return this.refuse(res, 404, 'Unknown session');
      await existing.transport.handleRequest(req, res);
      if (req.method === 'DELETE') this.endSession(sessionId as string);
      return;
    }
    if (req.method !== 'POST') return this.refuse(res, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });

    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === 'too large') return this.refuse(res, 413, `Request body over ${MAX_BODY_BYTES} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return this.refuse(res, 400, 'The body is not JSON');
    }

    let session = existing;
    if (!session) {
      if (typeof sessionId === 'string') return this.refuse(res, 404, 'Unknown session; initialize again');
      if (!isInitializeRequest(parsed)) return this.refuse(res, 400, 'No session; send initialize first');
      session = this.openSession();
      if (!session) return this.refuse(res, 503, `Too many open sessions (${MAX_SESSIONS}); close an agent and retry`);
    }

    // The call ends when its HTTP request does (the agent quit) or when its session ends.
    const closed = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) closed.abort();
    });
    const active = session;
    active.lastUsed = Date.now();
    active.inFlight++;
    try {
      await this.callScope.run({ signal: AbortSignal.any([closed.signal, active.ended.signal]) }, () => active.transport.handleRequest(req, res, parsed));
    } finally {
      active.inFlight--;
      active.lastUsed = Date.now();
    }
  }

  private openSession(): Session | undefined {
    if (this.sessions.size >= MAX_SESSIONS) {
      // Make room by closing the session idle the longest; refuse when every session is busy.
      const idle = [...this.sessions.entries()].filter(([, s]) => s.inFlight === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      if (!idle) return undefined;
      this.endSession(idle[0]);
    }
    const ended = new AbortController();
    const server = this.options.createServer(() => this.callScope.getStore());
    const session: Session = { transport: undefined as never, server, ended, lastUsed: Date.now(), inFlight: 0 };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.options.log(`MCP session opened (${this.sessions.size} open)`);
      },
    });
    session.transport.onclose = () => ended.abort();
    void server.connect(session.transport);
    return session;
  }

  private endSession(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.ended.abort();
    void session.server.close().catch(() => undefined);
    this.options.log(`MCP session of ${session.server.getClientVersion()?.name ?? 'a client'} closed (${this.sessions.size} open)`);
  }
}

/** The body as text, or 'too large' as soon as it passes `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) {
    req.resume();
    return Promise.resolve('too large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        resolve('too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
