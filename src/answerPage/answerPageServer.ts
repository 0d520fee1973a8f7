// The one-question answer page: an HTTP server on 127.0.0.1 only, reachable from elsewhere only
// through VS Code's own forwarding (the extension passes its link through vscode.env.asExternalUri).
// Each link carries a capability for one request (answerCapabilities.ts); anything without a valid
// one gets the same 404. The first answer wins: the broker settles a request once, and a page whose
// request settled elsewhere says "No longer waiting".
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrokerChange, QuestionBroker } from '../broker/broker';
import type { Decider } from '../broker/contract/schemas';
import type { Disposable } from '../broker/events';
import { uiText } from '../broker/visibleText';
import { AnswerCapabilities } from './answerCapabilities';
import { parseDecisionForm, parseQuestionForm } from './answerPageForm';
import { escapeHtml, type RenderMarkdown } from './answerPageMarkdown';
import { formHtml, goneHtml, PAGE_CSS, pageHtml, showRequest, uniformNotFoundHtml } from './answerPageHtml';
import { format, withDefaults, type AnswerPageStrings } from './answerPageStrings';

/** What the history records for an answer given here. */
const ON_THE_PAGE: Decider = { by: 'user', where: 'page' };

export interface AnswerPageOptions {
  /** How long a link works, unless its request settles first. */
  linkTtlMs: number;
  log?: (message: string) => void;
  /** The page's words (English by default) and its lang attribute. */
  strings?: Partial<AnswerPageStrings>;
  lang?: string;
  /** markdownRender.ts's renderMarkdownTree (from dist/markdown.js); without it markdown is shown as text. */
  renderMarkdown?: RenderMarkdown;
  /** Origins, besides the page's own, whose POST is accepted: where VS Code's forwarding serves the page. */
  allowedOrigins?: readonly string[];
  /** Where the page's last port is kept (the window's storage): a restarted page listens there again. */
  lastPort?: PortMemory;
  now?: () => number;
}

/** The page's last port, kept across restarts; no secret (a link's capability never outlives its page). */
export interface PortMemory {
  get(): unknown;
  set(port: number): void;
}

/** The answer page's path; its form posts to it and its script asks `state` (both relative, for a proxy's path). */
export const ANSWER_PATH = '/answer';
/** Bodies above this are refused: four questions with an own answer and a note each fit with room to spare. */
export const MAX_BODY_BYTES = 256 * 1024;

const FORM_TYPE = 'application/x-www-form-urlencoded';

export class AnswerPageServer implements Disposable {
  private server: Server | undefined;
  private readonly capabilities: AnswerCapabilities;
  private readonly strings: AnswerPageStrings;
  private readonly lang: string;
  private readonly log: (message: string) => void;
  private readonly allowedOrigins = new Set<string>();
  private readonly subscription: Disposable;
  private readonly notFoundBody: string;
  private readonly notFoundCsp: string;

  constructor(
    private readonly broker: QuestionBroker,
    private readonly options: AnswerPageOptions,
  ) {
    this.capabilities = new AnswerCapabilities(options.now ?? Date.now);
    this.strings = withDefaults(options.strings);
    this.lang = options.lang ?? 'en';
    this.log = options.log ?? (() => undefined);
    for (const origin of options.allowedOrigins ?? []) this.allowOrigin(origin);
    // Settled anywhere (panel, page, agent, timeout): every link to it is void.
    this.subscription = broker.onDidChange((change: BrokerChange) => {
      if (change.type === 'settled') this.capabilities.voidRequest(change.request.id);
    });
    this.notFoundBody = uniformNotFoundHtml(this.lang, this.strings);
    const cssHash = createHash('sha256').update(PAGE_CSS).digest('base64');
    this.notFoundCsp = `default-src 'none'; style-src 'sha256-${cssHash}'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
  }

  /**
   * Listens on 127.0.0.1 only, on the last port if it is free (an old link then gets this page's own
   * "No longer waiting"), else on a free one. Resolves to the port.
   */
  async start(): Promise<number> {
    if (this.server) return this.port!;
    const last = this.options.lastPort?.get();
    const server = createServer((req, res) => this.handle(req, res));
    server.headersTimeout = 10_000;
    server.requestTimeout = 30_000;
    if (!isPort(last) || !(await listen(server, last))) await listen(server, 0, true);
    this.server = server;
    this.options.lastPort?.set(this.port!);
    return this.port!;
  }

  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  /** Accepts POSTs from this origin too (the one VS Code's forwarding gave, e.g. https://host:8080). */
  allowOrigin(origin: string): void {
    try {
      this.allowedOrigins.add(new URL(origin).origin);
    } catch {
      this.log('Answer page: ignored an allowed origin that is not a URL.');
    }
  }

  /**
   * A new link for a pending request: its path and query ("/answer?c=…"), to append to the
   * loopback origin and pass through asExternalUri. Undefined when the request is not pending.
   */
  linkFor(requestId: string): string | undefined {
    const request = this.broker.get(requestId);
    if (!request) return undefined;
    const shown = showRequest(request, this.strings, this.options.renderMarkdown);
    return `${ANSWER_PATH}?c=${this.capabilities.issue(requestId, shown.hash, this.options.linkTtlMs)}`;
  }

  /** The loopback URL of a new link (the server must be started). */
  urlFor(requestId: string): string | undefined {
    const path = this.linkFor(requestId);
    return path && this.port ? `http://127.0.0.1:${this.port}${path}` : undefined;
  }

  /** Links not yet spent, expired or void (for tests and the log). */
  get liveLinks(): number {
    return this.capabilities.size;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.capabilities.clear();
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  dispose(): void {
    this.subscription.dispose();
    void this.stop();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // A name rebound to 127.0.0.1 (evil.example) reaches this port too: only our own names are served.
    if (!this.knownHost(req.headers.host)) return this.notFound(res);
    let route: string;
    let query: URLSearchParams;
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      // The last segment only: behind a proxy the path may keep its prefix (/proxy/<port>/answer).
      route = url.pathname.split('/').filter(Boolean).pop() ?? '';
      query = url.searchParams;
    } catch {
      return this.notFound(res);
    }
    if (req.method === 'GET' && route === 'answer') return this.showPage(query, res);
    if (req.method === 'GET' && route === 'state') return this.state(query, res);
    if (req.method === 'POST' && route === 'answer') return void this.answer(req, res);
    this.notFound(res);
  }

  private shownHashNow = (requestId: string): string | undefined => {
    const request = this.broker.get(requestId);
    return request ? showRequest(request, this.strings, this.options.renderMarkdown).hash : undefined;
  };

  private showPage(query: URLSearchParams, res: ServerResponse): void {
    const token = query.get('c');
    const valid = this.capabilities.check(token, this.shownHashNow);
    const request = valid && this.broker.get(valid.requestId);
    if (!valid || !request) return this.notFound(res);
    const shown = showRequest(request, this.strings, this.options.renderMarkdown);
    const nonce = this.capabilities.bindNonce(valid);
    const main = `${formHtml(shown, token!, nonce)}<div id="gone" hidden role="status">${goneHtml(this.strings)}</div>`;
    this.sendPage(res, 200, main, shown.answerable);
  }

  /** The page's script asks whether its request still waits: 204 while it does, the uniform 404 once not. */
  private state(query: URLSearchParams, res: ServerResponse): void {
    const valid = this.capabilities.check(query.get('c'), this.shownHashNow);
    if (!valid || !this.capabilities.nonceMatches(valid, query.get('n'))) return this.notFound(res);
    this.securityHeaders(res, this.notFoundCsp);
    res.writeHead(204).end();
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A form posted from another site, or anything but a form: refused before the body is read.
    if (!this.sameOrigin(req) || !isFormType(req.headers['content-type'])) {
      req.resume();
      return this.notFound(res);
    }
    const body = await readBody(req);
    if (body === undefined) return this.notFound(res);
    const form = new URLSearchParams(body);
    const valid = this.capabilities.check(form.get('c'), this.shownHashNow);
    if (!valid || !this.capabilities.nonceMatches(valid, form.get('n'))) return this.notFound(res);
    // From here to the broker's settle, nothing awaits: no other answer can come between.
    const request = this.broker.get(valid.requestId);
    if (!request) return this.notFound(res);
    let settled: boolean;
    let problem: string | undefined;
    if (request.kind === 'permission') {
      const parsed = parseDecisionForm(form);
      if (!parsed.ok) problem = parsed.problem;
      settled = parsed.ok && this.broker.decide(request.id, parsed.decision, ON_THE_PAGE, parsed.message);
    } else {
      const parsed = parseQuestionForm(request, form);
      if (!parsed.ok) problem = parsed.problem;
      settled = parsed.ok && this.broker.reply(request.id, parsed.answers, ON_THE_PAGE);
    }
    if (settled) {
      this.capabilities.consume(valid);
      this.log(`Answer page: request ${uiText(request.id, 100)} was answered on the page.`);
      return this.sendPage(res, 200, `<h1>${escapeHtml(this.strings.answered)}</h1><p role="status">${escapeHtml(this.strings.answeredDetail)}</p>`, false);
    }
    if (!this.broker.get(request.id)) return this.notFound(res);
    const why = problem ?? 'it was refused';
    this.sendPage(res, 400, `<h1>${escapeHtml(this.strings.pageTitle)}</h1><p role="alert">${escapeHtml(format(this.strings.doesNotFit, why))}</p>`, false);
  }

  /** The origins the page is served under: the loopback names with this server's port, and the forwarders VS Code gave. */
  private ownOrigins(): string[] {
    const port = this.port;
    return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, ...this.allowedOrigins];
  }

  private knownHost(host: string | undefined): boolean {
    return host !== undefined && this.ownOrigins().some((origin) => new URL(origin).host === host.toLowerCase());
  }

  /**
   * The form's own POST: no Origin (old browsers) passes, one that is present must be one of ours
   * (never compared with the request's own Host, which a rebound page sets to match), and where the
   * browser says what the request is, it must be the form's navigation, not a script's fetch.
   */
  private sameOrigin(req: IncomingMessage): boolean {
    if (req.headers['sec-fetch-site'] === 'cross-site') return false;
    const mode = req.headers['sec-fetch-mode'];
    const dest = req.headers['sec-fetch-dest'];
    if ((mode !== undefined && mode !== 'navigate') || (dest !== undefined && dest !== 'document')) return false;
    const origin = req.headers.origin;
    return origin === undefined || this.ownOrigins().includes(origin.toLowerCase());
  }

  private sendPage(res: ServerResponse, status: number, main: string, withScript: boolean): void {
    const cspNonce = randomBytes(16).toString('base64');
    const csp = `default-src 'none'; script-src 'nonce-${cspNonce}'; style-src 'nonce-${cspNonce}'; connect-src 'self'; img-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
    this.securityHeaders(res, csp);
    res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(pageHtml(this.lang, this.strings.pageTitle, main, cspNonce, withScript));
  }

  /** The same status, headers and bytes for every request without a valid capability, whatever the reason. */
  private notFound(res: ServerResponse): void {
    this.securityHeaders(res, this.notFoundCsp);
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(this.notFoundBody);
  }

  private securityHeaders(res: ServerResponse, csp: string): void {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Frame-Options', 'DENY');
    // Not no-referrer: with it, browsers post the form with "Origin: null", which a cross-origin
    // sandboxed frame sends too. same-origin sends no referrer anywhere else (the page links nowhere).
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  }
}

const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= 65535;

/** Whether `server` now listens on `port` of 127.0.0.1; a failure rejects only when `orThrow`. */
function listen(server: Server, port: number, orThrow = false): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => (orThrow ? reject(error) : resolve(false));
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', failed);
      resolve(true);
    });
  });
}

function isFormType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === FORM_TYPE;
}

/** The body as text, or undefined past MAX_BODY_BYTES (the rest is drained, not kept). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}
