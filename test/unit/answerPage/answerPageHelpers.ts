// A real answer page server over a real broker, and plain HTTP against it.
import { Agent, request as httpRequest } from 'node:http';
import { QuestionBroker, type NewPermissionRequest, type NewQuestionRequest } from '../../../src/broker/broker';
import { renderMarkdownTree } from '../../../src/broker/markdown/markdownRender';
import { AnswerPageServer, type AnswerPageOptions } from '../../../src/answerPage/answerPageServer';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  bytes: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });

export function http(port: number, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, agent, headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw.toString('utf8'), bytes: raw.length });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** The capability and nonce a page carries in its form. */
export function formFields(html: string): { c: string; n: string } {
  const c = /name="c" value="([^"]+)"/.exec(html)?.[1];
  const n = /name="n" value="([^"]+)"/.exec(html)?.[1];
  if (!c || !n) throw new Error('the page has no form');
  return { c, n };
}

export const post = ({ port }: { port: number }, fields: Record<string, string | string[]>, headers: Record<string, string> = FORM) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return http(port, 'POST', '/answer', { headers, body: body.toString() });
};

export const QUESTION: NewQuestionRequest = {
  source: { type: 'tool', label: 'Copilot' },
  context: 'We found **two** options.',
  questions: [
    {
      id: 'db',
      header: 'Database',
      question: 'Which database?',
      kind: 'single',
      options: [{ label: 'SQLite', description: 'A file.', recommended: true }, { label: 'Postgres' }],
      allowOther: true,
    },
  ],
};

export const APPROVAL: NewPermissionRequest = {
  source: { type: 'mcp', label: 'Claude Code' },
  title: 'Run a command',
  detail: 'npm test',
  toolCall: { tool: 'Bash', command: 'npm test', fields: [], warnings: [], summary: 'Runs npm (the test script).' },
  rememberOptions: [{ key: 'npm test', label: 'npm test', description: 'This exact command.' }],
};

export interface Fixture {
  broker: QuestionBroker;
  server: AnswerPageServer;
  port: number;
  clock: { now: number };
}

export async function withPage(run: (f: Fixture) => Promise<void>, options: Partial<AnswerPageOptions> = {}): Promise<void> {
  let next = 0;
  const clock = { now: 1_000_000 };
  const broker = new QuestionBroker({ newId: () => `r${++next}` });
  const server = new AnswerPageServer(broker, { linkTtlMs: 60_000, renderMarkdown: renderMarkdownTree, now: () => clock.now, ...options });
  const port = await server.start();
  try {
    await run({ broker, server, port, clock });
  } finally {
    server.dispose();
    await server.stop();
    broker.dispose();
  }
}

export function askQuestion(broker: QuestionBroker, request: NewQuestionRequest = QUESTION) {
  let id = '';
  const response = broker.ask(request, { onQueued: (queued) => (id = queued) });
  return { id, response };
}

export function askPermission(broker: QuestionBroker, request: NewPermissionRequest = APPROVAL) {
  let id = '';
  const response = broker.requestPermission(request, { onQueued: (queued) => (id = queued) });
  return { id, response };
}

/** Opens the page with a new link; returns the page and its form's capability and nonce. */
export async function openPage(f: Fixture, id: string) {
  const page = await http(f.port, 'GET', f.server.linkFor(id)!);
  return { page, ...formFields(page.body) };
}
