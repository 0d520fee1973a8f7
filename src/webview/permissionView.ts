// A permission prompt: title, markdown detail, Allow once / Always allow / Deny.
import type { PermissionDecision, PermissionRequest } from '../broker/schemas';
import { el } from './dom';
import { renderMarkdown } from './markdown';
import type { RequestView } from './questionRequestView';
import type { ToolkitButton } from './toolkit';

export function renderPermissionRequest(request: PermissionRequest, header: HTMLElement, onDecide: (decision: PermissionDecision) => void): RequestView {
  let locked = false;
  let confirmingDeny = false;
  const title = el('h2', { class: 'permission-title', tabindex: '-1' }, request.title);
  const confirmArea = el('div', { class: 'confirm', role: 'alert' });
  const button = (label: string, decision: PermissionDecision, appearance: string) => {
    const b = el('vscode-button', { appearance, 'data-action': decision }, label);
    b.addEventListener('click', () => {
      if (!locked) onDecide(decision);
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
  );
  return {
    element: root,
    // Focus the title, not a button: a stray Enter must never grant a permission.
    focusFirst: () => title.focus(),
    lock() {
      locked = true;
      for (const b of root.querySelectorAll<ToolkitButton>('vscode-button')) b.disabled = true;
    },
    handleKey(event) {
      if (locked || event.key !== 'Escape') return;
      event.preventDefault();
      if (confirmingDeny) return onDecide('deny');
      confirmingDeny = true;
      confirmArea.replaceChildren(el('p', {}, 'Press Escape again to deny.'));
    },
  };
}
