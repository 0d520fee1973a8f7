// A webhook receiver on 127.0.0.1 for the nudge tests: it records every POST it gets, as a user's
// chat service or ntfy server would receive it, and answers 200.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  /** The body as JSON when it came as JSON (a webhook); {} otherwise (ntfy's plain text). */
  body: Record<string, unknown>;
  raw: string;
  headers: IncomingHttpHeaders;
}

export interface WebhookReceiver {
  /** Every POST so far, oldest first. */
  received: ReceivedPost[];
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** `onPost` hears each POST as it arrives (a benchmark's clock); tests read `received`. */
export async function startWebhookReceiver(onPost?: (post: ReceivedPost) => void): Promise<WebhookReceiver> {
  const received: ReceivedPost[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const json = req.headers['content-type']?.startsWith('application/json');
      const post = { path: req.url ?? '', body: json ? (JSON.parse(raw) as Record<string, unknown>) : {}, raw, headers: req.headers };
      received.push(post);
      res.writeHead(200).end('ok');
      onPost?.(post);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    received,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      // A client's kept-alive connection would hold close() open.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
