// OpenCode, through the plugin "Connect an External Agent…" hands out (openCodeConfig.ts): the plugin
// pipes the properties of OpenCode's `permission.asked` event (a PermissionRequest { id, sessionID,
// permission, patterns, metadata, always, tool }) or `question.asked` event (a QuestionRequest
// { id, sessionID, questions: [{ question, header, options, multiple }] }) to stdin, and sends what
// this prints to OpenCode's reply routes: { reply: "once" } or { reply: "reject", message } for a
// permission, { answers: [[…], …] } or { reject: true } for questions. Exit 1 gives no decision:
// the plugin leaves the request to OpenCode's own prompt.
import { ASK_USER_QUESTION_TOOL, DAY_SECONDS } from '../../broker/contract/wireNames';
import { isObject } from '../../hook/isObject';
import type { HookAgent } from '../hookAgent';

/** OpenCode's question list as Claude Code's AskUserQuestion input, which the approve tool asks as a question request. */
function askUserQuestionInput(questions: unknown[]): Record<string, unknown> | undefined {
  const mapped = questions.map((q) => {
    if (!isObject(q) || typeof q['question'] !== 'string' || !Array.isArray(q['options'])) return undefined;
    const options = q['options'].map((o) =>
      isObject(o) && typeof o['label'] === 'string' ? { label: o['label'], ...(typeof o['description'] === 'string' ? { description: o['description'] } : {}) } : undefined,
    );
    if (options.some((o) => o === undefined)) return undefined;
    return { question: q['question'], ...(typeof q['header'] === 'string' ? { header: q['header'] } : {}), options, multiSelect: q['multiple'] === true };
  });
  return mapped.some((q) => q === undefined) ? undefined : { questions: mapped };
}

export const openCodeHook: HookAgent = {
  approveCall(input) {
    if (!isObject(input)) return { problem: "expected OpenCode's permission.asked or question.asked event properties" };
    const callId = isObject(input['tool']) && typeof input['tool']['callID'] === 'string' ? { tool_use_id: input['tool']['callID'] } : {};
    if (Array.isArray(input['questions'])) {
      const questions = askUserQuestionInput(input['questions']);
      return questions ? { tool_name: ASK_USER_QUESTION_TOOL, input: questions, ...callId } : { problem: 'the question.asked input has a question without text or options' };
    }
    const permission = input['permission'];
    if (typeof permission !== 'string' || !permission) return { problem: 'the permission.asked input has no permission' };
    const metadata = isObject(input['metadata']) ? input['metadata'] : {};
    // A shell command is shown as one, whole, with the panel's command warnings and rules.
    if (permission === 'bash' && typeof metadata['command'] === 'string') return { tool_name: 'Bash', input: { command: metadata['command'] }, ...callId };
    const patterns = Array.isArray(input['patterns']) ? input['patterns'].filter((p): p is string => typeof p === 'string') : [];
    // Nested, so nothing in metadata (a "patterns" key, say) can stand in for what OpenCode asks about.
    return { tool_name: permission, input: { patterns, metadata }, ...callId };
  },
  output(decision, input) {
    const questions = isObject(input) && Array.isArray(input['questions']) ? input['questions'] : undefined;
    if (questions) {
      if (decision.behavior !== 'allow') return JSON.stringify({ reject: true });
      const answers = isObject(decision.updatedInput['answers']) ? decision.updatedInput['answers'] : {};
      // One answer text per question, in order; OpenCode shows the model the same text.
      const texts = questions.map((q) =>
        isObject(q) && typeof q['question'] === 'string' && typeof answers[q['question']] === 'string' ? [answers[q['question']] as string] : [],
      );
      return JSON.stringify({ answers: texts });
    }
    return JSON.stringify(decision.behavior === 'allow' ? { reply: 'once' } : { reply: 'reject', message: decision.message });
  },
  // OpenCode's ask names no folder: the plugin adds `cwd`, its directory moved by the call's `workdir`.
  folder: (input) => (isObject(input) && typeof input['cwd'] === 'string' ? input['cwd'] : ''),
  // OpenCode has no sandbox: a rule for a tool that runs the workspace's code never covers its calls.
  confinement: () => 'unsandboxed',
  noDecisionExitCode: 1,
  // The plugin leaves an undecided ask to OpenCode's own prompt, which has no time limit for it.
  undecided: 'handBack',
  hookTimeoutMs: DAY_SECONDS * 1000,
};
