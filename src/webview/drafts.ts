// The user's answer in progress for one question, and what it means as an Answer.
// Pure and DOM-free, so it is unit-tested in Node. Secret values are never part of a draft, nor
// are attached images' bytes (they stay in memory, see imageStore.ts).
import { envVarNeedsConfirmation } from '../broker/secrets/envVarPolicy';
import { LIMITS, type Answer, type Question } from '../broker/contract/schemas';
import { isSecretKind, unhandledKind } from '../broker/contract/questionKinds';
import { answerImages } from './imageStore';
import { t } from './l10n';

export interface Draft {
  /** single: the chosen label, or OTHER. */
  choice?: string;
  /** multi: the checked labels (OTHER among them when "Other…" is checked). */
  checked: string[];
  other: string;
  text: string;
  note: string;
  /** secret: whether the masked field holds something (the value itself stays in the DOM only). */
  secretTyped: boolean;
  /** secret: type a value, use the one already stored for the variable, or share nothing. */
  secretChoice: 'type' | 'stored' | 'decline';
  /** secret: the user confirmed a variable that is not a credential name ("Set $NAME anyway"); reset with the typed value. */
  secretNameConfirmed?: boolean;
  /** How many images were attached when the draft was saved: after a reload the panel says they were lost. */
  images?: number;
}

export const OTHER = '\u0000other';

/** A whole request in progress: the step shown, one draft per question, and the note on the whole batch. */
export interface RequestDraft {
  step: number;
  drafts: Draft[];
  /** Typed on the review step (requests with several questions); absent in drafts saved before it existed. */
  note?: string;
}

export function emptyRequestDraft(questions: readonly Question[], storedSecrets: readonly string[] = []): RequestDraft {
  return { step: 0, drafts: questions.map((q) => emptyDraft(q, storedSecrets)), note: '' };
}

/** The batch note as sent: trimmed, absent when blank, never longer than the reply accepts (the host would drop the whole reply). */
export function batchNote(draft: RequestDraft): string | undefined {
  const note = (draft.note ?? '').trim().slice(0, LIMITS.batchNoteMax).trim();
  return note || undefined;
}

export function emptyDraft(question: Question, storedSecrets: readonly string[] = []): Draft {
  return {
    ...preselected(question),
    other: '',
    text: '',
    note: '',
    secretTyped: false,
    secretChoice: question.envVar && storedSecrets.includes(question.envVar) ? 'stored' : 'type',
  };
}

/** What a control starts with: the recommended option chosen (single) or checked (multi). */
function preselected(question: Question): Pick<Draft, 'choice' | 'checked'> {
  const recommended = question.options.filter((o) => o.recommended).map((o) => o.label);
  switch (question.kind) {
    case 'single':
      return { ...(recommended[0] ? { choice: recommended[0] } : {}), checked: [] };
    case 'multi':
      return { checked: recommended };
    case 'text':
    case 'secret':
      return { checked: [] };
    default:
      return unhandledKind(question.kind);
  }
}

export type DraftState =
  | { state: 'answered'; answer: Answer }
  | { state: 'unanswered' }
  /** Started but not usable yet, e.g. "Other…" chosen with no text. */
  | { state: 'incomplete'; problem: string };

const imagesNeedAChoice = () => t('Choose an option to send the attached images, or remove them.');

export function evaluateDraft(question: Question, draft: Draft): DraftState {
  const note = draft.note.trim() ? { note: draft.note.trim() } : {};
  const other = draft.other.trim();
  // Secret answers never carry images; skipped answers cannot, so a choice is needed to send them.
  const attached = isSecretKind(question.kind) ? [] : answerImages(draft);
  const images = attached.length ? { images: attached } : {};
  switch (question.kind) {
    case 'single':
      if (draft.choice === OTHER)
        return other
          ? { state: 'answered', answer: { selected: [], other, ...note, ...images, skipped: false } }
          : { state: 'incomplete', problem: t('Type your answer for "Other…".') };
      if (draft.choice && question.options.some((o) => o.label === draft.choice))
        return { state: 'answered', answer: { selected: [draft.choice], ...note, ...images, skipped: false } };
      return attached.length ? { state: 'incomplete', problem: imagesNeedAChoice() } : { state: 'unanswered' };
    case 'multi': {
      const selected = question.options.map((o) => o.label).filter((label) => draft.checked.includes(label));
      const otherChecked = draft.checked.includes(OTHER);
      if (otherChecked && !other) return { state: 'incomplete', problem: t('Type your answer for "Other…".') };
      if (selected.length === 0 && !otherChecked) return attached.length ? { state: 'incomplete', problem: imagesNeedAChoice() } : { state: 'unanswered' };
      return { state: 'answered', answer: { selected, ...(otherChecked ? { other } : {}), ...note, ...images, skipped: false } };
    }
    case 'text': {
      const text = draft.text.trim();
      // Images alone answer a text question ("paste a screenshot of the error").
      return text || attached.length ? { state: 'answered', answer: { selected: [text], ...note, ...images, skipped: false } } : { state: 'unanswered' };
    }
    case 'secret':
      if (draft.secretChoice === 'decline') return { state: 'answered', answer: { selected: [], ...note, skipped: true } };
      if (draft.secretChoice === 'stored') return { state: 'answered', answer: { selected: [], ...note, skipped: false } };
      if (!draft.secretTyped) return { state: 'unanswered' };
      if (question.envVar && envVarNeedsConfirmation(question.envVar) && !draft.secretNameConfirmed) {
        return { state: 'incomplete', problem: t('Check "Set ${0} anyway" to store the value, or choose "Don\'t share a value".', question.envVar) };
      }
      return { state: 'answered', answer: { selected: [], ...note, skipped: false } };
    default:
      return unhandledKind(question.kind);
  }
}

/** The answer sent for a question left unanswered (after the user confirmed skipping it). */
export function skippedAnswer(draft: Draft): Answer {
  return { selected: [], ...(draft.note.trim() ? { note: draft.note.trim() } : {}), skipped: true };
}

/** Short text for the review step and the chip tooltips. */
export function describeDraft(question: Question, state: DraftState): string {
  if (state.state === 'unanswered') return t('Unanswered: will be sent as skipped');
  if (state.state === 'incomplete') return state.problem;
  const { answer } = state;
  if (isSecretKind(question.kind) && answer.skipped) return t('Not shared (sent as skipped)');
  if (isSecretKind(question.kind)) return t('A value for {0} (hidden)', question.envVar ?? t('the secret'));
  const parts = [...answer.selected.filter(Boolean), ...(answer.other ? [t('Other: {0}', answer.other)] : [])];
  const count = answer.images?.length ?? 0;
  const images = count === 0 ? '' : count === 1 ? t('1 image') : t('{0} images', count);
  return [[parts.join(t(', ')), ...(answer.note ? [t('(note: {0})', answer.note)] : [])].filter(Boolean).join(' '), images].filter(Boolean).join(' + ');
}
