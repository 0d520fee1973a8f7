// The MCP endpoint's front door: every TCP connection passes here before Node's HTTP server sees it.
// Node's own limits do not fit: `maxConnections` resets a socket over the cap without a word, and
// `headersTimeout` is checked only every 30 s and never for a socket that has sent nothing. So the
// connections are counted and timed here. When all are taken, one that has not sent a request makes
// room: a real client sends at once, so a process holding connections open cannot lock agents out.
// No 'vscode' import, so it runs in plain Node tests too.
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';

/** How long a refused connection may stay to read its 503 before it is closed. */
const REFUSED_LINGER_MS = 1000;

interface Connection {
  /** Closes the connection unless a request's headers complete first. */
  deadline?: NodeJS.Timeout;
  /** Requests on this connection whose response has not finished. */
  requests: number;
  /** When its last response finished, while it waits for the next request (keep-alive). */
  idleSince?: number;
}

export class ConnectionGate {
  /** What listens: hands each accepted connection to `http`. */
  readonly server: Server;
  private readonly open = new Map<Socket, Connection>();
  /** Whether connections are being refused now (so the log says so once, not once a connection). */
  private full = false;
  /** Whether connections waiting for a first request are being closed to make room (logged once too). */
  private crowded = false;

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
    for (const socket of this.open.keys()) socket.destroy();
  }

  private accept(socket: Socket): void {
    if (this.open.size < this.max) this.crowded = false;
    else if (!this.closeWaiting() && !this.closeIdle()) return this.refuse(socket);
    if (this.full) this.log(`MCP endpoint accepts connections again (${this.open.size} open)`);
    this.full = false;
    // Node's own server turns Nagle off on what it accepts; handed over like this, the socket is ours to set.
    // Without it each streamed response waits ~40 ms for a delayed ACK.
    socket.setNoDelay(true);
    const connection: Connection = { requests: 0 };
    this.open.set(socket, connection);
    socket.once('close', () => {
      clearTimeout(connection.deadline);
      this.open.delete(socket);
    });
    this.awaitRequest(socket, connection);
    this.http.emit('connection', socket);
  }

  /**
   * Makes room by closing the connection that has waited the longest without a complete request
   * header: a real client sends its request at once, a flood never does. False when every connection
   * has completed one (is in a request, or idle between requests).
   */
  private closeWaiting(): boolean {
    // The map keeps accept order: the first one still waiting for its first request is the oldest.
    for (const [socket, connection] of this.open) {
      if (connection.requests > 0 || connection.idleSince !== undefined) continue;
      if (!this.crowded) this.log(`MCP endpoint is full (${this.max} connections): closing those that sent no request to make room`);
      this.crowded = true;
      this.open.delete(socket);
      socket.destroy();
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
    this.open.delete(oldest[0]);
    oldest[0].destroy();
    return true;
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
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Too many connections are open (${this.max}); retry in a moment` }, id: null });
    const head = ['HTTP/1.1 503 Service Unavailable', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', 'Retry-After: 1'];
    socket.on('error', () => undefined);
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    // What the client sends is read and dropped: closing with it unread would reset the connection before the 503 is read.
    socket.resume();
    const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
    socket.once('close', () => clearTimeout(linger));
  }
}
