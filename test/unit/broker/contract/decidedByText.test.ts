// The one line on who decided, as the panel's history and the Show History quick pick show it: the
// same function, each with its own translator (the panel's t, or vscode.l10n.t in the host).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DecidedBy } from '../../../../src/broker/contract/schemas';
import type { PanelMessage } from '../../../../src/broker/contract/panelMessages';
import { decidedByText } from '../../../../src/broker/contract/decidedByText';
import { t } from '../../../../src/webview/l10n';
import { ROOT } from '../../helpers/repoRoot';

const byPage: DecidedBy = { by: 'user', where: 'page' };
const byRule: DecidedBy = { by: 'rule', rules: [{ text: 'npm test …', origin: 'remembered', scope: 'workspace' }] };

/** Translates from a bundle the way vscode.l10n.t does: the bundle's text, `{0}`, `{1}`, … replaced. */
function bundleTranslator(file: string): (message: PanelMessage, ...args: Array<string | number>) => string {
  const bundle = JSON.parse(readFileSync(join(ROOT, 'l10n', file), 'utf8')) as Record<string, string>;
  return (message, ...args) => (bundle[message] ?? message).replace(/\{(\d+)\}/g, (match, index: string) => String(args[Number(index)] ?? match));
}

suite('who decided, as the history shows it', () => {
  test('an answer on the page and a rule read as the user sees them', () => {
    assert.equal(decidedByText(byPage, t), 'Decided by you on the answer page');
    assert.equal(decidedByText(byRule, t), 'Decided by the rule «npm test …» (in this workspace)');
  });

  test("each part of the line goes through the translator it is given, the rule's origin too", () => {
    const zh = bundleTranslator('bundle.l10n.zh-cn.json');
    assert.equal(decidedByText(byPage, zh), '由你在回答页面上决定');
    assert.equal(decidedByText(byRule, zh), '由规则 «npm test …»（在此工作区中） 决定');
  });

  test('each way of deciding reads as one short line of its own', () => {
    const cases: Array<[DecidedBy, string]> = [
      [{ by: 'user', where: 'panel' }, 'Decided by you in the panel'],
      [{ by: 'user', where: 'page' }, 'Decided by you on the answer page'],
      [{ by: 'user', where: 'agent' }, "Decided by you in the agent's own prompt"],
      [{ by: 'user', where: 'notification' }, 'Decided by you in a notification'],
      [{ by: 'user', where: 'queue' }, 'Decided by you in the Queue'],
      [{ by: 'extension' }, 'Decided by an extension through the API'],
      [{ by: 'rule', rules: [{ text: 'npm test …', origin: 'remembered', scope: 'workspace' }] }, 'Decided by the rule «npm test …» (in this workspace)'],
      [
        {
          by: 'rule',
          rules: [
            { text: 'git status', origin: 'terminalSettings' },
            { text: 'npm test', origin: 'userSettings' },
          ],
        },
        "Decided by the rules «git status» (VS Code's terminal rules), «npm test» (your settings)",
      ],
      [{ by: 'rule', rules: [{ text: 'rm', origin: 'workspaceSettings' }] }, "Decided by the rule «rm» (the workspace's settings)"],
      [{ by: 'answersFile' }, 'Decided by the answers file (agentQuestions.answersFile)'],
      [{ by: 'policy', setting: 'mode' }, 'Decided by the setting agentQuestions.mode'],
      [{ by: 'policy', setting: 'unattended' }, 'Decided by AGENT_QUESTIONS_UNATTENDED=1 (no one to ask)'],
      [{ by: 'policy', setting: 'noWindow' }, 'Not asked: no VS Code window could show it'],
      [{ by: 'timeout', afterSeconds: 300 }, 'Timed out after 300 s'],
      [{ by: 'asker' }, 'Cancelled by the agent'],
      [{ by: 'asker', at: 'hookDeadline' }, "Handed back to the agent at its hook's deadline"],
      [{ by: 'shutdown' }, 'Cancelled: Agent Questions shut down'],
      [{ by: 'shutdown', part: 'endpoint' }, 'Cancelled: the MCP endpoint was turned off'],
    ];
    for (const [decidedBy, line] of cases) assert.equal(decidedByText(decidedBy, t), line, JSON.stringify(decidedBy));
  });
});
