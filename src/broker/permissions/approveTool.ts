// The `approve` permission-prompt tool for external agents, with Claude Code's contract:
// input { tool_name, input, tool_use_id }, output {"behavior":"allow","updatedInput"} or
// {"behavior":"deny","message"}. Claude Code's own AskUserQuestion becomes a question request.
import * as z from 'zod';
import type { NewPermissionRequest, NewQuestionRequest } from '../broker';
import { displayToolCall } from './toolCallDisplay';
import { callFolder } from './agentFolder';
import { toPathContext, type PathContext } from './toolPaths';
import { uiText } from '../visibleText';
import { CONFINEMENTS } from '../contract/wireNames';
import { LIMITS, type Answer, type PermissionResponse, type Question, type QuestionResponse, type RequestSource } from '../contract/schemas';

export const ApproveInputSchema = z.object({
  tool_name: z.string().min(1).max(200).describe('The tool the agent wants to use, e.g. "Bash".'),
  input: z.record(z.string(), z.unknown()).describe('The input the agent wants to call it with.'),
  tool_use_id: z.string().max(200).optional().describe("The agent's id for this tool call."),
  cwd: z.string().max(4096).optional().describe("The absolute folder the agent runs the call in; '' when it does not know. Relative paths are read against it."),
  confinement: z.enum(CONFINEMENTS).optional().describe('Whether the agent runs the call in its own sandbox (the approval hook says; absent: unknown).'),
});
export type ApproveInput = z.infer<typeof ApproveInputSchema>;

export const APPROVE_DESCRIPTION =
  'Permission prompt for agents outside VS Code (Claude Code\'s --permission-prompt-tool contract): shows the tool call to the user in the Agent Questions sidebar, first in the queue, and returns {"behavior":"allow","updatedInput":…} or {"behavior":"deny","message":…}.';

export type ApproveResult = { behavior: 'allow'; updatedInput: Record<string, unknown> } | { behavior: 'deny'; message: string };

/** Claude Code's built-in question tool; its questions are asked as a normal question request. */
export { ASK_USER_QUESTION_TOOL } from '../contract/wireNames';
import { ASK_USER_QUESTION_TOOL } from '../contract/wireNames';

const AskUserQuestionInputSchema = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        header: z.string().optional(),
        options: z
          .array(z.object({ label: z.string().min(1), description: z.string().optional() }))
          .min(LIMITS.minOptions)
          .max(LIMITS.maxOptions),
        multiSelect: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(LIMITS.maxQuestions),
});

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** A code block whose fence is longer than any backtick run inside, so the content cannot end it. */
function codeBlock(text: string, language = ''): string {
  const longestRun = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** The tool call as markdown, whole (for copying and for API readers; the panel shows `toolCall`). */
export function describeToolCall(toolName: string, input: Record<string, unknown>): string {
  if (toolName === 'Bash' && typeof input['command'] === 'string') {
    const { command, ...rest } = input;
    return `${codeBlock(command as string, 'sh')}${Object.keys(rest).length ? `\n\n${codeBlock(JSON.stringify(rest, null, 2), 'json')}` : ''}`;
  }
  return codeBlock(JSON.stringify(input, null, 2), 'json');
}

/** The permission request for a tool call, or why it cannot be shown in full (then it is denied, never cut). */
export function permissionRequestFor(call: ApproveInput, source: RequestSource, where: readonly string[] | PathContext): NewPermissionRequest | { refused: string } {
  const context = toPathContext(where);
  const cwd = callFolder(call.cwd, call.input, context);
  const display = displayToolCall(call.tool_name, call.input, cwd === undefined ? context : { ...context, folder: cwd });
  if (!display.ok) return { refused: display.message };
  if (cwd !== undefined) display.toolCall.cwd = cwd;
  const verb = call.tool_name === 'Bash' ? 'run a command' : `use ${uiText(call.tool_name, 80)}`;
  const confinement = call.confinement ? { confinement: call.confinement } : {};
  return { source, title: `${source.label} wants to ${verb}`, detail: describeToolCall(call.tool_name, call.input), toolCall: display.toolCall, ...confinement };
}

export function approveResultFor(call: ApproveInput, response: PermissionResponse): ApproveResult {
  if (response.status === 'answered' && response.decision !== 'deny') return { behavior: 'allow', updatedInput: call.input };
  if (response.status === 'answered') return { behavior: 'deny', message: response.reason ?? 'The user denied this tool call.' };
  const why: Record<string, string> = {
    rejected: 'The user declined to decide',
    cancelled: 'The permission request was cancelled',
    timed_out: 'The user did not decide in time',
    unavailable: 'No one can approve tool calls right now',
  };
  return { behavior: 'deny', message: `${why[response.status] ?? 'Not allowed'}${response.reason ? `: ${response.reason}` : ''}.` };
}

/** AskUserQuestion's questions as ours, ids q1…q4; undefined when they do not fit our limits. */
export function questionRequestFor(call: ApproveInput, source: RequestSource): NewQuestionRequest | { refused: string } | undefined {
  if (call.tool_name !== ASK_USER_QUESTION_TOOL) return undefined;
  const parsed = AskUserQuestionInputSchema.safeParse(call.input);
  if (!parsed.success) return undefined;
  // Claude Code keys the answers by question text, so two equal texts would overwrite each other.
  const texts = parsed.data.questions.map((q) => q.question);
  const repeated = texts.find((text, index) => texts.indexOf(text) !== index);
  if (repeated !== undefined)
    return {
      refused: `AskUserQuestion has two questions with the same text (${JSON.stringify(clip(repeated, 80))}); its answers are keyed by question text, so give each question its own wording.`,
    };
  const questions: Question[] = parsed.data.questions.map((q, index) => ({
    id: `q${index + 1}`,
    header: clip(q.header?.trim() || `Question ${index + 1}`, LIMITS.headerMax),
    question: clip(q.question, LIMITS.questionMax),
    kind: q.multiSelect ? 'multi' : 'single',
    options: q.options.map((o) => ({ label: clip(o.label, LIMITS.labelMax), ...(o.description ? { description: clip(o.description, LIMITS.descriptionMax) } : {}) })),
    allowOther: true,
  }));
  return { source, questions };
}

function answerText(answer: Answer): string {
  const chosen = [...answer.selected, ...(answer.other !== undefined ? [answer.other] : [])].join(', ');
  // AskUserQuestion's answers are text: attached images cannot go with them, and the agent is told so.
  const count = answer.images?.length ?? 0;
  const images = count ? ` (the user attached ${count} ${count === 1 ? 'image' : 'images'}, which this prompt cannot pass on)` : '';
  return (answer.note ? `${chosen} (note: ${answer.note})` : chosen) + images;
}

/** Our response to AskUserQuestion's questions, as the allow result Claude Code expects. */
export function askUserQuestionResultFor(call: ApproveInput, request: NewQuestionRequest, response: QuestionResponse): ApproveResult {
  if (response.status !== 'answered')
    return approveResultFor(call, { requestId: response.requestId, status: response.status, ...(response.reason ? { reason: response.reason } : {}) });
  const questions = (call.input['questions'] as Array<{ question: string }>) ?? [];
  // No prototype: a question whose text is "__proto__" or "constructor" is an answer like any other.
  const answers: Record<string, string> = Object.create(null);
  request.questions.forEach((q, index) => {
    const answer = response.answers?.[q.id];
    if (answer && !answer.skipped) answers[questions[index]!.question] = answerText(answer);
  });
  return { behavior: 'allow', updatedInput: { ...call.input, answers } };
}
