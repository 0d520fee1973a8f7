// One short line on who settled a history entry: the user and where, a rule, the answers file, a
// setting, a timeout, the agent or a shutdown. A new way of deciding without its line does not compile.
// Shared by the panel's history (its t) and the Show History quick pick (vscode.l10n.t).
import type { PanelMessage } from './panelMessages';
import type { DecidedBy, DecidingRule, PolicySetting, UserPlace } from './schemas';

/** Translates a panel message, with `{0}`, `{1}`, … replaced by `args`. */
export type Translate = (message: PanelMessage, ...args: Array<string | number>) => string;

export function decidedByText(decidedBy: DecidedBy, t: Translate): string {
  switch (decidedBy.by) {
    case 'user':
      return userText(decidedBy.where, t);
    case 'extension':
      return t('Decided by an extension through the API');
    case 'rule': {
      const rules = decidedBy.rules.map((rule) => ruleText(rule, t)).join(t(', '));
      return decidedBy.rules.length === 1 ? t('Decided by the rule {0}', rules) : t('Decided by the rules {0}', rules);
    }
    case 'answersFile':
      return t('Decided by the answers file (agentQuestions.answersFile)');
    case 'policy':
      return policyText(decidedBy.setting, t);
    case 'timeout':
      return t('Timed out after {0} s', decidedBy.afterSeconds);
    case 'asker':
      return decidedBy.at === 'hookDeadline' ? t("Handed back to the agent at its hook's deadline") : t('Cancelled by the agent');
    case 'shutdown':
      return decidedBy.part === 'endpoint' ? t('Cancelled: the MCP endpoint was turned off') : t('Cancelled: Agent Questions shut down');
  }
}

function userText(where: UserPlace, t: Translate): string {
  switch (where) {
    case 'panel':
      return t('Decided by you in the panel');
    case 'page':
      return t('Decided by you on the answer page');
    case 'agent':
      return t("Decided by you in the agent's own prompt");
    case 'notification':
      return t('Decided by you in a notification');
    case 'queue':
      return t('Decided by you in the Queue');
  }
}

function policyText(setting: PolicySetting, t: Translate): string {
  switch (setting) {
    case 'mode':
      return t('Decided by the setting agentQuestions.mode');
    case 'unattended':
      return t('Decided by AGENT_QUESTIONS_UNATTENDED=1 (no one to ask)');
    case 'noWindow':
      return t('Not asked: no VS Code window could show it');
  }
}

/** «npm test …» (in this workspace), «rm» (your settings), … */
function ruleText(rule: DecidingRule, t: Translate): string {
  return t('«{0}» ({1})', rule.text, originText(rule, t));
}

function originText(rule: DecidingRule, t: Translate): string {
  switch (rule.origin) {
    case 'remembered':
      return rule.scope === 'session' ? t('in this session') : rule.scope === 'user' ? t('in all workspaces') : t('in this workspace');
    case 'userSettings':
      return t('your settings');
    case 'workspaceSettings':
      return t("the workspace's settings");
    case 'terminalSettings':
      return t("VS Code's terminal rules");
  }
}
