// A stand-in for the endpoint in the hook's tests: a local HTTP server that answers as the test says.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

type Handler = NonNullable<Parameters<typeof createServer>[1]>;

/**
 * A local HTTP server that answers every request with `handler`; closed after `body`. The decide
 * route is answered by `decide`, else 404 (an endpoint without it): the hook asks through a session.
 */
export async function withServer(handler: Handler, body: (url: string) => Promise<void>, decide?: Handler) {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/mcp/decide') return handler(req, res);
    if (decide) return decide(req, res);
    req.resume();
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
