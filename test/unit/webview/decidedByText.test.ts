// The history's one line on who decided, in English (the host translates the panel's messages).
import * as assert from 'node:assert/strict';
import type { DecidedBy } from '../../../src/broker/contract/schemas';
import { decidedByText } from '../../../src/webview/decidedByText';

suite('who decided, as the history shows it', () => {
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
      [{ by: 'shutdown' }, 'Cancelled: Agent Questions shut down'],
    ];
    for (const [decidedBy, line] of cases) assert.equal(decidedByText(decidedBy), line, JSON.stringify(decidedBy));
  });
});
