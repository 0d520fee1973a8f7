// One short line on who settled a history entry: the user and where, a rule, the answers file, a
// setting, a timeout, the agent or a shutdown. A new way of deciding without its line does not compile.
import type { DecidedBy, DecidingRule, PolicySetting, UserPlace } from '../broker/contract/schemas';
import { t } from './l10n';

export function decidedByText(decidedBy: DecidedBy): string {
  switch (decidedBy.by) {
    case 'user':
      return userText(decidedBy.where);
    case 'extension':
      return t('Decided by an extension through the API');
    case 'rule': {
      const rules = decidedBy.rules.map(ruleText).join(t(', '));
      return decidedBy.rules.length === 1 ? t('Decided by the rule {0}', rules) : t('Decided by the rules {0}', rules);
    }
    case 'answersFile':
      return t('Decided by the answers file (agentQuestions.answersFile)');
    case 'policy':
      return policyText(decidedBy.setting);
    case 'timeout':
      return t('Timed out after {0} s', decidedBy.afterSeconds);
    case 'asker':
      return t('Cancelled by the agent');
    case 'shutdown':
      return t('Cancelled: Agent Questions shut down');
  }
}

function userText(where: UserPlace): string {
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

function policyText(setting: PolicySetting): string {
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
function ruleText(rule: DecidingRule): string {
  return t('«{0}» ({1})', rule.text, originText(rule));
}

function originText(rule: DecidingRule): string {
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
