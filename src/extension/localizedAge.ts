// How long ago something happened, in VS Code's display language: "just now", "3 min ago", "2 h ago".
import * as vscode from 'vscode';
import { ageOf } from '../broker/age';

export function localizedAge(at: number, now = Date.now()): string {
  const { unit, count } = ageOf(at, now);
  if (unit === 'now') return vscode.l10n.t('just now');
  if (unit === 'minutes') return count === 1 ? vscode.l10n.t('1 min ago') : vscode.l10n.t('{0} min ago', count);
  return count === 1 ? vscode.l10n.t('1 h ago') : vscode.l10n.t('{0} h ago', count);
}

/** When a rule ends, in VS Code's display language: "ends in 40 min", "ends in 24 h" (a day), then its date, "ends 12 Dec". */
export function localizedEnd(at: number, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((at - now) / 60_000));
  if (minutes < 60) return vscode.l10n.t('ends in {0} min', minutes);
  if (minutes <= 24 * 60) return vscode.l10n.t('ends in {0} h', Math.round(minutes / 60));
  return vscode.l10n.t('ends {0}', new Date(at).toLocaleDateString(vscode.env.language, { day: 'numeric', month: 'short' }));
}
