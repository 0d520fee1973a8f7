import * as assert from 'node:assert/strict';
import type { NewPermissionRequest, NewQuestionRequest } from '../../../../src/broker/broker';
import {
  approveResultFor,
  askUserQuestionResultFor,
  describeToolCall,
  permissionRequestFor,
  questionRequestFor,
  type ApproveInput,
} from '../../../../src/broker/permissions/approveTool';

const SOURCE = { type: 'mcp' as const, label: 'Claude Code' };
const BASH: ApproveInput = { tool_name: 'Bash', input: { command: 'touch marker && echo done', description: 'Create a marker file' }, tool_use_id: 'toolu_2' };
const ASK: ApproveInput = {
  tool_name: 'AskUserQuestion',
  input: {
    questions: [
      { question: 'Which database should I use?', header: 'Database', options: [{ label: 'PostgreSQL', description: 'Server database' }, { label: 'SQLite' }], multiSelect: false },
      { question: 'Which extras?', header: 'Extras', options: [{ label: 'Redis' }, { label: 'Kafka' }], multiSelect: true },
    ],
  },
  tool_use_id: 'toolu_5',
};

suite('approve (permission-prompt tool)', () => {
  test('a Bash call becomes a permission request showing the command and every other key', () => {
    const request = permissionRequestFor(BASH, SOURCE, ['/ws']) as NewPermissionRequest;
    assert.equal(request.title, 'Claude Code wants to run a command');
    assert.equal(request.permissionKey, undefined);
    assert.deepEqual(request.toolCall, { tool: 'Bash', command: 'touch marker && echo done', fields: [{ name: 'description', value: 'Create a marker file' }], warnings: [] });
    assert.equal(request.detail, '```sh\ntouch marker && echo done\n```\n\n```json\n{\n  "description": "Create a marker file"\n}\n```');
  });

  test('prevents a forged title: a tool name cannot add lines or links', () => {
    const request = permissionRequestFor({ tool_name: 'Read.\n[Answer](command:workbench.action.terminal.sendSequence)', input: {} }, SOURCE, []) as NewPermissionRequest;
    assert.equal(request.title, 'Claude Code wants to use Read. [Answer] (command:workbench.action.terminal.sendSequence)');
  });

  test('a fence inside the command cannot close the code block', () => {
    const detail = describeToolCall('Bash', { command: 'echo ```\n# not a heading' });
    assert.match(detail, /^````sh\necho ```\n# not a heading\n````$/);
  });

  test('other tools show their input as JSON', () => {
    assert.match(describeToolCall('Write', { file_path: 'a.txt', content: 'x' }), /^```json\n\{\n {2}"file_path": "a.txt",/);
  });

  test('allow once and always allow return the input; deny returns the message or a default', () => {
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'answered', decision: 'allow_once' }), { behavior: 'allow', updatedInput: BASH.input });
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'answered', decision: 'allow_always' }), { behavior: 'allow', updatedInput: BASH.input });
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'answered', decision: 'deny', reason: 'not now' }), { behavior: 'deny', message: 'not now' });
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'answered', decision: 'deny' }), { behavior: 'deny', message: 'The user denied this tool call.' });
  });

  test('every other outcome denies, saying why', () => {
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'cancelled' }), { behavior: 'deny', message: 'The permission request was cancelled.' });
    assert.deepEqual(approveResultFor(BASH, { requestId: 'r1', status: 'unavailable', reason: 'mode is off' }), {
      behavior: 'deny',
      message: 'No one can approve tool calls right now: mode is off.',
    });
  });

  test('AskUserQuestion becomes a question request, and the answers go back keyed by question text', () => {
    const request = questionRequestFor(ASK, SOURCE) as NewQuestionRequest;
    assert.deepEqual(
      request.questions.map((q) => [q.id, q.header, q.kind, q.options.map((o) => o.label), q.allowOther]),
      [
        ['q1', 'Database', 'single', ['PostgreSQL', 'SQLite'], true],
        ['q2', 'Extras', 'multi', ['Redis', 'Kafka'], true],
      ],
    );
    const result = askUserQuestionResultFor(ASK, request, {
      requestId: 'r1',
      status: 'answered',
      answers: { q1: { selected: ['SQLite'], note: 'v3', skipped: false }, q2: { selected: ['Redis'], other: 'NATS', skipped: false } },
    });
    // As Claude Code receives it: JSON (the answers map has no prototype).
    assert.deepEqual(JSON.parse(JSON.stringify(result)), {
      behavior: 'allow',
      updatedInput: { ...ASK.input, answers: { 'Which database should I use?': 'SQLite (note: v3)', 'Which extras?': 'Redis, NATS' } },
    });
  });

  test('AskUserQuestion rejected in the panel is a denial; other tools are not questions', () => {
    const request = questionRequestFor(ASK, SOURCE) as NewQuestionRequest;
    assert.deepEqual(askUserQuestionResultFor(ASK, request, { requestId: 'r1', status: 'rejected', reason: 'later' }), {
      behavior: 'deny',
      message: 'The user declined to decide: later.',
    });
    assert.equal(questionRequestFor(BASH, SOURCE), undefined);
    assert.equal(questionRequestFor({ tool_name: 'AskUserQuestion', input: { questions: [] } }, SOURCE), undefined);
  });
});
