// How long ago something happened, in VS Code's display language: "just now", "3 min ago", "2 h ago".
import * as vscode from 'vscode';
import { ageOf } from '../broker/age';

export function localizedAge(at: number, now = Date.now()): string {
  const { unit, count } = ageOf(at, now);
  if (unit === 'now') return vscode.l10n.t('just now');
  if (unit === 'minutes') return count === 1 ? vscode.l10n.t('1 min ago') : vscode.l10n.t('{0} min ago', count);
  return count === 1 ? vscode.l10n.t('1 h ago') : vscode.l10n.t('{0} h ago', count);
}
