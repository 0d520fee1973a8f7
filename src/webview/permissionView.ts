// A permission prompt: title, markdown detail, Allow once / Always allow / Deny (with an optional message).
import type { PermissionDecision, PermissionRequest } from '../broker/schemas';
import { el } from './dom';
import { renderMarkdown } from './markdown';
import type { RequestView } from './questionRequestView';
import type { ToolkitButton, ToolkitValue } from './toolkit';

export function renderPermissionRequest(request: PermissionRequest, header: HTMLElement, onDecide: (decision: PermissionDecision, message?: string) => void): RequestView {
  let locked = false;
  let confirmingDeny = false;
  const title = el('h2', { class: 'permission-title', tabindex: '-1' }, request.title);
  const confirmArea = el('div', { class: 'confirm', role: 'alert' });
  const denyMessage = el('vscode-text-field', { class: 'deny-message', placeholder: 'Why not? (optional, sent with Deny)', 'aria-label': 'Message for the agent, sent with Deny (optional)' }) as ToolkitValue;
  const decide = (decision: PermissionDecision) => onDecide(decision, decision === 'deny' ? denyMessage.value.trim() || undefined : undefined);
  const button = (label: string, decision: PermissionDecision, appearance: string) => {
    const b = el('vscode-button', { appearance, 'data-action': decision }, label);
    b.addEventListener('click', () => {
      if (!locked) decide(decision);
    });
    return b;
  };
  const keyNote = request.permissionKey ? [el('p', { class: 'hint' }, `"Always allow" applies to every request for "${request.permissionKey}" in this workspace.`)] : [];
  const root = el(
    'section',
    { class: 'request permission', 'aria-label': 'Permission request', 'data-request-id': request.id },
    header,
    title,
    renderMarkdown(request.detail),
    ...keyNote,
    confirmArea,
    el('div', { class: 'actions' }, button('Allow once', 'allow_once', 'primary'), button('Always allow', 'allow_always', 'secondary'), button('Deny', 'deny', 'secondary')),
    denyMessage,
  );
  return {
    element: root,
    // Focus the title, not a button: a stray Enter must never grant a permission.
    focusFirst: () => title.focus(),
    lock() {
      locked = true;
      for (const b of root.querySelectorAll<ToolkitButton>('vscode-button')) b.disabled = true;
      denyMessage.disabled = true;
    },
    handleKey(event) {
      if (locked || event.key !== 'Escape') return;
      event.preventDefault();
      if (confirmingDeny) return decide('deny');
      confirmingDeny = true;
      confirmArea.replaceChildren(el('p', {}, 'Press Escape again to deny.'));
    },
  };
}
