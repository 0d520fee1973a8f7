// Small DOM builders. Text always goes in through text nodes: question text is never HTML, and
// characters that would render as nothing (bidi controls, zero-width, control codes) are shown as markers.
import { invisibleMarker, splitInvisible } from '../broker/visibleText';
import { t } from './l10n';

type Attributes = Record<string, string | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Array<Node | string>): HTMLElementTagNameMap[K];
export function el(tag: string, attributes?: Attributes, ...children: Array<Node | string>): HTMLElement;
export function el(tag: string, attributes: Attributes = {}, ...children: Array<Node | string>): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) element.append(...(typeof child === 'string' ? visibleText(child) : [child]));
  return element;
}

/** Text as nodes, each invisible character replaced by a marker such as ⟨U+202E⟩. */
export function visibleText(text: string): Node[] {
  return splitInvisible(text).map((part) => {
    if (!part.invisible) return document.createTextNode(part.text);
    const marker = invisibleMarker(part.text, part.count);
    const span = document.createElement('span');
    span.className = 'invisible-char';
    span.title = t('Invisible character {0}', marker.slice(1, -1));
    span.textContent = marker;
    return span;
  });
}
