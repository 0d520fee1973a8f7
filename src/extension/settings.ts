import * as vscode from 'vscode';
import { MODES, RESTRICTED_SETTINGS, type Mode } from '../broker/policy';
import { clampSetting } from '../broker/settingRanges';

export interface Settings {
  mode: Mode;
  answersFile: string;
  timeoutSeconds: number;
  revealOnAsk: boolean;
  historyLimit: number;
  notify: 'always' | 'whenHidden' | 'never';
  mcpEnabled: boolean;
  /** 0: a free port. */
  mcpPort: number;
  /** The hook for VS Code's own agent (its tool calls decided by our rules and Queue); it needs the endpoint. */
  vscodeAgentHooks: boolean;
  /** How long the hook for VS Code's own agent holds a call for an answer before handing it back to VS Code. */
  vscodeAgentWaitSeconds: number;
  /** How long get_answers can read an answer again after it first collected it. */
  keepCollectedAnswersMinutes: number;
}

// Who answers and whether the endpoint listens: a repository's .vscode/settings.json must not decide
// them. They are machine-scoped (package.json), so VS Code ignores workspace values, and restricted
// in Restricted Mode; this reads only the user's value, a second, independent guard.
const isRestricted = (key: string) => (RESTRICTED_SETTINGS as readonly string[]).includes(key);

/** Settings are read when used, so changes apply without a reload. */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('agentQuestions');
  const get = <T>(key: string, fallback: T): T => {
    if (!isRestricted(key)) return config.get<T>(key, fallback);
    const values = config.inspect<T>(key);
    return values?.globalValue ?? values?.defaultValue ?? fallback;
  };
  const mode = get<string>('mode', 'interactive');
  return {
    mode: (MODES as readonly string[]).includes(mode) ? (mode as Mode) : 'interactive',
    answersFile: get<string>('answersFile', '').trim(),
    timeoutSeconds: clampSetting('agentQuestions.timeoutSeconds', get<number>('timeoutSeconds', 0)),
    revealOnAsk: get<boolean>('revealOnAsk', true),
    historyLimit: Math.floor(clampSetting('agentQuestions.historyLimit', get<number>('historyLimit', 100))),
    notify: (['always', 'whenHidden', 'never'] as const).find((n) => n === get<string>('notify', 'whenHidden')) ?? 'whenHidden',
    mcpEnabled: get<boolean>('mcp.enabled', false),
    mcpPort: Math.floor(clampSetting('agentQuestions.mcp.port', get<number>('mcp.port', 0))),
    vscodeAgentHooks: get<boolean>('vscodeAgent.hooks', false),
    vscodeAgentWaitSeconds: clampSetting('agentQuestions.vscodeAgent.waitSeconds', get<number>('vscodeAgent.waitSeconds', 86340)),
    keepCollectedAnswersMinutes: clampSetting('agentQuestions.keepCollectedAnswersMinutes', get<number>('keepCollectedAnswersMinutes', 60)),
  };
}
