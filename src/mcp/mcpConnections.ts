// The MCP endpoint's front door: every TCP connection passes here before Node's HTTP server sees it.
// Node's own limits do not fit: `maxConnections` resets a socket over the cap without a word, and
// `headersTimeout` is checked only every 30 s and never for a socket that has sent nothing. So the
// connections are counted and timed here. When all are taken, one that has not sent a request makes
// room: a real client sends at once, so a process holding connections open cannot lock agents out.
// A connection in its first moment goes only after every slow body: a crowd that reopens each connection
// it loses would otherwise take the place of the agent it made room for, before its request arrives.
// What is refused, or closed to make room before its first request, is told 503 rather than reset.
// No 'vscode' import, so it runs in plain Node tests too.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

/** How long a refused connection may stay to read its 503 before it is closed. */
const REFUSED_LINGER_MS = 1000;

/** A connection that has sent no request this long after it opened is the first to make room (a client sends its request at once). */
const SETTLING_MS = 1000;

/** What a connection refused or closed for lack of room is told. */
const tooManyConnections = (max: number) => `Too many connections are open (${max}); retry in a moment`;

interface Connection {
  /** When it was accepted. */
  openedAt: number;
  /** Closes the connection unless a request's headers complete first. */
  deadline?: NodeJS.Timeout;
  /** Requests on this connection whose response has not finished. */
  requests: number;
  /** When its last response finished, while it waits for the next request (keep-alive). */
  idleSince?: number;
  /** While a request's body is still arriving: when the request came and the bytes read by then. */
  bodyFrom?: { at: number; bytesRead: number };
}

export class ConnectionGate {
  /** What listens: hands each accepted connection to `http`. */
  readonly server: Server;
  private readonly open = new Map<Socket, Connection>();
  /** Whether connections are being refused now (so the log says so once, not once a connection). */
  private full = false;
  /** Whether connections waiting for a first request are being closed to make room (logged once too). */
  private crowded = false;
  /** Connections closed to make room before their first request, in their last moment (see isEvicted). */
  private readonly evicted = new Set<Socket>();

  constructor(
    private readonly http: HttpServer,
    private readonly max: number,
    private readonly headersTimeoutMs: number,
    private readonly log: (message: string) => void,
  ) {
    this.server = createServer((socket) => this.accept(socket));
    http.on('request', (req: IncomingMessage, res: ServerResponse) => this.requestArrived(req, res));
  }

  get size(): number {
    return this.open.size;
  }

  destroyAll(): void {
    for (const socket of [...this.open.keys(), ...this.evicted]) socket.destroy();
  }

  /**
   * Whether the connection was closed to make room before its first request. It was told 503 then,
   * as a connection over the cap is, so a request that still arrives on it gets no other answer.
   */
  isEvicted(socket: Socket): boolean {
    return this.evicted.has(socket);
  }

  private accept(socket: Socket): void {
    if (this.open.size < this.max) this.crowded = false;
    else if (!this.makeRoom()) return this.refuse(socket);
    if (this.full) this.log(`MCP endpoint accepts connections again (${this.open.size} open)`);
    this.full = false;
    // Node's own server turns Nagle off on what it accepts; handed over like this, the socket is ours to set.
    // Without it each streamed response waits ~40 ms for a delayed ACK.
    socket.setNoDelay(true);
    const connection: Connection = { openedAt: Date.now(), requests: 0 };
    this.open.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.deadline);
      this.open.delete(socket);
    });
    this.awaitRequest(socket, connection);
    this.http.emit('connection', socket);
  }

  /**
   * Closes one connection to make room, the most suspect first: one that sent no request though it
   * had a moment to, one whose body trickles in, one in its first moment, one idle between requests.
   */
  private makeRoom(): boolean {
    return this.closeWaiting(Date.now() - SETTLING_MS) || this.closeSlowestBody() || this.closeWaiting(Date.now()) || this.closeIdle();
  }

  /**
   * Makes room by closing the connection, opened by `openedBy`, that has waited the longest without a
   * complete request header: a real client sends its request at once, a flood never does. False when
   * every such connection has completed one (is in a request, or idle between requests).
   */
  private closeWaiting(openedBy: number): boolean {
    // The map keeps accept order: the first one still waiting for its first request is the oldest.
    for (const [socket, connection] of this.open) {
      if (connection.openedAt > openedBy) return false;
      if (connection.requests > 0 || connection.idleSince !== undefined) continue;
      if (!this.crowded) this.log(`MCP endpoint is full (${this.max} connections): closing those that sent no request to make room`);
      this.crowded = true;
      this.evict(socket, connection);
      return true;
    }
    return false;
  }

  /**
   * Makes room by closing the keep-alive connection idle the longest: a flood's finished requests
   * must not lock a new agent out for their keep-alive time. False when none is between requests.
   */
  private closeIdle(): boolean {
    let oldest: [Socket, Connection] | undefined;
    for (const entry of this.open) {
      if (entry[1].idleSince !== undefined && (!oldest || entry[1].idleSince < oldest[1].idleSince!)) oldest = entry;
    }
    if (!oldest) return false;
    // Closed at once: a client that sees it close picks another connection for its next request.
    this.open.delete(oldest[0]);
    oldest[0].destroy();
    return true;
  }

  /**
   * Makes room by closing the connection whose request body arrives the slowest (bytes a second
   * since its request came): a real client sends its body at once, a slowloris a byte at a time.
   * Of equally slow ones, the body begun first: a body that has just begun has had no time to arrive.
   * False when every request's body has arrived (a waiting call streams on, however long).
   */
  private closeSlowestBody(): boolean {
    const now = Date.now();
    const rate = (c: Connection, socket: Socket) => (socket.bytesRead - c.bodyFrom!.bytesRead) / Math.max(1, now - c.bodyFrom!.at);
    let slowest: [Socket, number, number] | undefined;
    for (const [socket, connection] of this.open) {
      if (!connection.bodyFrom) continue;
      const r = rate(connection, socket);
      if (!slowest || r < slowest[1] || (r === slowest[1] && connection.bodyFrom.at < slowest[2])) slowest = [socket, r, connection.bodyFrom.at];
    }
    if (!slowest) return false;
    if (!this.crowded) this.log(`MCP endpoint is full (${this.max} connections): closing the request whose body arrives slowest to make room`);
    this.crowded = true;
    this.open.delete(slowest[0]);
    slowest[0].destroy();
    return true;
  }

  /** No longer counted: told 503 at once, like a connection over the cap, and closed after a moment. */
  private evict(socket: Socket, connection: Connection): void {
    clearTimeout(connection.deadline);
    this.open.delete(socket);
    this.evicted.add(socket);
    socket.once('close', () => this.evicted.delete(socket));
    this.answerFull(socket);
  }

  /** The next request's headers must complete in time; an idle keep-alive connection is closed then too. */
  private awaitRequest(socket: Socket, connection: Connection): void {
    connection.deadline = setTimeout(() => socket.destroy(), this.headersTimeoutMs);
  }

  private requestArrived(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    const connection = this.open.get(socket);
    if (!connection) return;
    clearTimeout(connection.deadline);
    connection.idleSince = undefined;
    connection.requests++;
    // A request without a body (an agent's GET event stream) has none to trickle: its 'end' comes only if something reads it.
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    connection.bodyFrom = hasBody ? { at: Date.now(), bytesRead: socket.bytesRead } : undefined;
    // 'end' once the handler has read the whole body (listening for it reads nothing).
    req.once('end', () => (connection.bodyFrom = undefined));
    // A tools/call's response may stream for hours: the clock starts again only once it has finished.
    res.once('close', () => {
      connection.requests--;
      if (connection.requests > 0 || socket.destroyed) return;
      connection.idleSince = Date.now();
      this.awaitRequest(socket, connection);
    });
  }

  /** A quick 503 the client can read and retry after, rather than a reset it cannot tell from a crash. */
  private refuse(socket: Socket): void {
    if (!this.full) this.log(`MCP endpoint refuses new connections: ${this.max} are open`);
    this.full = true;
    this.answerFull(socket);
    // What the client sends is read and dropped: closing with it unread would reset the connection before the 503 is read.
    socket.resume();
  }

  /** Says 503 (whatever the client asks, or before it asks) and closes the connection after a moment. */
  private answerFull(socket: Socket): void {
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: tooManyConnections(this.max) }, id: null });
    const head = ['HTTP/1.1 503 Service Unavailable', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', 'Retry-After: 1'];
    socket.on('error', () => undefined);
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
    socket.once('close', () => clearTimeout(linger));
  }
}
