// Renders one question request as a form and reads the answers back out of it.
import type { Answer, Answers, Question, QuestionRequest } from '../broker/schemas';
import { el } from './dom';
import type { ToolkitCheckable, ToolkitValue } from './toolkit';

const OTHER = '\u0000other';

interface QuestionControl {
  element: HTMLElement;
  /** undefined while the question has no usable answer yet. */
  read(): Answer | undefined;
}

export interface QuestionForm {
  element: HTMLElement;
  read(): Answers | undefined;
  focusFirst(): void;
}

export function renderQuestionForm(request: QuestionRequest, onInput: () => void): QuestionForm {
  const controls = request.questions.map((question, index) => renderQuestion(question, index, onInput));
  const element = el('div', { class: 'questions' }, ...controls.map((c) => c.element));
  return {
    element,
    read() {
      const answers: Answers = {};
      for (const [index, control] of controls.entries()) {
        const answer = control.read();
        if (!answer) return undefined;
        answers[request.questions[index]!.id] = answer;
      }
      return answers;
    },
    focusFirst() {
      const first = element.querySelector<HTMLElement>('vscode-radio[checked], vscode-radio, vscode-checkbox, vscode-text-area, vscode-text-field');
      first?.focus();
    },
  };
}

function renderQuestion(question: Question, index: number, onInput: () => void): QuestionControl {
  const headingId = `q${index}-heading`;
  const heading = el('div', { class: 'question-heading', id: headingId }, el('span', { class: 'chip' }, question.header), el('span', { class: 'question-text' }, question.question));
  const body = bodyFor(question, headingId, onInput);
  return { element: el('section', { class: 'question', 'aria-labelledby': headingId, 'data-question-id': question.id }, heading, body.element), read: body.read };
}

function bodyFor(question: Question, labelledBy: string, onInput: () => void): QuestionControl {
  switch (question.kind) {
    case 'single':
      return singleChoice(question, labelledBy, onInput);
    case 'multi':
      return multiChoice(question, labelledBy, onInput);
    case 'text':
      return freeText(question, labelledBy, onInput);
    case 'secret':
      return {
        element: el('p', { class: 'notice' }, 'Secret answers are not supported by this version yet; this question will be sent as skipped.'),
        read: () => ({ selected: [], skipped: true }),
      };
  }
}

function optionContent(label: string, description: string | undefined, recommended: boolean | undefined): Node[] {
  const nodes: Node[] = [el('span', { class: 'option-label' }, label)];
  if (recommended) nodes.push(el('span', { class: 'recommended' }, 'Recommended'));
  if (description) nodes.push(el('span', { class: 'option-description' }, description));
  return nodes;
}

function otherField(onInput: () => void): ToolkitValue {
  const field = el('vscode-text-field', { class: 'other-field', placeholder: 'Your own answer', 'aria-label': 'Other answer' }) as ToolkitValue;
  field.addEventListener('input', onInput);
  return field;
}

function singleChoice(question: Question, labelledBy: string, onInput: () => void): QuestionControl {
  const group = el('vscode-radio-group', { orientation: 'vertical', 'aria-labelledby': labelledBy }) as ToolkitValue;
  for (const option of question.options) {
    group.append(el('vscode-radio', { value: option.label, checked: option.recommended === true }, ...optionContent(option.label, option.description, option.recommended)));
  }
  const other = question.allowOther ? otherField(onInput) : undefined;
  if (other) group.append(el('vscode-radio', { value: OTHER }, 'Other…'));
  group.addEventListener('change', onInput);
  return {
    element: el('div', {}, group, ...(other ? [other] : [])),
    read() {
      const value = group.value;
      if (value === OTHER) {
        const text = other?.value.trim() ?? '';
        return text ? { selected: [], other: text, skipped: false } : undefined;
      }
      return value ? { selected: [value], skipped: false } : undefined;
    },
  };
}

function multiChoice(question: Question, labelledBy: string, onInput: () => void): QuestionControl {
  const boxes = question.options.map(
    (option) => el('vscode-checkbox', { value: option.label, checked: option.recommended === true }, ...optionContent(option.label, option.description, option.recommended)) as ToolkitCheckable,
  );
  const other = question.allowOther ? otherField(onInput) : undefined;
  const group = el('div', { class: 'checkbox-group', role: 'group', 'aria-labelledby': labelledBy }, ...boxes, ...(other ? [other] : []));
  group.addEventListener('change', onInput);
  return {
    element: group,
    read() {
      const selected = boxes.filter((b) => b.checked).map((b) => b.value);
      const text = other?.value.trim() ?? '';
      if (selected.length === 0 && !text) return undefined;
      return { selected, ...(text ? { other: text } : {}), skipped: false };
    },
  };
}

function freeText(question: Question, labelledBy: string, onInput: () => void): QuestionControl {
  const area = el('vscode-text-area', { rows: '4', resize: 'vertical', placeholder: question.placeholder, 'aria-labelledby': labelledBy }) as ToolkitValue;
  area.addEventListener('input', onInput);
  return {
    element: area,
    read() {
      const text = area.value.trim();
      return text ? { selected: [text], skipped: false } : undefined;
    },
  };
}
