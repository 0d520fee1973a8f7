// One question's input control, bound to its draft: radio group, checkboxes, text area or
// masked field, plus "Other…" and an optional note. Secret values stay in the DOM only.
import { envVarNeedsConfirmation } from '../broker/secrets/envVarPolicy';
import type { Question, QuestionKind } from '../broker/contract/schemas';
import { isSecretKind, unhandledKind } from '../broker/contract/questionKinds';
import { el } from './dom';
import { OTHER, type Draft } from './drafts';
import { withOptionPreview } from './optionPreview';
import { renderImageAttachments } from './imageAttachments';
import { t } from './l10n';
import type { ToolkitCheckable, ToolkitValue } from './toolkit';

export interface QuestionControl {
  element: HTMLElement;
  focus(): void;
  /** Digits 1–9: chooses (single) or toggles (multi) that option; "Other…" comes last. */
  chooseByNumber(n: number): boolean;
  /** Single choice: chooses the option (not "Other…") that a key event's path is in; false when it is in none. */
  chooseAt(path: readonly EventTarget[]): boolean;
  /** The typed secret, for a secret question. */
  secretValue(): string | undefined;
  /** The user marked the typed secret for all workspaces (by default it is for this workspace only). */
  secretForAllWorkspaces(): boolean;
  clearSecret(): void;
}

export interface ControlContext {
  heading: string;
  /** A value for this secret question's variable is already stored. */
  secretStored: boolean;
  /** Single choice: a click chose one of the options (not "Other…"). */
  onOptionClick?: () => void;
}

export function renderQuestionControl(question: Question, draft: Draft, context: ControlContext, onChange: () => void): QuestionControl {
  const body = bodyFor(question, draft, context, onChange);
  const note = noteField(draft, onChange, !isSecretKind(question.kind));
  return { ...body, element: el('div', { class: 'control' }, body.element, note) };
}

function bodyFor(question: Question, draft: Draft, context: ControlContext, onChange: () => void): QuestionControl {
  const labelledBy = context.heading;
  switch (question.kind) {
    case 'single':
      return singleChoice(question, draft, labelledBy, onChange, context.onOptionClick);
    case 'multi':
      return multiChoice(question, draft, labelledBy, onChange);
    case 'text':
      return freeText(question, draft, onChange);
    case 'secret':
      return secretField(question, draft, context, onChange);
    default:
      return unhandledKind(question.kind);
  }
}

/** Whether the kind's control reports a click that chooses (`onOptionClick`), so one click may answer a lone question. */
export function choosesWithOneClick(kind: QuestionKind): boolean {
  switch (kind) {
    case 'single':
      return true;
    case 'multi':
    case 'text':
    case 'secret':
      return false;
    default:
      return unhandledKind(kind);
  }
}

const noSecret = { secretValue: () => undefined, secretForAllWorkspaces: () => false, clearSecret: () => undefined, chooseAt: () => false };

/**
 * The toolkit names a radio or checkbox by its whole text: the key digit is drawn by CSS (it is no
 * text) and hidden commas keep the label, "Recommended" and the description apart when read.
 */
function optionContent(index: number, label: string, description?: string, recommended?: boolean): Node[] {
  const nodes: Node[] = [el('span', { class: 'option-key', 'aria-hidden': 'true', 'data-key': index <= 9 ? `${index}` : '' }), el('span', { class: 'option-label' }, label)];
  if (recommended) nodes.push(spokenSeparator(), el('span', { class: 'recommended' }, t('Recommended')));
  if (description) nodes.push(spokenSeparator(), el('span', { class: 'option-description' }, description));
  return nodes;
}

export const spokenSeparator = () => el('span', { class: 'visually-hidden' }, t(', '));

/**
 * A toolkit text field or area named `label`: the toolkit replaces an aria-label with the element's
 * text (or "Text field") as it connects, so the name is its text, in a label hidden by CSS.
 */
export function namedField(tag: 'vscode-text-field' | 'vscode-text-area', attributes: Record<string, string>, label: string): ToolkitValue {
  const { class: className, ...rest } = attributes;
  return el(tag, { ...rest, class: `${className ?? ''} label-hidden`.trim() }, label) as ToolkitValue;
}

function otherField(draft: Draft, visible: () => boolean, onChange: () => void): ToolkitValue {
  const field = namedField('vscode-text-field', { class: 'other-field', placeholder: t('Your own answer'), value: draft.other }, t('Other answer'));
  field.value = draft.other;
  field.hidden = !visible();
  field.addEventListener('input', () => {
    draft.other = field.value;
    onChange();
  });
  return field;
}

function singleChoice(question: Question, draft: Draft, labelledBy: string, onChange: () => void, onOptionClick?: () => void): QuestionControl {
  const group = el('vscode-radio-group', { orientation: 'vertical', 'aria-labelledby': labelledBy }) as ToolkitValue;
  const values = [...question.options.map((o) => o.label), ...(question.allowOther ? [OTHER] : [])];
  const radios = values.map((value, i) => {
    const option = question.options[i];
    const radio = el(
      'vscode-radio',
      { value, checked: draft.choice === value },
      ...(option ? optionContent(i + 1, option.label, option.description, option.recommended) : optionContent(i + 1, t('Other…'))),
    ) as ToolkitCheckable;
    group.append(radio);
    return radio;
  });
  const other = question.allowOther ? otherField(draft, () => draft.choice === OTHER, onChange) : undefined;
  const select = (value: string) => {
    draft.choice = value;
    if (other) other.hidden = value !== OTHER;
    onChange();
  };
  group.addEventListener('change', () => {
    const checked = radios.find((r) => r.checked);
    if (checked && checked.value !== draft.choice) select(checked.value);
  });
  const choose = (radio: ToolkitCheckable) => {
    radio.checked = true;
    if (radio.value !== draft.choice) select(radio.value);
  };
  // The click that chooses an option (also the already chosen one) may answer, see questionRequestView.ts.
  if (onOptionClick) {
    for (const radio of radios.filter((r) => r.value !== OTHER)) {
      radio.addEventListener('click', () => {
        choose(radio);
        onOptionClick();
      });
    }
  }
  const chosen = draft.choice === undefined ? -1 : values.indexOf(draft.choice);
  const list = el('div', { class: 'choice-list' }, group, ...(other ? [other] : []));
  return {
    ...noSecret,
    element: el('div', { class: 'single' }, withOptionPreview(list, radios, question.options, chosen < 0 ? 0 : chosen)),
    focus: () => (radios.find((r) => r.checked) ?? radios[0])?.focus(),
    chooseByNumber(n) {
      const radio = radios[n - 1];
      if (!radio) return false;
      radio.checked = true;
      select(radio.value);
      (radio.value === OTHER && other ? other : radio).focus();
      return true;
    },
    chooseAt(path) {
      const radio = radios.find((r) => r.value !== OTHER && path.includes(r));
      if (!radio) return false;
      choose(radio);
      return true;
    },
  };
}

function multiChoice(question: Question, draft: Draft, labelledBy: string, onChange: () => void): QuestionControl {
  const values = [...question.options.map((o) => o.label), ...(question.allowOther ? [OTHER] : [])];
  const boxes = values.map((value, i) => {
    const option = question.options[i];
    const box = el(
      'vscode-checkbox',
      { value },
      ...(option ? optionContent(i + 1, option.label, option.description, option.recommended) : optionContent(i + 1, t('Other…'))),
    ) as ToolkitCheckable;
    box.checked = draft.checked.includes(value);
    return box;
  });
  const other = question.allowOther ? otherField(draft, () => draft.checked.includes(OTHER), onChange) : undefined;
  const sync = () => {
    draft.checked = boxes.filter((b) => b.checked).map((b) => b.value);
    if (other) other.hidden = !draft.checked.includes(OTHER);
    onChange();
  };
  const group = el('div', { class: 'checkbox-group', role: 'group', 'aria-labelledby': labelledBy }, ...boxes);
  group.addEventListener('change', sync);
  // Arrow keys move between checkboxes, as they do in a radio group.
  group.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const index = boxes.indexOf(document.activeElement as ToolkitCheckable);
    if (index < 0) return;
    event.preventDefault();
    boxes[(index + (event.key === 'ArrowDown' ? 1 : boxes.length - 1)) % boxes.length]!.focus();
  });
  const list = el('div', { class: 'choice-list' }, group, ...(other ? [other] : []));
  return {
    ...noSecret,
    element: el('div', { class: 'multi' }, withOptionPreview(list, boxes, question.options, 0)),
    focus: () => boxes[0]?.focus(),
    chooseByNumber(n) {
      const box = boxes[n - 1];
      if (!box) return false;
      box.checked = !box.checked;
      sync();
      (box.value === OTHER && box.checked && other ? other : box).focus();
      return true;
    },
  };
}

function freeText(question: Question, draft: Draft, onChange: () => void): QuestionControl {
  // Named by the question itself: an aria-labelledby on the host would not reach the text area inside its shadow root.
  const area = namedField('vscode-text-area', { rows: '4', resize: 'vertical', placeholder: question.placeholder ?? t('Type your answer') }, question.question);
  area.value = draft.text;
  area.addEventListener('input', () => {
    draft.text = area.value;
    onChange();
  });
  return { ...noSecret, element: area, focus: () => area.focus(), chooseByNumber: () => false };
}

function secretField(question: Question, draft: Draft, { heading, secretStored }: ControlContext, onChange: () => void): QuestionControl {
  const name = question.envVar ?? t('the secret');
  // Typed values never go into the draft or the webview's saved state: after a reload the user types again.
  draft.secretTyped = false;
  draft.secretNameConfirmed = false;
  if (draft.secretChoice === 'stored' && !secretStored) draft.secretChoice = 'type';
  // A native input, not the toolkit's text field: that one mirrors its value into a `current-value` attribute.
  const field = el('input', {
    type: 'password',
    class: 'secret-field',
    placeholder: t('Value for {0}', name),
    'aria-labelledby': heading,
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const toggle = el('vscode-button', { appearance: 'secondary', class: 'secret-toggle', 'aria-pressed': 'false', 'aria-label': t('Show the secret') }, t('Show'));
  toggle.addEventListener('click', () => {
    const showing = field.getAttribute('type') === 'text';
    field.setAttribute('type', showing ? 'password' : 'text');
    toggle.textContent = showing ? t('Show') : t('Hide');
    toggle.setAttribute('aria-pressed', String(!showing));
    toggle.setAttribute('aria-label', showing ? t('Show the secret') : t('Hide the secret'));
  });
  field.addEventListener('input', () => {
    draft.secretTyped = field.value.length > 0;
    onChange();
  });
  // Off by default: a secret given here stays with this workspace. Kept in the DOM only, like the value.
  const everywhere = el('vscode-checkbox', { class: 'secret-all-workspaces' }, t('Use in all workspaces')) as ToolkitCheckable;
  const row = el('div', { class: 'secret-row' }, field, toggle);
  const confirmName = question.envVar && envVarNeedsConfirmation(question.envVar) ? nameConfirmation(question.envVar, draft, onChange) : undefined;
  const typing = el('div', { class: 'secret-typing' }, row, ...(confirmName ? [confirmName.element] : []), everywhere);
  const choices: Array<[Draft['secretChoice'], string]> = [
    ...(secretStored ? [['stored', t('Use the value already stored for {0}', name)] as [Draft['secretChoice'], string]] : []),
    ['type', secretStored ? t('Replace it with a new value') : t('Type a value')],
    ['decline', t("Don't share a value")],
  ];
  const group = el('vscode-radio-group', { orientation: 'vertical', class: 'secret-choice', 'aria-label': t('How to answer for {0}', name) }) as ToolkitValue;
  const radios = choices.map(([value, label]) => {
    const radio = el('vscode-radio', { value, checked: draft.secretChoice === value }, label) as ToolkitCheckable;
    group.append(radio);
    return radio;
  });
  const sync = () => (typing.hidden = draft.secretChoice !== 'type');
  group.addEventListener('change', () => {
    const checked = radios.find((r) => r.checked);
    if (!checked || checked.value === draft.secretChoice) return;
    draft.secretChoice = checked.value as Draft['secretChoice'];
    sync();
    onChange();
    if (draft.secretChoice === 'type') field.focus();
  });
  sync();
  const hint = el(
    'p',
    { class: 'hint' },
    t(
      "Kept in VS Code's secret storage and given to this workspace's new terminals as ${0} (every workspace's, with \"Use in all workspaces\"). The agent receives only that name, never the value.",
      name,
    ),
  );
  return {
    element: el('div', { class: 'secret' }, typing, group, hint),
    focus: () => (draft.secretChoice === 'type' ? field : (radios.find((r) => r.checked) ?? radios[0]!)).focus(),
    chooseByNumber: () => false,
    chooseAt: () => false,
    secretValue: () => field.value || undefined,
    secretForAllWorkspaces: () => everywhere.checked,
    clearSecret: () => {
      field.value = '';
      everywhere.checked = false;
      draft.secretTyped = false;
      confirmName?.clear();
    },
  };
}

/** A variable that is not a credential name: what it may do, and the user's explicit go-ahead (the host stores nothing without it). */
function nameConfirmation(name: string, draft: Draft, onChange: () => void): { element: HTMLElement; clear(): void } {
  const warning = el(
    'p',
    { class: 'secret-name-text' },
    t(
      '${0} is not a credential name (such as …_API_KEY or …_TOKEN). New terminals get the value as ${0}, which can change how programs in them behave: what they run, load or trust.',
      name,
    ),
  );
  const box = el('vscode-checkbox', { class: 'secret-name-confirm' }, t('Set ${0} anyway', name)) as ToolkitCheckable;
  box.addEventListener('change', () => {
    if (draft.secretNameConfirmed === box.checked) return;
    draft.secretNameConfirmed = box.checked;
    onChange();
  });
  return {
    element: el('div', { class: 'secret-name-warning', role: 'note' }, warning, box),
    clear: () => {
      box.checked = false;
      draft.secretNameConfirmed = false;
    },
  };
}

/** The optional note, and (except on secrets) the images attached to the answer. */
function noteField(draft: Draft, onChange: () => void, images: boolean): HTMLElement {
  const field = namedField('vscode-text-field', { class: 'note-field', placeholder: t('Add a note for the agent (optional)') }, t('Note for the agent (optional)'));
  field.value = draft.note;
  field.addEventListener('input', () => {
    draft.note = field.value;
    onChange();
  });
  // Pasted, dropped or picked images join the answer (a text answer's too); never on a secret.
  if (!images) return field;
  return el('div', { class: 'note' }, field, renderImageAttachments(draft, onChange));
}
