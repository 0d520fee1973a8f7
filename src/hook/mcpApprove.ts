// The hook command's client of our endpoint, plain HTTP. First one POST to the decide route (over
// node:net), which answers at once when no person is needed (a remembered rule, the policy); when one must
// be asked (204), or the endpoint has no such route (404), one MCP session on the Streamable HTTP
// endpoint over node:http (initialize, then notifications/initialized and tools/call `approve` together). Replies may
// be JSON or an SSE stream. Only loopback URLs get the token. Node builtins only.
import type { IncomingMessage, request as httpRequest } from 'node:http';
import { eventStreamMessages } from '../broker/contract/eventStream';
import { APPROVE_TOOL, ASK_USER_QUESTION_TOOL, DECIDE_ROUTE } from '../broker/contract/wireNames';
import { isObject } from './isObject';
import type { Confinement } from '../broker/contract/wireNames';

/** Why no decision could be had; the message is for the user's terminal and never holds the token. */
export class HookFailure extends Error {}

export interface ApproveCall {
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
  /** The folder the agent runs the call in; '' when it said none. */
  cwd?: string;
  confinement?: Confinement;
}

export type ApproveDecision = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

export interface ApproveOptions {
  url: string;
  token: string;
  clientInfo: { name: string; title: string; version: string };
  /** Aborted when the agent stops waiting: the request closes and the panel settles it as cancelled. */
  signal: AbortSignal;
  /** For every step before the user is asked (the endpoint is down or hangs). */
  connectTimeoutMs?: number;
  /**
   * Resolves with a reason to withdraw the call, which the endpoint records (the user answered in the
   * agent's own prompt; the hook hands the decision back at its deadline).
   */
  withdrawWith?: Promise<string>;
  /** Called once a person must be asked (before the session opens); never for a rule's decision. */
  onAsking?: () => void;
}

const PROTOCOL_VERSION = '2025-06-18';
const MAX_REPLY_BYTES = 4 * 1024 * 1024;

interface Reply {
  status: number;
  sessionId: string | undefined;
  contentType: string;
  body: string;
}

/** The URL, if it is one we may send the token to: http on the loopback interface. */
export function loopbackUrl(text: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  return url.protocol === 'http:' && loopback ? url : undefined;
}

function send(
  request: typeof httpRequest,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
  timeoutMs: number | undefined,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { ...headers, ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}) }, signal, agent: false });
    const timer = timeoutMs ? setTimeout(() => req.destroy(new HookFailure(`the endpoint at ${url.origin} did not answer within ${timeoutMs / 1000} s`)), timeoutMs) : undefined;
    const done = () => clearTimeout(timer);
    req.on('error', (error) => {
      done();
      reject(error);
    });
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_REPLY_BYTES) req.destroy(new HookFailure('the endpoint sent an oversized reply'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        done();
        const session = res.headers['mcp-session-id'];
        resolve({
          status: res.statusCode ?? 0,
          sessionId: typeof session === 'string' ? session : undefined,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', (error) => {
        done();
        reject(error);
      });
    });
    req.end(body);
  });
}

/**
 * Sends a request whose answer nobody waits for (closing the session): resolves once it is written,
 * and the open socket no longer keeps the hook's process alive, so the hook exits without the reply.
 */
function sendAndLeave(request: typeof httpRequest, url: URL, method: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method, headers, agent: false });
    req.on('error', () => resolve());
    req.on('socket', (socket) => socket.unref());
    req.end(() => resolve());
  });
}

/** The JSON-RPC messages of a reply: one JSON value (or a batch), or the `data:` events of an SSE stream. */
export function replyMessages(contentType: string, body: string): unknown[] {
  if (/text\/event-stream/i.test(contentType)) return eventStreamMessages(body);
  try {
    const parsed: unknown = JSON.parse(body);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

/** Printable server text: one line, no control characters, capped. */
const oneLine = (text: string) =>
  text
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .trim()
    .slice(0, 300);

function statusFailure(status: number, step: string): HookFailure {
  if (status === 401)
    return new HookFailure('the endpoint refused the token (401): it was rotated or belongs to another VS Code window; open a new VS Code terminal and start the agent there');
  if (status === 403) return new HookFailure('the endpoint refused the request (403)');
  return new HookFailure(`the endpoint answered HTTP ${status} to ${step}`);
}

/** The result of the JSON-RPC request `id` in a reply, or a HookFailure saying what went wrong. */
function resultOf(reply: Reply, id: number, step: string): Record<string, unknown> {
  if (reply.status !== 200) throw statusFailure(reply.status, step);
  const message = replyMessages(reply.contentType, reply.body).find((m) => isObject(m) && m['id'] === id);
  if (!isObject(message)) throw new HookFailure(`the endpoint's reply to ${step} held no answer`);
  if (isObject(message['error'])) throw new HookFailure(`the endpoint refused ${step}: ${oneLine(String(message['error']['message'] ?? 'error'))}`);
  if (!isObject(message['result'])) throw new HookFailure(`the endpoint's reply to ${step} held no result`);
  return message['result'];
}

/** The decision in the approve tool's result, as its text content holds it. */
export function decisionOf(result: Record<string, unknown>): ApproveDecision {
  const content = Array.isArray(result['content']) ? result['content'] : [];
  const text = content.find((c): c is { text: string } => isObject(c) && c['type'] === 'text' && typeof c['text'] === 'string')?.text ?? '';
  if (result['isError'] === true) throw new HookFailure(`the approve tool failed: ${oneLine(text)}`);
  return decisionIn(text);
}

/** The decision a JSON text holds (the approve tool's text, or the decide route's body). */
function decisionIn(text: string): ApproveDecision {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HookFailure('the approve tool answered something other than a decision');
  }
  if (isObject(parsed) && parsed['behavior'] === 'allow' && isObject(parsed['updatedInput'])) return { behavior: 'allow', updatedInput: parsed['updatedInput'] };
  if (isObject(parsed) && parsed['behavior'] === 'deny' && typeof parsed['message'] === 'string') return { behavior: 'deny', message: parsed['message'] };
  throw new HookFailure('the approve tool answered something other than a decision');
}

/** Asks the endpoint's `approve` tool and waits as long as the user takes. Throws HookFailure. */
export async function askApprove(call: ApproveCall, options: ApproveOptions): Promise<ApproveDecision> {
  const url = loopbackUrl(options.url);
  if (!url) throw new HookFailure('the endpoint URL is not an http URL on 127.0.0.1; the token is sent nowhere else');
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  // Ends the call: when the agent stops waiting, or once the endpoint was told the user answered elsewhere.
  const withdrawn = new AbortController();
  const signal = AbortSignal.any([options.signal, withdrawn.signal]);
  const base: Record<string, string> = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (headers: Record<string, string>, message: unknown, timeoutMs: number | undefined) =>
    send(request, url, 'POST', { ...base, ...headers }, JSON.stringify(message), signal, timeoutMs);

  const opened: { session?: Record<string, string> } = {};
  void options.withdrawWith?.then(async (reason) => {
    // Best effort, before the call is dropped: without it the endpoint records that the asker gave up.
    const cancelled = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason } };
    if (opened.session) await send(request, url, 'POST', { ...base, ...opened.session }, JSON.stringify(cancelled), options.signal, 2000).catch(() => undefined);
    withdrawn.abort();
  });
  const arguments_ = {
    tool_name: call.tool_name,
    input: call.input,
    ...(call.tool_use_id !== undefined ? { tool_use_id: call.tool_use_id } : {}),
    ...(call.cwd !== undefined ? { cwd: call.cwd } : {}),
    ...(call.confinement !== undefined ? { confinement: call.confinement } : {}),
  };
  // Allow means: run what the user was shown. Anything else in updatedInput (a rewritten command from
  // whatever answers on this port) is no decision, and the agent asks itself.
  // The one change allowed: a question tool's answers, which is what answering it means.
  const checked = (decision: ApproveDecision): ApproveDecision => {
    const asked = call.tool_name === ASK_USER_QUESTION_TOOL && decision.behavior === 'allow' ? { ...call.input, answers: decision.updatedInput['answers'] } : call.input;
    if (decision.behavior === 'allow' && !sameValue(decision.updatedInput, asked))
      throw new HookFailure('the endpoint answered allow with an input other than the one asked about');
    return decision;
  };
  // A question is always the user's: straight to the session.
  if (call.tool_name !== ASK_USER_QUESTION_TOOL) {
    const decided = await decideAtOnce(url, base, { client: options.clientInfo, arguments: arguments_ }, signal, connectTimeoutMs);
    if (decided) return checked(decided);
  }
  options.onAsking?.();
  // Loaded only for a session: a rule's decision, or a hook that decides without the endpoint, never loads node:http.
  const { request } = require('node:http') as typeof import('node:http');
  let reply: Reply;
  try {
    reply = await post(
      {},
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: options.clientInfo } },
      connectTimeoutMs,
    );
  } catch (error) {
    throw connectFailure(error, url);
  }
  const initialized = resultOf(reply, 1, 'initialize');
  const sessionId = reply.sessionId;
  if (!sessionId) throw new HookFailure('the endpoint opened no session');
  const version = typeof initialized['protocolVersion'] === 'string' ? initialized['protocolVersion'] : PROTOCOL_VERSION;
  const session = { 'mcp-session-id': sessionId, 'mcp-protocol-version': version };
  opened.session = session;
  try {
    // The notification needs no answer before the call: both go at once, one round trip instead of two.
    const noted = post(session, { jsonrpc: '2.0', method: 'notifications/initialized' }, connectTimeoutMs).then((note) => {
      if (note.status !== 202 && note.status !== 200) throw statusFailure(note.status, 'notifications/initialized');
    });
    // No timeout: the question waits in the panel as long as the user takes.
    const [answer] = await Promise.all([post(session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: APPROVE_TOOL, arguments: arguments_ } }, undefined), noted]);
    return checked(decisionOf(resultOf(answer, 2, 'the approve call')));
  } catch (error) {
    throw connectFailure(error, url);
  } finally {
    // Best effort, and the hook does not wait for the reply: the endpoint also closes idle sessions itself when it needs room.
    if (!signal.aborted) await sendAndLeave(request, url, 'DELETE', { authorization: base.authorization!, ...session });
  }
}

/**
 * The decide route's decision, in one request; undefined when a person must be asked (204) or the
 * endpoint has no such route (404, an older one): then the session asks. Anything else fails closed.
 */
async function decideAtOnce(url: URL, headers: Record<string, string>, body: unknown, signal: AbortSignal, timeoutMs: number): Promise<ApproveDecision | undefined> {
  let reply: { status: number; body: string };
  try {
    reply = await postOverSocket(url, `${url.pathname.replace(/\/$/, '')}${DECIDE_ROUTE}`, { ...headers, accept: 'application/json' }, JSON.stringify(body), signal, timeoutMs);
  } catch (error) {
    throw connectFailure(error, url);
  }
  if (reply.status === 204 || reply.status === 404) return undefined;
  if (reply.status !== 200) throw statusFailure(reply.status, 'the decide request');
  return decisionIn(reply.body);
}

/**
 * One HTTP/1.1 POST on a socket of its own, closed by the server after its reply: node:http would cost
 * the hook's start-up several milliseconds more. The reply counts once it is whole by its own framing,
 * without waiting for the server to close: destroying a socket makes Node create the process's stderr
 * stream, which a rule's decision never needs. A reply that is not whole HTTP/1.1 is no answer.
 */
function postOverSocket(url: URL, path: string, headers: Record<string, string>, body: string, signal: AbortSignal, timeoutMs: number): Promise<{ status: number; body: string }> {
  const { connect } = require('node:net') as typeof import('node:net');
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80), noDelay: true });
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: Error | { status: number; body: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (!(outcome instanceof Error)) {
        // The server closes it; until then it must not keep the hook's process alive.
        socket.unref();
        return resolve(outcome);
      }
      socket.destroy();
      return reject(outcome);
    };
    const timer = setTimeout(() => settle(new HookFailure(`the endpoint at ${url.origin} did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
    const onAbort = () => settle(Object.assign(new Error('the agent stopped waiting'), { name: 'AbortError' }));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (received.length + chunk.length > MAX_REPLY_BYTES) return settle(new HookFailure('the endpoint sent an oversized reply'));
      received = Buffer.concat([received, chunk]);
      const reply = readReply(received, false);
      if (reply) settle(reply);
    });
    socket.on('error', (error) => settle(error));
    socket.on('end', () => settle(readReply(received) ?? new HookFailure('the endpoint sent a reply that is not HTTP the hook reads')));
    const lines = Object.entries({ host: url.host, ...headers, 'content-length': String(Buffer.byteLength(body)), connection: 'close' }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`);
  });
}

/**
 * The status of a whole HTTP/1.1 reply, and its body (its length said, or in chunks); undefined for
 * anything else. Before the server closed the socket (`closed` false), a body of neither kind is not
 * whole yet, unless the status has none (204, 304).
 */
export function readReply(reply: Buffer, closed = true): { status: number; body: string } | undefined {
  const split = reply.indexOf('\r\n\r\n');
  const head = reply.subarray(0, Math.max(0, split)).toString('latin1').toLowerCase();
  const status = /^http\/1\.[01] (\d{3}) /.exec(head);
  if (split < 0 || !status) return undefined;
  let body = reply.subarray(split + 4);
  if (/\r\ntransfer-encoding: *chunked/.test(head)) {
    const parts: Buffer[] = [];
    for (let at = 0, size = -1; size !== 0; at += size + 2) {
      const eol = body.indexOf('\r\n', at);
      size = eol < 0 ? NaN : parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (!Number.isInteger(size) || size < 0) return undefined;
      parts.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2;
    }
    body = Buffer.concat(parts);
  } else {
    const length = /\r\ncontent-length: *(\d+)/.exec(head);
    if (length ? body.length !== Number(length[1]) : !closed && status[1] !== '204' && status[1] !== '304') return undefined;
  }
  return { status: Number(status[1]), body: body.toString('utf8') };
}

/** Deep equality of JSON values; the order of object keys does not matter. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  return keysA.length === keysB.length && keysA.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** A transport error as a HookFailure that says what to do. */
function connectFailure(error: unknown, url: URL): HookFailure {
  if (error instanceof HookFailure) return error;
  const code = (error as { code?: string }).code;
  if (code === 'ABORT_ERR' || (error as Error).name === 'AbortError') return new HookFailure('the agent stopped waiting');
  if (code === 'ECONNREFUSED')
    return new HookFailure(
      `nothing listens at ${url.origin}${url.pathname}: the endpoint is off or VS Code was closed (turn on agentQuestions.mcp.enabled, then open a new terminal)`,
    );
  if (code === 'ECONNRESET') return new HookFailure(`the endpoint at ${url.origin} closed the connection (VS Code closed, or the session was disconnected)`);
  return new HookFailure(`cannot reach the endpoint at ${url.origin} (${code ?? oneLine((error as Error).message ?? String(error))})`);
}
