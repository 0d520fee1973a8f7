// The answer page's words: English defaults; the extension passes its vscode.l10n translations.
// `{0}`, `{1}` are replaced by the arguments a string takes.

export const ANSWER_PAGE_STRINGS = {
  pageTitle: 'Agent Questions',
  askedBy: 'Asked by {0}',
  questionsHeading: 'The agent asks',
  permissionHeading: 'The agent asks to run',
  recommended: 'Recommended',
  other: 'Other…',
  otherAnswer: 'Your own answer',
  textAnswer: 'Your answer',
  addNote: 'Add a note',
  note: 'Note for the agent (optional)',
  unansweredSkipped: 'A question left without an answer is sent as skipped.',
  send: 'Send answers',
  command: 'Command',
  noInput: '{0} with no input.',
  checkBeforeAllowing: 'Check before allowing:',
  invisibleCharacters: 'Contains invisible characters ({0}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.',
  invisibleCharactersCounted: 'Contains {0} invisible characters ({1}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.',
  imageNotLoaded: '[image: {0}]',
  allowOnce: 'Allow once',
  deny: 'Deny',
  denyMessage: 'Message for the agent, sent with Deny (optional)',
  secretInVsCode: 'This request asks for a secret. Answer it in VS Code: a secret is never typed into this page.',
  answered: 'Answered',
  answeredDetail: 'Your answer was sent to the agent. You can close this page.',
  noLongerWaiting: 'No longer waiting',
  noLongerWaitingDetail: 'This link does not work (any more): the request was answered elsewhere, cancelled or expired, or the link is not valid. VS Code shows what still waits.',
  doesNotFit: 'The answer does not fit the question ({0}). Go back and try again.',
};

export type AnswerPageStrings = typeof ANSWER_PAGE_STRINGS;

/** The defaults with what the caller translated; a missing or empty entry stays English. */
export function withDefaults(given: Partial<AnswerPageStrings> = {}): AnswerPageStrings {
  const merged = { ...ANSWER_PAGE_STRINGS };
  for (const key of Object.keys(merged) as Array<keyof AnswerPageStrings>) {
    const value = given[key];
    if (typeof value === 'string' && value !== '') merged[key] = value;
  }
  return merged;
}

/** Replaces `{0}`, `{1}`, … by the arguments, in one pass (an argument's own "{1}" stays as it is). */
export const format = (template: string, ...args: string[]): string => template.replace(/\{(\d)\}/g, (slot, i: string) => args[Number(i)] ?? slot);
