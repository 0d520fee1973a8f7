// The hook command's `opencode` shape (src/agents/openCode/openCodeHook.ts): what the handed-out OpenCode
// plugin pipes in (the properties of OpenCode 1.18.33's permission.asked / question.asked events, as
// recorded from the real CLI) and what it reads back, through the real endpoint.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { openCodeHook } from '../../../src/agents/openCode/openCodeHook';
import { runHook } from '../../../src/hook/runHook';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';

/** OpenCode 1.18.33's permission.asked properties for a bash tool call, as its plugin event carried them. */
const BASH_ASKED = {
  id: 'per_23a92ec740013h6Q2ezx4obsM2',
  sessionID: 'ses_dc56d2e7cffe34MewCiC8CJ48a',
  permission: 'bash',
  patterns: ['touch marker', 'echo done'],
  metadata: { command: 'touch marker && echo done' },
  always: ['touch *', 'echo *'],
  tool: { messageID: 'msg_23a92e386001hZPanPUPsd8UI3', callID: 'call_1' },
};

/** question.asked properties of OpenCode's own question tool. */
const QUESTION_ASKED = {
  id: 'que_23a97153f001',
  sessionID: 'ses_dc568f4b7ffeWi7evBAHeoo5Fs',
  questions: [
    {
      question: 'Which cache should I use?',
      header: 'Cache',
      options: [
        { label: 'Redis', description: 'In memory' },
        { label: 'None', description: 'No cache' },
      ],
    },
    {
      question: 'Which extras?',
      header: 'Extras',
      options: [
        { label: 'Metrics', description: '' },
        { label: 'Tracing', description: '' },
      ],
      multiple: true,
    },
  ],
  tool: { messageID: 'msg_1', callID: 'call_2' },
};

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 6);

suite('approval hook command: OpenCode', () => {
  test('a bash permission ask becomes a Bash approve call with the whole command', () => {
    assert.deepEqual(openCodeHook.approveCall(BASH_ASKED), { tool_name: 'Bash', input: { command: 'touch marker && echo done' }, tool_use_id: 'call_1' });
  });

  test('prevents a forged pattern: a metadata.patterns key cannot replace the patterns OpenCode asks about', () => {
    const asked = { ...BASH_ASKED, permission: 'external_directory', patterns: ['/home/u/.ssh/*'], metadata: { patterns: ['/tmp/build/*'] }, tool: undefined };
    assert.deepEqual(openCodeHook.approveCall(asked), { tool_name: 'external_directory', input: { patterns: ['/home/u/.ssh/*'], metadata: { patterns: ['/tmp/build/*'] } } });
  });

  test('another permission keeps its name, patterns and metadata', () => {
    const asked = { ...BASH_ASKED, permission: 'external_directory', patterns: ['/etc/*'], metadata: { filepath: '/etc/hosts', parentDir: '/etc' }, tool: undefined };
    assert.deepEqual(openCodeHook.approveCall(asked), {
      tool_name: 'external_directory',
      input: { patterns: ['/etc/*'], metadata: { filepath: '/etc/hosts', parentDir: '/etc' } },
    });
  });

  test('its own questions become an AskUserQuestion call (multiple → multiSelect); malformed input gives no decision', () => {
    assert.deepEqual(openCodeHook.approveCall(QUESTION_ASKED), {
      tool_name: 'AskUserQuestion',
      input: {
        questions: [
          {
            question: 'Which cache should I use?',
            header: 'Cache',
            options: [
              { label: 'Redis', description: 'In memory' },
              { label: 'None', description: 'No cache' },
            ],
            multiSelect: false,
          },
          {
            question: 'Which extras?',
            header: 'Extras',
            options: [
              { label: 'Metrics', description: '' },
              { label: 'Tracing', description: '' },
            ],
            multiSelect: true,
          },
        ],
      },
      tool_use_id: 'call_2',
    });
    assert.ok('problem' in openCodeHook.approveCall({ ...QUESTION_ASKED, questions: [{ question: 'No options' }] }));
    assert.ok('problem' in openCodeHook.approveCall({ ...BASH_ASKED, permission: '' }));
    assert.ok('problem' in openCodeHook.approveCall([BASH_ASKED]));
    assert.ok('problem' in openCodeHook.approveCall(null));
  });

  test('an allow is only ever "once": OpenCode never gets an always rule from the panel', () => {
    assert.equal(openCodeHook.output({ behavior: 'allow', updatedInput: { command: 'ls' } }, BASH_ASKED), '{"reply":"once"}');
    assert.equal(openCodeHook.output({ behavior: 'deny', message: 'not now' }, BASH_ASKED), '{"reply":"reject","message":"not now"}');
  });

  test('answers go back one text per question, in order; an unanswered question gets none; a declined one rejects them', () => {
    const updatedInput = { questions: [], answers: { 'Which cache should I use?': 'Redis' } };
    assert.equal(openCodeHook.output({ behavior: 'allow', updatedInput }, QUESTION_ASKED), '{"answers":[["Redis"],[]]}');
    assert.equal(openCodeHook.output({ behavior: 'deny', message: 'The user declined to decide.' }, QUESTION_ASKED), '{"reject":true}');
  });

  test('through the real endpoint: the panel shows "OpenCode" by its plugin, Allow prints once, Deny the message; a question is asked as one', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const hook = (input: unknown) =>
        runHook({
          args: ['opencode'],
          stdin: JSON.stringify(input),
          env: { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
          signal: new AbortController().signal,
        });
      const allowed = hook(BASH_ASKED);
      await until(() => broker.size === 1);
      const request = broker.list()[0]!;
      assert.deepEqual(request.source, { type: 'mcp', label: 'OpenCode', way: 'OpenCode plugin', via: `OpenCode plugin · name self-reported · token ${fingerprint(TOKEN)}` });
      assert.equal(request.kind === 'permission' && request.toolCall?.command, 'touch marker && echo done');
      broker.decide(request.id, 'allow_once', { by: 'user', where: 'panel' });
      assert.deepEqual(await allowed, { exitCode: 0, stdout: '{"reply":"once"}\n', stderr: '' });

      const denied = hook(BASH_ASKED);
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' }, 'use the staging box');
      assert.equal((await denied).stdout, '{"reply":"reject","message":"use the staging box"}\n');

      const asked = hook({ ...QUESTION_ASKED, questions: [QUESTION_ASKED.questions[0]] });
      await until(() => broker.size === 1);
      const question = broker.list()[0]!;
      assert.equal(question.kind, 'questions');
      assert.equal(question.kind === 'questions' && question.questions[0]!.question, 'Which cache should I use?');
      broker.reply(question.id, { q1: { selected: ['Redis'], skipped: false } }, { by: 'user', where: 'panel' });
      assert.equal((await asked).stdout, '{"answers":[["Redis"]]}\n');
    });
  });

  test('fails closed outside a VS Code terminal: no decision, exit 1, and OpenCode asks itself', async () => {
    const outcome = await runHook({ args: ['opencode'], stdin: JSON.stringify(BASH_ASKED), env: {}, signal: new AbortController().signal });
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^Agent Questions hook: \$AGENT_QUESTIONS_MCP_URL or \$AGENT_QUESTIONS_MCP_TOKEN is not set.*; OpenCode asks you itself\.\n$/);
  });
});
