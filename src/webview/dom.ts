// Small DOM builders. Text always goes in through textContent: question text is never HTML.

type Attributes = Record<string, string | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes?: Attributes, ...children: Array<Node | string>): HTMLElementTagNameMap[K];
export function el(tag: string, attributes?: Attributes, ...children: Array<Node | string>): HTMLElement;
export function el(tag: string, attributes: Attributes = {}, ...children: Array<Node | string>): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}
