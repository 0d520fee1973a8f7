// The collapsible list of recently settled requests, each with who decided it. Secret answers show as "stored in NAME".
import type { HistoryEntry } from '../broker/contract/schemas';
import { decidedByText } from '../broker/contract/decidedByText';
import { el } from './dom';
import { t } from './l10n';

const statusText = (status: HistoryEntry['status']): string =>
  ({ answered: t('Answered'), rejected: t('Rejected'), cancelled: t('Cancelled'), timed_out: t('Timed out'), unavailable: t('Unavailable') })[status];

export function renderHistory(entries: HistoryEntry[], open: boolean, onToggle: (open: boolean) => void): HTMLElement {
  const details = el('details', { class: 'history', open }, el('summary', {}, t('History ({0})', entries.length)));
  details.addEventListener('toggle', () => onToggle(details.open));
  if (entries.length === 0) details.append(el('p', { class: 'hint' }, t('Nothing answered yet.')));
  const list = el('ul', { class: 'history-list' });
  for (const entry of entries) {
    const time = new Date(entry.settledAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    const item = el(
      'li',
      { class: `history-item ${entry.status}` },
      el(
        'div',
        { class: 'history-head' },
        el('span', { class: 'status' }, statusText(entry.status)),
        el('span', { class: 'summary' }, entry.summary),
        el('span', { class: 'time' }, t('{0} · {1}', time, entry.source.label)),
      ),
    );
    for (const line of answerLines(entry)) item.append(el('div', { class: 'history-answer' }, line));
    if (entry.decidedBy) item.append(el('div', { class: 'history-answer history-decided' }, decidedByText(entry.decidedBy, t)));
    list.append(item);
  }
  details.append(list);
  return details;
}

function answerLines(entry: HistoryEntry): string[] {
  if (entry.decision) return [{ allow_once: t('Allowed once'), allow_always: t('Always allowed'), deny: t('Denied') }[entry.decision]];
  // A timeout's, the agent's or a shutdown's reason is our own sentence, which the line on who decided says again.
  const restated = entry.decidedBy?.by === 'timeout' || entry.decidedBy?.by === 'asker' || entry.decidedBy?.by === 'shutdown';
  if (!entry.answers) return entry.reason && !restated ? [entry.reason] : [];
  return (entry.questions ?? []).map((q) => {
    const answer = entry.answers?.[q.id];
    if (!answer || answer.skipped) return t('{0}: skipped', q.header);
    if (answer.secret) return t('{0}: stored in {1}', q.header, answer.secret.envVar);
    const parts = [...answer.selected, ...(answer.other ? [t('Other: {0}', answer.other)] : [])];
    // History keeps an image's type and name, never its bytes.
    const count = answer.images?.length ?? 0;
    const extras = [...(answer.note ? [t('(note: {0})', answer.note)] : []), ...(count === 0 ? [] : [count === 1 ? t('(1 image)') : t('({0} images)', count)])];
    return [t('{0}: {1}', q.header, parts.join(t(', '))), ...extras].join(' ');
  });
}
