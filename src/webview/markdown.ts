// A small, safe markdown renderer for the agent's `context`: it builds DOM nodes and sets only
// text, never HTML. Raw HTML shows as text; links show their text and address but do not navigate.
import { el } from './dom';

export function renderMarkdown(source: string): HTMLElement {
  const root = el('div', { class: 'markdown' });
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]!); i++) code.push(lines[i]!);
      i++;
      root.append(el('pre', {}, el('code', {}, code.join('\n'))));
    } else if (/^#{1,6}\s/.test(line)) {
      const level = Math.min(6, Math.max(3, line.indexOf(' ') + 2));
      root.append(inline(el(`h${level}`), line.replace(/^#+\s+/, '')));
      i++;
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = el(ordered ? 'ol' : 'ul');
      for (; i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i]!); i++) list.append(inline(el('li'), lines[i]!.replace(/^\s*([-*+]|\d+[.)])\s+/, '')));
      root.append(list);
    } else if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      for (; i < lines.length && /^\s*>/.test(lines[i]!); i++) quoted.push(lines[i]!.replace(/^\s*>\s?/, ''));
      root.append(inline(el('blockquote'), quoted.join(' ')));
    } else if (line.trim() === '') {
      i++;
    } else {
      const paragraph: string[] = [];
      for (; i < lines.length && lines[i]!.trim() !== '' && !/^\s*(```|#{1,6}\s|[-*+]\s|\d+[.)]\s|>)/.test(lines[i]!); i++) paragraph.push(lines[i]!);
      root.append(inline(el('p'), paragraph.join(' ')));
    }
  }
  return root;
}

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]*\]\([^)\s]*\))/;

/** Appends inline markdown (code, bold, italics, links) as nodes; everything else stays text. */
function inline(parent: HTMLElement, text: string): HTMLElement {
  let rest = text;
  for (let match = INLINE.exec(rest); match; match = INLINE.exec(rest)) {
    if (match.index > 0) parent.append(rest.slice(0, match.index));
    const token = match[0];
    if (match[1]) parent.append(el('code', {}, token.slice(1, -1)));
    else if (match[2]) parent.append(inline(el('strong'), token.slice(2, -2)));
    else if (match[3]) parent.append(inline(el('em'), token.slice(1, -1)));
    else {
      const [, label = '', href = ''] = /^\[([^\]]*)\]\(([^)\s]*)\)$/.exec(token) ?? [];
      // Shown, not followed: an agent's link is information, never something to click through.
      parent.append(el('span', { class: 'link', title: href }, label || href), el('span', { class: 'link-target' }, ` (${href})`));
    }
    rest = rest.slice(match.index + token.length);
  }
  if (rest) parent.append(rest);
  return parent;
}
