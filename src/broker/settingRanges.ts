// The numeric settings' ranges, as package.json's configuration states them (a unit test keeps the
// two equal). VS Code only flags a value outside them in the Settings editor and still returns it, so
// each is clamped where it is read.
interface SettingRange {
  minimum: number;
  maximum?: number;
}

export const SETTING_RANGES = {
  'agentQuestions.timeoutSeconds': { minimum: 0 },
  'agentQuestions.historyLimit': { minimum: 0 },
  'agentQuestions.mcp.port': { minimum: 0, maximum: 65535 },
  'agentQuestions.keepCollectedAnswersMinutes': { minimum: 1, maximum: 1440 },
  'agentQuestions.nudge.afterSeconds': { minimum: 1 },
  'agentQuestions.nudge.reminderAfterSeconds': { minimum: 0 },
  'agentQuestions.nudge.maxPerHour': { minimum: 1, maximum: 60 },
  'agentQuestions.answerPage.linkMinutes': { minimum: 1, maximum: 1440 },
  'agentQuestions.vscodeAgent.waitSeconds': { minimum: 10, maximum: 86340 },
} as const satisfies Record<string, SettingRange>;

export type RangedSetting = keyof typeof SETTING_RANGES;

/** `value` moved into the setting's range. */
export function clampSetting(key: RangedSetting, value: number): number {
  const range: SettingRange = SETTING_RANGES[key];
  return Math.min(range.maximum ?? Infinity, Math.max(range.minimum, value));
}
