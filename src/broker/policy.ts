// Who can answer right now. Never wait for input nobody can give.
import type { PolicySetting } from './contract/schemas';

export const MODES = ['interactive', 'answersFile', 'off'] as const;

/**
 * Settings (under `agentQuestions.`) that decide who answers or who may connect. In Restricted Mode
 * only the user's own values count: a workspace's settings come with the folder, from whoever wrote
 * it. package.json lists the same in `capabilities.untrustedWorkspaces.restrictedConfigurations`.
 */
export const RESTRICTED_SETTINGS = ['mode', 'answersFile', 'mcp.enabled', 'mcp.port'] as const;
export type Mode = (typeof MODES)[number];

export interface Availability {
  mode: Mode;
  /** The environment says no human is there (AGENT_QUESTIONS_UNATTENDED=1). */
  unattended: boolean;
  /** A window exists that can show the Question panel. */
  canShowPanel: boolean;
}

/** `setting`: what made no one askable, for the record of who decided. */
export type Route = { kind: 'ask' } | { kind: 'script' } | { kind: 'unavailable'; reason: string; setting: PolicySetting };

export function routeFor(availability: Availability): Route {
  if (availability.mode === 'off') return { kind: 'unavailable', reason: 'Agent Questions is turned off (setting agentQuestions.mode is "off").', setting: 'mode' };
  // Scripted answers are meant for sessions without a human, so they win over "unattended".
  if (availability.mode === 'answersFile') return { kind: 'script' };
  if (availability.unattended) return { kind: 'unavailable', reason: 'This session is unattended (AGENT_QUESTIONS_UNATTENDED=1); no one can answer.', setting: 'unattended' };
  if (!availability.canShowPanel) return { kind: 'unavailable', reason: 'No VS Code window can show the question.', setting: 'noWindow' };
  return { kind: 'ask' };
}

export const isUnattendedEnvironment = (env: Record<string, string | undefined>): boolean => env.AGENT_QUESTIONS_UNATTENDED === '1';
