import * as vscode from 'vscode';
import { MODES, type Mode } from '../broker/policy';

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
}

/** Settings are read when used, so changes apply without a reload. */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('agentQuestions');
  const mode = config.get<string>('mode', 'interactive');
  return {
    mode: (MODES as readonly string[]).includes(mode) ? (mode as Mode) : 'interactive',
    answersFile: config.get<string>('answersFile', '').trim(),
    timeoutSeconds: Math.max(0, config.get<number>('timeoutSeconds', 0)),
    revealOnAsk: config.get<boolean>('revealOnAsk', true),
    historyLimit: Math.max(0, Math.floor(config.get<number>('historyLimit', 100))),
    notify: (['always', 'whenHidden', 'never'] as const).find((n) => n === config.get<string>('notify')) ?? 'whenHidden',
    mcpEnabled: config.get<boolean>('mcp.enabled', false),
    mcpPort: Math.min(65535, Math.max(0, Math.floor(config.get<number>('mcp.port', 0)))),
  };
}
