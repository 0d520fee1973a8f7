// The Question panel: shows the head of the queue, keeps the shown request until it settles,
// and sends typed replies. Every message from the host is validated before use.
import { HostToPanelSchema, type PanelToHost } from '../broker/protocol';
import type { PendingRequest, PermissionRequest, QuestionRequest } from '../broker/schemas';
import { el } from './dom';
import { renderQuestionForm } from './questionForm';
import { registerToolkit, type ToolkitButton } from './toolkit';

declare function acquireVsCodeApi(): { postMessage(message: PanelToHost): void };

registerToolkit();
const host = acquireVsCodeApi();
const app = document.getElementById('app')!;
const announcer = document.getElementById('announcer')!;
let shownId: string | undefined;
let sent = false;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = HostToPanelSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('Agent Questions: dropped a malformed message from the host');
    return;
  }
  show(parsed.data.pending);
});
host.postMessage({ type: 'ready' });

function show(pending: PendingRequest[]): void {
  // A request being answered stays on screen until it settles; newer ones wait their turn.
  const current = pending.find((r) => r.id === shownId);
  const request = current ?? pending[0];
  if (request && request.id === shownId) {
    updateWaiting(pending.length - 1);
    return;
  }
  shownId = request?.id;
  sent = false;
  app.replaceChildren();
  if (!request) {
    app.append(el('p', { class: 'empty' }, 'No agent is waiting for you.'));
    return;
  }
  app.append(request.kind === 'permission' ? renderPermission(request) : renderQuestions(request), el('p', { class: 'waiting', id: 'waiting' }));
  updateWaiting(pending.length - 1);
  announcer.textContent = `${request.source.label} is asking: ${request.kind === 'permission' ? request.title : request.questions.map((q) => q.header).join(', ')}`;
}

function updateWaiting(more: number): void {
  const waiting = document.getElementById('waiting');
  if (waiting) waiting.textContent = more > 0 ? `${more} more waiting` : '';
}

function send(message: PanelToHost): void {
  if (sent) return; // double clicks and key repeat are harmless
  sent = true;
  for (const button of app.querySelectorAll<ToolkitButton>('vscode-button')) button.disabled = true;
  host.postMessage(message);
}

function header(request: PendingRequest): HTMLElement {
  return el('div', { class: 'request-source' }, `${request.source.label} asks`);
}

function renderQuestions(request: QuestionRequest): HTMLElement {
  const submit = el('vscode-button', { appearance: 'primary', disabled: true, 'data-action': 'submit' }, 'Submit') as ToolkitButton;
  const form = renderQuestionForm(request, () => (submit.disabled = sent || !form.read()));
  submit.addEventListener('click', () => {
    const answers = form.read();
    if (answers) send({ type: 'reply', requestId: request.id, answers });
  });
  const reject = el('vscode-button', { appearance: 'secondary', 'data-action': 'reject' }, 'Reject');
  reject.addEventListener('click', () => send({ type: 'reject', requestId: request.id, reason: 'The user declined to answer.' }));
  const context = request.context ? [el('p', { class: 'context' }, request.context)] : [];
  const view = el('form', { class: 'request', 'aria-label': 'Questions from the agent' }, header(request), ...context, form.element, el('div', { class: 'actions' }, submit, reject));
  view.addEventListener('submit', (e) => e.preventDefault());
  submit.disabled = !form.read();
  queueMicrotask(() => form.focusFirst());
  return view;
}

function renderPermission(request: PermissionRequest): HTMLElement {
  const button = (label: string, decision: 'allow_once' | 'allow_always' | 'deny', appearance: string) => {
    const b = el('vscode-button', { appearance, 'data-action': decision }, label);
    b.addEventListener('click', () => send({ type: 'decide', requestId: request.id, decision }));
    return b;
  };
  return el(
    'section',
    { class: 'request permission', 'aria-label': 'Permission request' },
    header(request),
    el('h2', { class: 'permission-title' }, request.title),
    el('p', { class: 'permission-detail' }, request.detail),
    el('div', { class: 'actions' }, button('Allow once', 'allow_once', 'primary'), button('Always allow', 'allow_always', 'secondary'), button('Deny', 'deny', 'secondary')),
  );
}
