// The preview of the option the user is on: the hovered one, else the one that last had focus.
// Beside the option list when the panel is wide enough, below it otherwise (media/panel.css).
// The preview is the agent's markdown, rendered by renderMarkdown (never HTML); it never takes focus.
import type { QuestionOption } from '../broker/contract/schemas';
import { el } from './dom';
import { t, tParts } from './l10n';
import { renderMarkdown } from './markdown';

let previews = 0;

/**
 * Wraps `list` (the options and anything under them) with the preview region, or returns it as it
 * is when no option has a preview. `items[i]` is the element of `options[i]`; items past the
 * options (such as "Other…") have no preview. `initial`: the option shown before the user moves.
 */
export function withOptionPreview(list: HTMLElement, items: readonly HTMLElement[], options: readonly QuestionOption[], initial: number): HTMLElement {
  if (!options.some((o) => o.preview)) return list;
  const id = `option-preview-${++previews}`;
  const caption = el('div', { class: 'option-preview-caption', id: `${id}-caption` });
  const body = el('div', { class: 'option-preview-body' });
  const region = el('div', { class: 'option-preview', role: 'region', id, 'aria-labelledby': caption.id }, caption, body);
  let focused = Math.max(0, Math.min(initial, items.length - 1));
  let hovered: number | undefined;
  let shown: number | undefined;

  const show = () => {
    const index = hovered ?? focused;
    if (index === shown) return;
    shown = index;
    const option = options[index];
    region.dataset.option = String(index);
    caption.replaceChildren(...tParts('Preview of {0}', el('span', { class: 'option-preview-label' }, option?.label ?? t('Other…'))));
    body.replaceChildren(option?.preview ? renderMarkdown(option.preview) : el('p', { class: 'no-preview' }, t('No preview')));
  };

  items.forEach((item, index) => {
    // Read after the option's own name: the region holds this option's preview whenever it has focus.
    if (options[index]?.preview) item.setAttribute('aria-describedby', id);
    item.addEventListener('mouseenter', () => {
      hovered = index;
      show();
    });
  });
  list.addEventListener('mouseleave', () => {
    hovered = undefined;
    show();
  });
  list.addEventListener('focusin', (event) => {
    const index = items.findIndex((item) => item.contains(event.target as Node));
    if (index < 0) return;
    // The latest move wins: keys under a resting mouse pointer still move the preview.
    focused = index;
    hovered = undefined;
    show();
  });
  show();
  return el('div', { class: 'choice-with-preview' }, list, region);
}
