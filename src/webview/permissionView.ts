// A permission prompt: who asks and what, the whole tool call (a shell command's one-line summary of
// what it does, the command in full, every other input key by name) with what is unusual called
// out, then the rule "Always" remembers (one per sub-command of a chained line, and the whole line),
// what it would have allowed of the recent commands, where and how long it applies (this session, this
// workspace for a day or a week, this workspace, all workspaces), and Allow once / Always allow / Always deny / Deny (with an optional message).
// Nothing the agent sent is cut or hidden.
import { invisibleCodePoints, invisibleCount } from '../broker/visibleText';
import { RULE_LIFETIMES, type PermissionDecision, type PermissionRequest, type RememberOption, type RuleScope, type ToolCall } from '../broker/contract/schemas';
import { el } from './dom';
import { t } from './l10n';
import { renderMarkdown } from './markdown';
import { namedField, spokenSeparator } from './questionControls';
import type { RequestView } from './questionRequestView';
import type { ToolkitButton, ToolkitCheckable, ToolkitValue } from './toolkit';

export function renderPermissionRequest(
  request: PermissionRequest,
  header: HTMLElement,
  onDecide: (decision: PermissionDecision, message?: string, rule?: string, scope?: RuleScope, expiresAfterMinutes?: number) => void,
): RequestView {
  let locked = false;
  let armed = false;
  let confirmingDeny = false;
  const options = request.rememberOptions ?? [];
  let rule = options[0];
  // Where and how long the rule applies: one choice (a day and a week are this workspace's; all workspaces' rules never end).
  const reaches: Array<{ scope: RuleScope; minutes?: number; label: string; where: string }> = [
    { scope: 'session', label: t('This session'), where: t('in this session') },
    { scope: 'workspace', minutes: RULE_LIFETIMES.day, label: t('For a day'), where: t('in this workspace for a day') },
    { scope: 'workspace', minutes: RULE_LIFETIMES.week, label: t('For a week'), where: t('in this workspace for a week') },
    { scope: 'workspace', label: t('This workspace'), where: t('in this workspace') },
    { scope: 'user', label: t('All workspaces'), where: t('in all workspaces') },
  ];
  let reach = reaches[3]!;
  const preview = el('div', { class: 'rule-preview', 'aria-live': 'polite' });
  const title = el('h2', { class: 'permission-title', tabindex: '-1' }, request.title);
  const confirmArea = el('div', { class: 'confirm', role: 'alert' });
  const denyMessage = namedField(
    'vscode-text-field',
    { class: 'deny-message', placeholder: t('Why not? (optional, sent with Deny)') },
    t('Message for the agent, sent with Deny (optional)'),
  );
  /** `remember`: Always deny (a denial that remembers the chosen rule). */
  const decide = (decision: PermissionDecision, remember = decision === 'allow_always') =>
    onDecide(
      decision,
      decision === 'deny' ? denyMessage.value.trim() || undefined : undefined,
      remember ? rule?.key : undefined,
      remember ? reach.scope : undefined,
      remember ? reach.minutes : undefined,
    );
  const button = (label: string, decision: PermissionDecision, appearance: string, action: string = decision) => {
    const b = el('vscode-button', { appearance, 'data-action': action }, label);
    b.addEventListener('click', () => {
      if (!locked) decide(decision, action === 'deny_always' || decision === 'allow_always');
    });
    return b;
  };
  const alwaysLabel = () => t('Always allow `{0}` {1}', rule?.label ?? '', reach.where);
  const denyAlwaysLabel = () => t('Always deny `{0}` {1}', rule?.label ?? '', reach.where);
  const always = options.length ? button(alwaysLabel(), 'allow_always', 'secondary') : undefined;
  const denyAlways = options.length ? button(denyAlwaysLabel(), 'deny', 'secondary', 'deny_always') : undefined;
  const relabel = () => {
    if (always) always.textContent = alwaysLabel();
    if (denyAlways) denyAlways.textContent = denyAlwaysLabel();
    preview.replaceChildren(...(rule ? previewOf(rule) : []));
  };
  const root = el(
    'section',
    { class: 'request permission', 'aria-label': t('Permission request'), 'data-request-id': request.id },
    header,
    title,
    ...warningsFor(request),
    request.toolCall ? renderToolCall(request.toolCall) : renderMarkdown(request.detail),
    ...(options.length > 1 ? [ruleChoice()] : []),
    ...(options.length ? [preview, scopeChoice()] : []),
    confirmArea,
    el(
      'div',
      { class: 'actions' },
      button(t('Allow once'), 'allow_once', 'primary'),
      ...(always ? [always] : []),
      button(t('Deny'), 'deny', 'secondary'),
      ...(denyAlways ? [denyAlways] : []),
    ),
    denyMessage,
    ...(options.length ? [el('p', { class: 'hint' }, t('Remembered rules are listed by "Agent Questions: Manage Remembered Permissions".'))] : []),
  );
  root.addEventListener('pointerdown', () => (armed = true));

  function ruleChoice(): HTMLElement {
    const group = el('vscode-radio-group', { orientation: 'vertical', class: 'rule-choice', 'aria-label': t('"Always allow" remembers') }) as ToolkitValue;
    const radios = options.map((option, i) => {
      const radio = el(
        'vscode-radio',
        { value: String(i), checked: i === 0 },
        el('code', {}, option.label),
        spokenSeparator(),
        el('span', { class: 'option-description' }, option.description),
      ) as ToolkitCheckable;
      group.append(radio);
      return radio;
    });
    group.addEventListener('change', () => {
      const index = radios.findIndex((r) => r.checked);
      if (index < 0) return;
      rule = options[index];
      relabel();
    });
    return el('div', { class: 'rule' }, el('p', { class: 'rule-heading' }, t('"Always allow" or "Always deny" remembers:')), group);
  }

  function scopeChoice(): HTMLElement {
    const group = el('vscode-radio-group', { orientation: 'horizontal', class: 'scope-choice', 'aria-label': t('The rule applies') }) as ToolkitValue;
    const radios = reaches.map((r, i) => {
      const radio = el('vscode-radio', { value: String(i), checked: r === reach }, r.label) as ToolkitCheckable;
      group.append(radio);
      return radio;
    });
    group.addEventListener('change', () => {
      const index = radios.findIndex((r) => r.checked);
      if (index < 0) return;
      reach = reaches[index]!;
      relabel();
    });
    return el('div', { class: 'scope' }, el('p', { class: 'rule-heading' }, t('The rule applies:')), group);
  }
  relabel();

  return {
    element: root,
    // Focus the title, not a button: a stray Enter must never grant a permission.
    focusFirst: () => {
      armed = true;
      title.focus();
    },
    lock() {
      locked = true;
      for (const b of root.querySelectorAll<ToolkitButton>('vscode-button')) b.disabled = true;
      denyMessage.disabled = true;
    },
    handleKey(event) {
      // Keys count only once the user came here: a click, the focus command, or focus on a control.
      armed ||= event.composedPath().some((t) => t instanceof HTMLElement && t !== root && t !== title && root.contains(t));
      if (locked || !armed || event.key !== 'Escape') return;
      event.preventDefault();
      if (confirmingDeny) return decide('deny');
      confirmingDeny = true;
      confirmArea.replaceChildren(el('p', {}, t('Press Escape again to deny.')));
    },
  };
}

/** What a rule would allow: its text, which recent commands it would have covered, and a warning when one of them was denied. */
function previewOf(option: RememberOption): HTMLElement[] {
  const parts: HTMLElement[] = [el('p', { class: 'rule-text' }, t('Rule: '), el('code', {}, option.label), ` — ${option.description}`)];
  const covers = option.preview?.covers ?? [];
  const denied = option.preview?.denied ?? [];
  if (denied.length)
    parts.push(el('p', { class: 'rule-denied', role: 'note' }, t('It would also allow {0} recent command(s) you denied:', denied.length), ...denied.map((c) => el('code', {}, c))));
  parts.push(
    covers.length
      ? el('p', { class: 'rule-covers' }, t('Of the recent commands, it would have allowed:'), ...covers.map((c) => el('code', {}, c)))
      : el('p', { class: 'rule-covers' }, t('It would have allowed none of the recent commands.')),
  );
  return parts;
}

/** What deserves a second look, first: the call's own warnings and any invisible character in what is shown, with how many. */
function warningsFor(request: PermissionRequest): HTMLElement[] {
  const call = request.toolCall;
  const shown = [request.title, ...(call ? [call.command ?? '', ...call.fields.flatMap((f) => [f.name, f.value])] : [request.detail])].join('\n');
  const hidden = invisibleCodePoints(shown);
  // The count of what is shown (the detail repeats a tool call's command but is not shown with it), so it matches the markers.
  const count = invisibleCount(shown);
  const warnings = [
    ...(count === 1 ? [t('Contains invisible characters ({0}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.', hidden.join(', '))] : []),
    ...(count > 1 ? [t('Contains {0} invisible characters ({1}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.', count, hidden.join(', '))] : []),
    ...(call?.warnings ?? []),
  ];
  if (warnings.length === 0) return [];
  return [
    el(
      'div',
      { class: 'warnings', role: 'note', 'aria-label': t('Check before allowing') },
      el('p', { class: 'warnings-heading' }, t('Check before allowing:')),
      el('ul', {}, ...warnings.map((w) => el('li', {}, w))),
    ),
  ];
}

function renderToolCall(call: ToolCall): HTMLElement {
  const parts: HTMLElement[] = [];
  // What the command does, from the host's parse of it (programs, writes and where, network, deletes): text, one line.
  if (call.summary !== undefined) parts.push(el('p', { class: 'hint command-summary', role: 'note' }, call.summary));
  if (call.command !== undefined) parts.push(el('p', { class: 'field-name' }, t('Command')), el('pre', { class: 'command' }, call.command));
  if (call.fields.length) {
    parts.push(
      el(
        'dl',
        { class: 'fields' },
        ...call.fields.flatMap((f) => [el('dt', { class: f.warning ? 'unusual' : '' }, f.name), el('dd', {}, el('pre', { class: 'field-value' }, f.value))]),
      ),
    );
  }
  if (parts.length === 0) parts.push(el('p', { class: 'hint' }, t('{0} with no input.', call.tool)));
  return el('div', { class: 'tool-call', 'data-tool': call.tool }, ...parts);
}
