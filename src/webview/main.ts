// The Question panel: shows one request at a time (the head of the queue, or one chosen in the
// Queue), keeps it until it settles, and restores drafts after a reload. With nothing else to show,
// a question VS Code has only prepared is shown inert until its queued request takes it over. Host
// messages are validated before use; secrets never enter the saved state.
import { ageOf } from '../broker/age';
import { HostToPanelSchema, type HostToPanel, type PanelToHost } from '../broker/contract/protocol';
import type { HistoryEntry, PendingRequest, QuestionRequest, ResponseStatus } from '../broker/contract/schemas';
import { el } from './dom';
import { emptyRequestDraft, type RequestDraft } from './drafts';
import { renderHistory } from './historyView';
import { t, tParts } from './l10n';
import { setLinkOpener } from './markdown';
import { renderPermissionRequest } from './permissionView';
import { renderQuestionRequest, type RequestView } from './questionRequestView';
import { registerToolkit, warmToolkit } from './toolkit';

interface SavedState {
  shownId?: string;
  drafts: Record<string, RequestDraft>;
  historyOpen: boolean;
}

declare function acquireVsCodeApi(): {
  postMessage(message: PanelToHost): void;
  getState(): SavedState | undefined;
  setState(state: SavedState): void;
};

registerToolkit();
const host = acquireVsCodeApi();
setLinkOpener((href, requestId) => host.postMessage({ type: 'openLink', href, requestId }));
const saved: SavedState = { drafts: {}, historyOpen: false, ...host.getState() };
// Not a live region itself: its text is spoken through the announcer, with what comes next.
const noticeArea = el('div', { class: 'notice' });
const requestArea = el('div', { class: 'request-area' });
const waitingArea = el('div', { class: 'waiting' });
const historyArea = el('div', { class: 'history-area' });
document.getElementById('app')!.append(noticeArea, requestArea, waitingArea, historyArea);
const announcer = document.getElementById('announcer')!;

let pending: PendingRequest[] = [];
/** Prepared calls' questions, not in the queue: nothing can answer them until an 'added' replaces one. */
let previews: QuestionRequest[] = [];
/** The id the request on screen is answered under, and its draft: a preview's until its request takes it over. */
let binding: { id: string; draft?: RequestDraft } | undefined;
/** The user asked to focus the panel while a preview was on screen. */
let focusOnTakeOver = false;
let history: HistoryEntry[] = [];
let clockOffset = 0;
let view: RequestView | undefined;
let repliedTo: string | undefined;
let renderedHistoryKey: string | undefined;
let storedSecrets: string[] = [];

const save = () => host.setState(saved);
let sameTurn = false;
/**
 * Says `text` through the live region. What is said in one turn is said together (a notice and the
 * request that replaces it), and the same words twice still change the region, so both are spoken.
 */
function announce(text: string): void {
  const spoken = announcer.textContent ?? '';
  let words = sameTurn && spoken ? `${spoken.trimEnd()} ${text}` : text;
  if (words === spoken) words += '\u00a0';
  announcer.textContent = words;
  if (!sameTurn) {
    sameTurn = true;
    setTimeout(() => (sameTurn = false), 0);
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostToPanelSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('Agent Questions: dropped a malformed message from the host');
    return;
  }
  receive(parsed.data);
});
document.addEventListener('keydown', (event) => view?.handleKey(event));
setInterval(updateAges, 15_000);
host.postMessage({ type: 'ready' });
// After the snapshot's first render, before any question arrives.
setTimeout(warmToolkit, 0);

const HISTORY_SHOWN = 20;

function receive(message: HostToPanel): void {
  switch (message.type) {
    case 'snapshot':
      pending = message.pending;
      history = message.history;
      clockOffset = message.hostNow - Date.now();
      storedSecrets = message.storedSecrets;
      return refresh(0);
    case 'storedSecrets':
      storedSecrets = message.names;
      return;
    case 'added': {
      pending = insertInQueueOrder(pending, message.request);
      const preview = previews.find((r) => r.id === message.replaces);
      if (!preview) return refresh(1);
      previews = previews.filter((r) => r !== preview);
      const onScreen = preview.id === saved.shownId && view !== undefined;
      if (onScreen) takeOver(message.request);
      return refresh(onScreen ? 0 : 1);
    }
    case 'preview':
      previews = [...previews, message.request];
      return refresh(0);
    case 'withdrawn':
      previews = previews.filter((r) => r.id !== message.previewId);
      if (message.previewId === saved.shownId) dropView();
      return refresh(0);
    case 'settled':
      if (message.requestId === saved.shownId && message.requestId !== repliedTo) showNotice(noticeFor(message.status, message.reason));
      pending = pending.filter((r) => r.id !== message.requestId);
      if (message.historyEntry) history = [message.historyEntry, ...history].slice(0, HISTORY_SHOWN);
      delete saved.drafts[message.requestId];
      if (message.requestId === saved.shownId) dropView();
      save();
      return refresh(0);
    case 'show': {
      const request = pending.find((r) => r.id === message.requestId);
      if (request) show(request, true);
      updateWaiting();
      return;
    }
    case 'focus':
      // A preview takes no focus; its request does, when it takes it over.
      if (view?.element.inert) focusOnTakeOver = true;
      else view?.focusFirst();
      return;
    case 'ping':
      host.postMessage({ type: 'pong', nonce: message.nonce });
      return;
  }
}

/** Permissions before questions, oldest first within each: the broker's order. */
function insertInQueueOrder(queue: PendingRequest[], request: PendingRequest): PendingRequest[] {
  if (request.kind === 'questions') return [...queue, request];
  const firstQuestion = queue.findIndex((r) => r.kind === 'questions');
  return firstQuestion < 0 ? [...queue, request] : [...queue.slice(0, firstQuestion), request, ...queue.slice(firstQuestion)];
}

function refresh(arrived: number): void {
  const current = pending.find((r) => r.id === saved.shownId) ?? previews.find((r) => r.id === saved.shownId);
  // The request being answered stays on screen; newer ones wait their turn.
  if (current && view) {
    if (arrived > 0) announce(t('Another request is waiting.'));
  } else {
    show(current ?? pending[0] ?? previews[0]);
  }
  updateWaiting();
  // Most changes leave the history as it was; rebuilding it would only cost layout.
  const historyKey = `${history.length}:${history[0]?.requestId ?? ''}`;
  if (historyKey !== renderedHistoryKey) {
    renderedHistoryKey = historyKey;
    historyArea.replaceChildren(renderHistory(history, saved.historyOpen, (open) => ((saved.historyOpen = open), save())));
  }
}

/** `userAsked`: the user chose this request (Queue, notification, command), so its first control takes focus. */
function show(request: PendingRequest | undefined, userAsked = false): void {
  saved.shownId = request?.id;
  repliedTo = undefined;
  dropView();
  if (!request) {
    requestArea.replaceChildren(el('p', { class: 'empty' }, t('No agent is waiting for you.')));
    return save();
  }
  const header = el(
    'div',
    { class: 'request-source' },
    // The age stays its own element (it is refreshed), so the sentence is split around it.
    ...tParts('{0} asks · {1}', request.source.label, el('span', { class: 'age', 'data-created': String(request.createdAt) }, age(request.createdAt))),
    ...(request.source.via ? [el('span', { class: 'via' }, request.source.via)] : []),
  );
  if (request.kind === 'permission') {
    view = renderPermissionRequest(request, header, (decision, message, rule, scope, expiresAfterMinutes) => {
      repliedTo = request.id;
      view?.lock();
      host.postMessage({
        type: 'decide',
        requestId: request.id,
        decision,
        ...(message ? { message } : {}),
        ...(rule ? { rule } : {}),
        ...(scope ? { scope } : {}),
        ...(expiresAfterMinutes ? { expiresAfterMinutes } : {}),
      });
    });
  } else {
    // A preview's draft joins the saved state only when its request takes it over.
    const preview = previews.includes(request);
    const draft = preview ? emptyRequestDraft(request.questions, storedSecrets) : (saved.drafts[request.id] ??= emptyRequestDraft(request.questions, storedSecrets));
    const bound = (binding = { id: request.id, ...(preview ? { draft } : {}) });
    view = renderQuestionRequest(request, draft, header, storedSecrets, {
      onDraftChange: save,
      onSubmit: (answers, { values, useStored, allWorkspaces, nameConfirmed }, note) => {
        repliedTo = bound.id;
        view?.lock();
        host.postMessage({
          type: 'reply',
          requestId: bound.id,
          answers,
          ...(Object.keys(values).length ? { secrets: values } : {}),
          ...(useStored.length ? { useStored } : {}),
          ...(allWorkspaces.length ? { allWorkspaces } : {}),
          ...(nameConfirmed.length ? { nameConfirmed } : {}),
          ...(note ? { note } : {}),
        });
      },
      onReject: () => {
        repliedTo = bound.id;
        view?.lock();
        host.postMessage({ type: 'reject', requestId: bound.id, reason: 'The user declined to answer.' });
      },
      announce,
      hostNow: () => Date.now() + clockOffset,
    });
    // Seen, not answerable: no click, key or focus reaches it until its request takes it over.
    view.element.inert = preview;
  }
  requestArea.replaceChildren(view.element);
  // Saved once the question is on screen: the state's round trip to the workbench is not in its way.
  save();
  announce(
    request.kind === 'permission'
      ? t('{0} asks permission: {1}', request.source.label, request.title)
      : t('{0} asks: {1}', request.source.label, request.questions.map((q) => q.header).join(t(', '))),
  );
  // Focus moves in only when the user asked: a request that simply arrives must not catch keys
  // meant for an editor, a terminal or the chat (the toolkit's elements upgrade as they connect).
  if (userAsked) view.focusFirst();
  // A preview is not ready for input: its request says 'shown' when it takes it over.
  if (!view.element.inert) host.postMessage({ type: 'shown', requestId: request.id });
}

/** The queued request takes over its preview on screen: the same view and draft, now answerable under the request's id. */
function takeOver(request: PendingRequest): void {
  saved.shownId = request.id;
  if (binding?.draft) saved.drafts[request.id] = binding.draft;
  save();
  if (binding) binding.id = request.id;
  view!.element.dataset.requestId = request.id;
  view!.element.inert = false;
  if (focusOnTakeOver) view!.focusFirst();
  focusOnTakeOver = false;
  host.postMessage({ type: 'shown', requestId: request.id });
}

/** The request on screen leaves: its timers stop with it. */
function dropView(): void {
  view?.dispose?.();
  view = undefined;
  binding = undefined;
  focusOnTakeOver = false;
}

function updateWaiting(): void {
  const others = pending.filter((r) => r.id !== saved.shownId).length;
  if (others === 0) return waitingArea.replaceChildren();
  const link = el('button', { class: 'link-button', type: 'button', 'data-action': 'open-queue' }, others === 1 ? t('1 more waiting') : t('{0} more waiting', others));
  link.addEventListener('click', () => host.postMessage({ type: 'openQueue' }));
  waitingArea.replaceChildren(link);
}

function showNotice(text: string): void {
  noticeArea.replaceChildren(el('p', {}, text));
  announce(text);
  setTimeout(() => noticeArea.firstChild?.textContent === text && noticeArea.replaceChildren(), 20_000);
}

function noticeFor(status: ResponseStatus, reason: string | undefined): string {
  switch (status) {
    case 'cancelled':
      return t('The agent cancelled the request you were looking at.');
    case 'timed_out':
      return t('The request you were looking at timed out.');
    case 'answered':
      return t('The request you were looking at was answered elsewhere.');
    case 'rejected':
      return t('The request you were looking at was rejected elsewhere.');
    case 'unavailable':
      return reason ?? t('The request you were looking at could not be answered.');
  }
}

function age(createdAt: number): string {
  const { unit, count } = ageOf(createdAt, Date.now() + clockOffset);
  if (unit === 'now') return t('just now');
  if (unit === 'minutes') return count === 1 ? t('1 min ago') : t('{0} min ago', count);
  return count === 1 ? t('1 h ago') : t('{0} h ago', count);
}

function updateAges(): void {
  for (const span of document.querySelectorAll<HTMLElement>('.age')) span.textContent = age(Number(span.dataset.created));
}
