// The chat's progress line for an ask_user call, as markdown for VS Code's chat: the agent's headers
// are text (every markdown character escaped, so they can add no link, image or HTML), followed by
// our one link to the question.
import { uiText } from '../visibleText';

/** The command the link runs: focuses the head question's first control. */
export const FOCUS_QUESTION_COMMAND = 'agentQuestions.focusPanel';
export const FOCUS_QUESTION_LABEL = 'Go to the question';

/** CommonMark lets a backslash escape any ASCII punctuation; escaping all of it also breaks autolinks. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** The words of the progress line: the host passes them in VS Code's display language. */
export interface AskingWords {
  /** The sentence for `count` questions; `headers` is their list, already made safe. */
  asking(count: number, headers: string): string;
  link: string;
  linkTitle: string;
}

export const ENGLISH_ASKING: AskingWords = {
  asking: (count, headers) => `Asking ${count} ${count === 1 ? 'question' : 'questions'} (${headers})`,
  link: FOCUS_QUESTION_LABEL,
  linkTitle: 'Focus the question in Agent Questions',
};

/** "Asking 2 questions (Database, Auth)" as plain text. */
export function askingText(headers: readonly string[], words: AskingWords = ENGLISH_ASKING): string {
  return words.asking(headers.length, headers.map((h) => uiText(h, 60)).join(', '));
}

/** The progress line as markdown: the escaped text and the link that focuses the question. */
export function askingMarkdown(headers: readonly string[], words: AskingWords = ENGLISH_ASKING): string {
  return `${escapeMarkdown(askingText(headers, words))} · [${escapeMarkdown(words.link)}](command:${FOCUS_QUESTION_COMMAND} "${words.linkTitle.replace(/["\\]/g, '')}")`;
}
