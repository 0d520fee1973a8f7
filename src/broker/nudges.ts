// A nudge wherever the human is: when a request has waited `afterMs` without being seen, one
// message goes to the user's channel (ntfy, a webhook). At most one per request (one message covers
// every request waiting then), a bounded number per hour, an optional reminder. By default the
// message says who asks, what kind and how many wait, never what: no question, command or answer.
// Who asks is in plain words: an agent names itself, and its name must not carry a link.
import type { PendingRequest } from './contract/schemas';
import { isSecretKind } from './contract/questionKinds';
import { clampSetting } from './settingRanges';
import { uiText } from './visibleText';

export interface NudgeSettings {
  /** How long a request waits unseen before the nudge (ms). */
  afterMs: number;
  /** A second nudge after this long unseen (ms); 0: none. */
  reminderAfterMs: number;
  maxPerHour: number;
  /** Questions' text (never a secret question's). */
  includeQuestionText: boolean;
  /** Approvals' command lines. */
  includeCommandText: boolean;
}

/** What VS Code's `inspect` tells of a setting: where each value comes from. */
export interface InspectedSetting {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The nudge settings from the user's own settings only. A repository's .vscode/settings.json could
 * otherwise send a nudge a second, or the questions' text, to the user's phone. The manifest makes
 * them application settings, so VS Code ignores workspace values; this is a second, independent guard.
 */
export function nudgeSettingsFrom(inspect: (key: string) => InspectedSetting | undefined): NudgeSettings {
  const user = <T>(key: string, type: 'number' | 'boolean', fallback: T): T => {
    const values = inspect(key);
    for (const value of [values?.globalValue, values?.defaultValue]) {
      if (typeof value === type && (type !== 'number' || Number.isFinite(value))) return value as T;
    }
    return fallback;
  };
  return {
    afterMs: clampSetting('agentQuestions.nudge.afterSeconds', user('afterSeconds', 'number', 120)) * 1000,
    reminderAfterMs: clampSetting('agentQuestions.nudge.reminderAfterSeconds', user('reminderAfterSeconds', 'number', 0)) * 1000,
    maxPerHour: Math.floor(clampSetting('agentQuestions.nudge.maxPerHour', user('maxPerHour', 'number', 6))),
    includeQuestionText: user('includeQuestionText', 'boolean', false),
    includeCommandText: user('includeCommandText', 'boolean', false),
  };
}

export interface NudgeMessage {
  /** One line for a phone's notification. */
  text: string;
  agent: string;
  kind: 'question' | 'approval';
  waiting: number;
  workspace: string;
  /** The answer page's link for the request, only while the page is on (see src/answerPage). */
  answerUrl?: string;
}

export interface NudgerOptions {
  settings: () => NudgeSettings;
  /** The requests waiting now. */
  pending: () => PendingRequest[];
  /** Whether the human is looking at the panel right now. */
  isSeen: () => boolean;
  /** The workspace's name, for the message. */
  workspace: () => string;
  /** Sends the message; false when there is no channel. Rejections are the channel's failures. */
  send: (message: NudgeMessage) => Promise<boolean>;
  /** A link that answers the request, made at send time; undefined while the answer page is off. */
  answerUrl?: (requestId: string) => Promise<string | undefined>;
  log: (message: string) => void;
  now?: () => number;
}

const HOUR_MS = 60 * 60_000;
const MAX_TEXT = 300;

interface Watch {
  timer: ReturnType<typeof setTimeout>;
  /** 1: the first nudge is next; 2: the reminder. */
  next: 1 | 2;
}

export class Nudger {
  private readonly watches = new Map<string, Watch>();
  private readonly sentAt: number[] = [];
  private failing = false;
  private limitLogged = false;
  private readonly now: () => number;

  constructor(private readonly options: NudgerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Requests a nudge (or reminder) is still due for: for tests. */
  get watching(): number {
    return this.watches.size;
  }

  /** A request arrived: nudge when it has waited unseen long enough. */
  added(request: PendingRequest): void {
    this.watch(request.id, 1, this.options.settings().afterMs);
  }

  /** A request settled: nothing more about it. */
  settled(requestId: string): void {
    const watch = this.watches.get(requestId);
    if (watch) clearTimeout(watch.timer);
    this.watches.delete(requestId);
  }

  /** The human looks at the panel: everything waiting now has been seen and needs no nudge. */
  seen(): void {
    for (const id of [...this.watches.keys()]) this.settled(id);
  }

  dispose(): void {
    this.seen();
  }

  private watch(id: string, next: 1 | 2, delayMs: number): void {
    this.settled(id);
    if (delayMs <= 0) return;
    this.watches.set(id, { next, timer: setTimeout(() => void this.due(id, next), delayMs) });
  }

  private async due(id: string, which: 1 | 2): Promise<void> {
    this.watches.delete(id);
    const pending = this.options.pending();
    const request = pending.find((r) => r.id === id);
    if (!request) return;
    if (this.options.isSeen()) return this.seen();
    const settings = this.options.settings();
    // One message covers every request waiting now: none of them gets a first nudge of its own.
    for (const other of pending) {
      const watch = this.watches.get(other.id);
      if (watch?.next === 1) this.settled(other.id);
    }
    if (which === 1 && settings.reminderAfterMs > 0) {
      for (const other of pending) this.watch(other.id, 2, settings.reminderAfterMs);
    }
    if (!this.withinLimit(settings.maxPerHour)) return;
    this.sentAt.push(this.now());
    try {
      const message = nudgeMessage(request, pending.length, this.options.workspace(), settings, await this.options.answerUrl?.(request.id));
      if (!(await this.options.send(message))) return;
      if (this.failing) this.options.log('Nudges are delivered again.');
      this.failing = false;
    } catch (error) {
      // Logged once until a nudge goes through again; never the channel's address.
      if (!this.failing) this.options.log(`A nudge could not be sent (${describeFailure(error)}); later failures are not logged until one is delivered.`);
      this.failing = true;
    }
  }

  private withinLimit(maxPerHour: number): boolean {
    const since = this.now() - HOUR_MS;
    while (this.sentAt.length && this.sentAt[0]! <= since) this.sentAt.shift();
    if (this.sentAt.length < maxPerHour) {
      this.limitLogged = false;
      return true;
    }
    if (!this.limitLogged) this.options.log(`No nudge sent: ${maxPerHour} were sent in the last hour (agentQuestions.nudge.maxPerHour).`);
    this.limitLogged = true;
    return false;
  }
}

/** The message for a request: who, what kind, how many, where; its text only where the settings allow. */
export function nudgeMessage(
  request: PendingRequest,
  waiting: number,
  workspace: string,
  settings: Pick<NudgeSettings, 'includeQuestionText' | 'includeCommandText'>,
  answerUrl?: string,
): NudgeMessage {
  const agent = plainName(request.source.label) || 'An agent';
  const kind = request.kind === 'permission' ? 'approval' : 'question';
  const place = uiText(workspace, 60);
  const asks = kind === 'approval' ? 'asks for your approval' : 'asks you a question';
  const others = waiting > 1 ? ` (${waiting} requests waiting)` : '';
  let text = `${agent} ${asks} in VS Code${place ? ` (${place})` : ''}${others}.`;
  const detail = detailOf(request, settings);
  if (detail) text += ` ${detail}`;
  const message: NudgeMessage = { text: uiText(text, MAX_TEXT + 200), agent, kind, waiting, workspace: place };
  if (answerUrl) message.answerUrl = answerUrl;
  return message;
}

const MAX_NAME = 40;
/** A word with a link scheme ("https://…", "tel:+1…", "mailto:…"), an address or "www.": dropped whole. */
const LINK_WORD = /^[a-z][a-z0-9+.-]*:\S|@|^www\./iu;

/**
 * An agent's self-reported name as plain words for a message read on a phone, where a URL or a
 * domain would be a link in our name ("VS Code: approve at https://…"): words that are links are
 * dropped, and every character but letters, digits, spaces, "-" and "'" becomes a space, so no dot
 * joins two words into a domain and no markup or control character is left. Capped; empty when
 * nothing is left.
 */
export function plainName(name: string): string {
  const words = name
    // Fullwidth and compatibility forms fold to ASCII first: "ｈｔｔｐｓ：／／" is a scheme too.
    .normalize('NFKC')
    // Markup brackets and quotes end a word too: "[click](https://…)" holds a link word.
    .split(/[\s\p{C}\p{Z}<>[\](){}"`*|\\]+/u)
    .filter((word) => !LINK_WORD.test(word))
    .map((word) => word.replace(/[^\p{L}\p{M}\p{N}'-]+/gu, ' '));
  let text = words.join(' ').replace(/\s+/g, ' ').trim();
  if (text.length > MAX_NAME) {
    const cut = text.slice(0, MAX_NAME + 1);
    const lastSpace = cut.lastIndexOf(' ');
    text = lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, MAX_NAME);
  }
  return /[\p{L}\p{N}]/u.test(text) ? text : '';
}

function detailOf(request: PendingRequest, settings: Pick<NudgeSettings, 'includeQuestionText' | 'includeCommandText'>): string {
  if (request.kind === 'permission') return settings.includeCommandText && request.toolCall?.command ? `Command: ${uiText(request.toolCall.command, MAX_TEXT)}` : '';
  if (!settings.includeQuestionText) return '';
  // A secret question's text says what the secret is for: it stays in VS Code.
  return uiText(
    request.questions
      .filter((q) => !isSecretKind(q.kind))
      .map((q) => q.question)
      .join(' / '),
    MAX_TEXT,
  );
}

/** A failure as a kind of error: a fetch error's message or cause can carry the address. */
function describeFailure(error: unknown): string {
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number') return `HTTP ${status}`;
  const cause = (error as { cause?: { code?: unknown } })?.cause?.code;
  if (typeof cause === 'string') return uiText(cause, 40);
  const name = (error as { name?: unknown })?.name;
  return typeof name === 'string' ? uiText(name, 40) : 'unknown error';
}
