// A question request: one step per question with a chip bar, then a review step (several
// questions), or the question and Submit (one question). Unanswered questions are sent as
// skipped only after the user confirms.
import { LIMITS, type Answers, type QuestionRequest } from '../broker/contract/schemas';
import { isSecretKind } from '../broker/contract/questionKinds';
import { startCountdown } from './countdown';
import { el } from './dom';
import { batchNote, describeDraft, evaluateDraft, OTHER, skippedAnswer, type DraftState, type RequestDraft } from './drafts';
import { answerImages } from './imageStore';
import { t } from './l10n';
import { renderMarkdown } from './markdown';
import { choosesWithOneClick, renderQuestionControl, type QuestionControl } from './questionControls';
import type { ToolkitButton, ToolkitValue } from './toolkit';

/** What a reply says about its secret questions, each list by question id. */
export interface SecretReply {
  /** The typed values. */
  values: Record<string, string>;
  /** Answered with the value already stored for their variable. */
  useStored: string[];
  /** Typed values the user marked for all workspaces (by default they are for this workspace only). */
  allWorkspaces: string[];
  /** Variables that are not credential names, which the user confirmed ("Set $NAME anyway"). */
  nameConfirmed: string[];
}

export interface QuestionRequestCallbacks {
  onDraftChange(): void;
  /** `note`: the note on the whole batch. */
  onSubmit(answers: Answers, secrets: SecretReply, note: string | undefined): void;
  onReject(): void;
  announce(text: string): void;
  /** The host's clock (ms since the epoch), which the request's expiry is on. */
  hostNow(): number;
}

export interface RequestView {
  element: HTMLElement;
  /** Focuses the first control; the user asked for it, so keys now answer this request. */
  focusFirst(): void;
  /** Keys act only once the user came to the request: a click, the focus command, or focus on one of its controls. */
  handleKey(event: KeyboardEvent): void;
  /** Disables every action after a reply was sent. */
  lock(): void;
  /** Stops its timers; called when the request leaves the panel. */
  dispose?(): void;
}

/** A click this soon after the request appeared only chooses: it was likely aimed at what was there before. */
const ARRIVAL_GUARD_MS = 400;

export function renderQuestionRequest(
  request: QuestionRequest,
  state: RequestDraft,
  header: HTMLElement,
  storedSecrets: readonly string[],
  callbacks: QuestionRequestCallbacks,
): RequestView {
  const { questions } = request;
  const several = questions.length > 1;
  const reviewStep = questions.length;
  let locked = false;
  let armed = false;
  let confirming: 'skip' | 'reject' | undefined;
  let controls: QuestionControl[] = [];
  // Secret fields keep their typed value while the user moves between steps.
  const secretControls = new Map<number, QuestionControl>();
  // One decision, one action: a lone single-choice question is answered by the click (or Space) that
  // chooses an option, unless the user is adding a note or images. Not with previews: a tap to see one must not answer.
  const oneAction = !several && choosesWithOneClick(questions[0]!.kind) && !questions[0]!.options.some((o) => o.preview);
  const oneActionHint = oneAction ? el('p', { class: 'hint one-action-hint' }) : undefined;

  const chips = el('div', { class: 'chips', role: 'tablist', 'aria-label': t('Questions') });
  const stepArea = el('div', { class: 'step' });
  const confirmArea = el('div', { class: 'confirm', role: 'alert' });
  const actions = el('div', { class: 'actions' });
  // role=timer is not live: only the thresholds are spoken, through the panel's live region.
  const countdown = request.expiresAt === undefined ? undefined : el('p', { class: 'countdown', role: 'timer' });
  const keepsWorking = request.keepsWorking ? el('p', { class: 'keeps-working' }, t('The agent keeps working; it will read your answer when it checks.')) : undefined;
  const root = el(
    'section',
    { class: 'request questions-request', 'aria-label': t('Questions from the agent'), 'data-request-id': request.id },
    header,
    ...(countdown ? [countdown] : []),
    ...(keepsWorking ? [keepsWorking] : []),
    ...(request.context ? [renderMarkdown(request.context)] : []),
    ...(several ? [chips] : []),
    stepArea,
    ...(oneActionHint ? [oneActionHint] : []),
    confirmArea,
    actions,
  );

  const states = (): DraftState[] => questions.map((q, i) => evaluateDraft(q, state.drafts[i]!));

  const button = (label: string, action: string, appearance: 'primary' | 'secondary', onClick: () => void) => {
    const b = el('vscode-button', { appearance, 'data-action': action }, label) as ToolkitButton;
    b.addEventListener('click', () => {
      if (!locked && !b.disabled) onClick();
    });
    return b;
  };

  function canSubmit(): boolean {
    const all = states();
    if (all.some((s) => s.state === 'incomplete')) return false;
    return several || all[0]!.state === 'answered';
  }

  function goTo(step: number): void {
    state.step = Math.max(0, Math.min(step, several ? reviewStep : 0));
    confirming = undefined;
    callbacks.onDraftChange();
    render();
    focusStep();
  }

  function changed(): void {
    confirming = undefined;
    confirmArea.replaceChildren();
    callbacks.onDraftChange();
    updateChips();
    updateActions();
    updateHint();
  }

  /** The user is adding something to the choice: choosing no longer answers at once. */
  function composing(): boolean {
    const draft = state.drafts[0]!;
    return draft.note.trim() !== '' || answerImages(draft).length > 0;
  }

  function updateHint(): void {
    if (oneActionHint)
      oneActionHint.textContent = composing()
        ? t('With a note or images, choose an option and press Submit.')
        : t('Click an option (or press Space on it) to send it as your answer.');
  }

  /** The user chose an option with a click or Space: answer now where that is safe. */
  function answerByChoice(): void {
    if (!oneAction || locked || confirming || composing() || state.drafts[0]!.choice === OTHER) return;
    if (states()[0]!.state === 'answered') submitNow();
  }

  function renderChips(): void {
    chips.replaceChildren(
      ...questions.map((q, i) => {
        const chip = el('button', { class: 'chip-button', role: 'tab', type: 'button', 'data-step': String(i) }, q.header);
        chip.addEventListener('click', () => goTo(i));
        return chip;
      }),
      ...[reviewStep].map((i) => {
        const chip = el('button', { class: 'chip-button review-chip', role: 'tab', type: 'button', 'data-step': String(i) }, t('Review'));
        chip.addEventListener('click', () => goTo(i));
        return chip;
      }),
    );
    updateChips();
  }

  function updateChips(): void {
    if (!several) return;
    const all = states();
    for (const chip of chips.querySelectorAll<HTMLButtonElement>('.chip-button')) {
      const step = Number(chip.dataset.step);
      const s = all[step];
      chip.setAttribute('aria-selected', String(step === state.step));
      chip.classList.toggle('answered', s?.state === 'answered');
      chip.classList.toggle('incomplete', s?.state === 'incomplete');
      if (s) chip.title = describeDraft(questions[step]!, s);
    }
  }

  function renderStep(): void {
    controls = [];
    if (several && state.step === reviewStep) {
      const all = states();
      stepArea.replaceChildren(
        el('h2', { class: 'step-title', tabindex: '-1' }, t('Review your answers')),
        el(
          'ul',
          { class: 'review' },
          ...questions.map((q, i) => {
            const edit = el('button', { class: 'link-button', type: 'button', 'aria-label': t('Edit {0}', q.header) }, t('Edit'));
            edit.addEventListener('click', () => goTo(i));
            return el(
              'li',
              { class: `review-item ${all[i]!.state}` },
              el('span', { class: 'chip' }, q.header),
              el('span', { class: 'review-answer' }, describeDraft(q, all[i]!)),
              edit,
            );
          }),
        ),
        noteForBatch(),
      );
      return;
    }
    const index = state.step;
    const question = questions[index]!;
    const headingId = `question-${index}`;
    const secretStored = question.envVar !== undefined && storedSecrets.includes(question.envVar);
    const onOptionClick = oneAction
      ? () => {
          if (root.dataset.oneAction === 'ready') answerByChoice();
        }
      : undefined;
    const control =
      secretControls.get(index) ??
      renderQuestionControl(question, state.drafts[index]!, { heading: headingId, secretStored, ...(onOptionClick ? { onOptionClick } : {}) }, changed);
    if (isSecretKind(question.kind)) secretControls.set(index, control);
    controls = [control];
    const progress = several ? el('span', { class: 'progress' }, t('Question {0} of {1}', index + 1, questions.length)) : '';
    stepArea.replaceChildren(
      el(
        'div',
        { class: 'question', 'data-question-id': question.id, 'data-kind': question.kind },
        el(
          'div',
          { class: 'question-heading', id: headingId },
          el('span', { class: 'chip' }, question.header),
          progress,
          el('span', { class: 'question-text' }, question.question),
        ),
        ...(question.detail ? [el('div', { class: 'question-detail' }, renderMarkdown(question.detail))] : []),
        control.element,
      ),
    );
  }

  function noteForBatch(): HTMLElement {
    const area = el(
      'vscode-text-area',
      { class: 'batch-note', rows: '3', resize: 'vertical', maxlength: String(LIMITS.batchNoteMax), placeholder: t('Anything the agent should know about all of your answers') },
      t('Note for the agent (optional)'),
    ) as ToolkitValue;
    area.value = state.note ?? '';
    area.addEventListener('input', () => {
      state.note = area.value;
      callbacks.onDraftChange();
    });
    return area;
  }

  function updateActions(): void {
    const submit = actions.querySelector<ToolkitButton>('[data-action="submit"]');
    if (submit) submit.disabled = locked || !canSubmit();
    const next = actions.querySelector<ToolkitButton>('[data-action="next"]');
    if (next) next.disabled = locked || states()[state.step]?.state === 'incomplete';
  }

  function renderActions(): void {
    const list: HTMLElement[] = [];
    if (several && state.step > 0) list.push(button(t('Back'), 'back', 'secondary', () => goTo(state.step - 1)));
    if (several && state.step < reviewStep) list.push(button(state.step === reviewStep - 1 ? t('Review') : t('Next'), 'next', 'primary', () => goTo(state.step + 1)));
    else list.push(button(t('Submit'), 'submit', 'primary', trySubmit));
    list.push(button(t('Reject'), 'reject', 'secondary', askReject));
    actions.replaceChildren(...list);
    updateActions();
  }

  function render(): void {
    updateChips();
    renderStep();
    renderActions();
    confirmArea.replaceChildren();
  }

  function showConfirm(kind: 'skip' | 'reject', text: string, confirmLabel: string, onConfirm: () => void): void {
    confirming = kind;
    const yes = button(confirmLabel, `confirm-${kind}`, 'primary', onConfirm);
    const no = button(kind === 'skip' ? t('Go back') : t('Keep answering'), `cancel-${kind}`, 'secondary', () => {
      confirming = undefined;
      confirmArea.replaceChildren();
      focusStep();
    });
    confirmArea.replaceChildren(el('p', {}, text), el('div', { class: 'actions' }, yes, no));
    callbacks.announce(text);
    yes.focus();
  }

  function trySubmit(): void {
    if (locked || !canSubmit()) return;
    const all = states();
    const unanswered = questions.filter((_, i) => all[i]!.state === 'unanswered');
    if (unanswered.length > 0 && confirming !== 'skip') {
      const names = unanswered.map((q) => q.header).join(t(', '));
      const text =
        unanswered.length === 1
          ? t('1 question is unanswered ({0}) and will be sent as skipped.', names)
          : t('{0} questions are unanswered ({1}) and will be sent as skipped.', unanswered.length, names);
      showConfirm('skip', text, t('Submit anyway'), submitNow);
      return;
    }
    submitNow();
  }

  function submitNow(): void {
    if (locked) return;
    const all = states();
    const answers: Answers = {};
    const secrets: SecretReply = { values: {}, useStored: [], allWorkspaces: [], nameConfirmed: [] };
    questions.forEach((q, i) => {
      const s = all[i]!;
      const draft = state.drafts[i]!;
      if (s.state !== 'answered') {
        answers[q.id] = skippedAnswer(draft);
        return;
      }
      answers[q.id] = s.answer;
      if (!isSecretKind(q.kind) || s.answer.skipped) return;
      const control = secretControls.get(i);
      const value = control?.secretValue();
      if (draft.secretChoice === 'stored') secrets.useStored.push(q.id);
      else if (value) {
        secrets.values[q.id] = value;
        if (control?.secretForAllWorkspaces()) secrets.allWorkspaces.push(q.id);
        if (draft.secretNameConfirmed) secrets.nameConfirmed.push(q.id);
      } else answers[q.id] = skippedAnswer(draft);
    });
    for (const control of secretControls.values()) control.clearSecret();
    callbacks.onSubmit(answers, secrets, several ? batchNote(state) : undefined);
  }

  function askReject(): void {
    if (locked) return;
    showConfirm('reject', t('Reject this request? The agent is told you declined to answer.'), t('Reject'), () => callbacks.onReject());
  }

  function focusStep(): void {
    if (controls[0]) controls[0].focus();
    else stepArea.querySelector<HTMLElement>('.step-title')?.focus();
  }

  if (several) renderChips();
  render();
  updateHint();
  // Until then a click only chooses (the second click of a double click on the request before must not answer this one).
  if (oneAction) root.dataset.oneAction = 'arriving';
  const arrivalTimer = oneAction ? setTimeout(() => (root.dataset.oneAction = 'ready'), ARRIVAL_GUARD_MS) : undefined;
  root.addEventListener('pointerdown', () => (armed = true));
  const stopCountdown =
    countdown && request.expiresAt !== undefined
      ? startCountdown(
          request.expiresAt,
          {
            // The panel's estimate of the host's clock runs behind by the snapshot's transit; the host's
            // time is never before the request was made, so the countdown never shows more than it was given.
            now: () => Math.max(callbacks.hostNow(), request.createdAt),
            after: (ms, callback) => {
              const timer = setTimeout(callback, ms);
              return () => clearTimeout(timer);
            },
          },
          ({ text, warning }) => {
            countdown.textContent = text;
            countdown.classList.toggle('warning', warning);
          },
          callbacks.announce,
        )
      : undefined;

  return {
    element: root,
    dispose() {
      stopCountdown?.();
      clearTimeout(arrivalTimer);
    },
    focusFirst() {
      armed = true;
      focusStep();
    },
    lock() {
      locked = true;
      for (const b of root.querySelectorAll<ToolkitButton>('vscode-button')) b.disabled = true;
    },
    handleKey(event) {
      const path = event.composedPath();
      armed ||= path.some((t) => t instanceof HTMLElement && t !== root && root.contains(t) && t.getAttribute('tabindex') !== '-1');
      if (locked || !armed) return;
      const inTag = (pattern: RegExp) => path.some((t) => t instanceof HTMLElement && pattern.test(t.tagName));
      const inTextArea = inTag(/^(VSCODE-TEXT-AREA|TEXTAREA)$/);
      const inTextField = inTextArea || inTag(/^(VSCODE-TEXT-FIELD|INPUT)$/);
      const plain = !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        if (confirming === 'skip') submitNow();
        else trySubmit();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        if (confirming === 'reject') callbacks.onReject();
        else askReject();
      } else if (plain && !inTextField && /^[1-9]$/.test(event.key) && controls[0]?.chooseByNumber(Number(event.key))) {
        // A digit only chooses (one stray key must not answer); Enter then submits.
        event.preventDefault();
      } else if (plain && event.key === ' ' && oneAction && !composing() && !confirming && controls[0]?.chooseAt(path)) {
        event.preventDefault();
        answerByChoice();
      } else if (plain && event.key === 'Enter' && !inTextArea && !isButton(event.target) && !confirming) {
        // Enter moves on like a wizard (Submit on the last step); buttons and text areas keep their own Enter.
        event.preventDefault();
        if (several && state.step < reviewStep) {
          if (states()[state.step]?.state !== 'incomplete') goTo(state.step + 1);
        } else trySubmit();
      }
    },
  };
}

const isButton = (target: EventTarget | null) => target instanceof HTMLElement && /^(BUTTON|VSCODE-BUTTON)$/.test(target.tagName);
