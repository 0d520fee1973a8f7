// A local process holding the MCP endpoint's token and crowding it, as an `npm install` script in a
// VS Code terminal could: connections that each send a POST's headers and the start of its body,
// then a byte every so often, never finishing. Each one the server closes is opened again at once,
// so the crowd stays as large as the server lets it be. It records how each one ended.
import { connect, type Socket } from 'node:net';

export interface SlowBodies {
  /** Connections open now. */
  readonly open: number;
  /** Connections opened so far, the first `count` included. */
  readonly opened: number;
  /** Of the first `count` connections, how many are still open. */
  readonly firstStillOpen: number;
  /** How the server ended those it closed: 408 (body deadline), 503 (full), closed without an answer (made room). */
  readonly endings: { bodyDeadline: number; full: number; unanswered: number; other: number };
  /** The longest any closed connection lived, in ms. */
  readonly longestLifeMs: number;
  stop(): void;
}

/** `count` token-holding slow-body POSTs to `url`, each sending one more byte every `everyMs`. */
export function slowBodies(url: string, token: string, count: number, everyMs: number): SlowBodies {
  const { hostname, port, pathname } = new URL(url);
  const sockets = new Set<Socket>();
  const first = new Set<Socket>();
  const endings = { bodyDeadline: 0, full: 0, unanswered: 0, other: 0 };
  let opened = 0;
  let open = 0;
  let longestLifeMs = 0;
  let stopped = false;
  const head = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, `Authorization: Bearer ${token}`, 'Content-Type: application/json', 'Content-Length: 4096'];

  const start = () => {
    const socket = connect(Number(port), hostname);
    let connectedAt: number | undefined;
    let answer = '';
    opened++;
    sockets.add(socket);
    if (opened <= count) first.add(socket);
    // JSON whitespace: the body stays valid-looking however long it trickles.
    const trickle = setInterval(() => socket.write(' '), everyMs);
    socket.on('connect', () => {
      connectedAt = Date.now();
      open++;
      socket.write(`${head.join('\r\n')}\r\n\r\n{"jsonrpc":"2.0",`);
    });
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(trickle);
      sockets.delete(socket);
      first.delete(socket);
      // Never connected: the endpoint is not listening, and reopening would only spin.
      if (connectedAt === undefined) return;
      open--;
      if (stopped) return;
      longestLifeMs = Math.max(longestLifeMs, Date.now() - connectedAt);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status === '408') endings.bodyDeadline++;
      else if (status === '503') endings.full++;
      else if (status === undefined) endings.unanswered++;
      else endings.other++;
      start();
    });
  };
  for (let i = 0; i < count; i++) start();

  return {
    get open() {
      return open;
    },
    get opened() {
      return opened;
    },
    get firstStillOpen() {
      return first.size;
    },
    endings,
    get longestLifeMs() {
      return longestLifeMs;
    },
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
