// The collapsible list of recently settled requests. Secret answers show as "stored in NAME".
import type { HistoryEntry } from '../broker/schemas';
import { el } from './dom';

const STATUS_TEXT: Record<HistoryEntry['status'], string> = {
  answered: 'Answered',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  timed_out: 'Timed out',
  unavailable: 'Unavailable',
};

export function renderHistory(entries: HistoryEntry[], open: boolean, onToggle: (open: boolean) => void): HTMLElement {
  const details = el('details', { class: 'history', open }, el('summary', {}, `History (${entries.length})`));
  details.addEventListener('toggle', () => onToggle(details.open));
  if (entries.length === 0) details.append(el('p', { class: 'hint' }, 'Nothing answered yet.'));
  const list = el('ul', { class: 'history-list' });
  for (const entry of entries) {
    const time = new Date(entry.settledAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const item = el(
      'li',
      { class: `history-item ${entry.status}` },
      el('div', { class: 'history-head' }, el('span', { class: 'status' }, STATUS_TEXT[entry.status]), el('span', { class: 'summary' }, entry.summary), el('span', { class: 'time' }, `${time} · ${entry.source.label}`)),
    );
    for (const line of answerLines(entry)) item.append(el('div', { class: 'history-answer' }, line));
    list.append(item);
  }
  details.append(list);
  return details;
}

function answerLines(entry: HistoryEntry): string[] {
  if (entry.decision) return [{ allow_once: 'Allowed once', allow_always: 'Always allowed', deny: 'Denied' }[entry.decision]];
  if (!entry.answers) return entry.reason ? [entry.reason] : [];
  return (entry.questions ?? []).map((q) => {
    const answer = entry.answers?.[q.id];
    if (!answer || answer.skipped) return `${q.header}: skipped`;
    if (answer.secret) return `${q.header}: stored in ${answer.secret.envVar}`;
    const parts = [...answer.selected, ...(answer.other ? [`Other: ${answer.other}`] : [])];
    // History keeps an image's type and name, never its bytes.
    const images = answer.images?.length ? ` (${answer.images.length} ${answer.images.length === 1 ? 'image' : 'images'})` : '';
    return `${q.header}: ${parts.join(', ')}${answer.note ? ` (note: ${answer.note})` : ''}${images}`;
  });
}
