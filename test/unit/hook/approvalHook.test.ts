// The hook command agents' permission hooks run (src/hook): parsing the hook input, printing the
// decision in the agent's shape, talking to the real endpoint, and failing closed.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCodeHook } from '../../../src/agents/claudeCode/claudeCodeHook';
import { connectionWay } from '../../../src/broker/contract/wireNames';
import { decisionOf, loopbackUrl, replyMessages } from '../../../src/hook/mcpApprove';
import { runHook, type HookRun } from '../../../src/hook/runHook';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';
import { ROOT } from '../helpers/repoRoot';
import { withServer } from '../helpers/localServer';

const fingerprint = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 6);
const HOOK_SCRIPT = join(ROOT, 'dist', 'approvalHook.js');

/** Claude Code 2.1.332's PermissionRequest hook input for a Bash command, as recorded (paths changed). */
const CLAUDE_BASH_INPUT = {
  session_id: '4833b828-5e4c-4316-9226-9954fb7fbcca',
  transcript_path: '/home/user/.claude/projects/-home-user-project/4833b828-5e4c-4316-9226-9954fb7fbcca.jsonl',
  cwd: '/home/user/project',
  prompt_id: 'f7bcd597-4b21-4a2b-844e-e6cdaf40ed6e',
  permission_mode: 'default',
  effort: { level: 'medium' },
  hook_event_name: 'PermissionRequest',
  tool_name: 'Bash',
  tool_input: { command: 'touch made-by-claude && echo done', description: 'Create the marker file' },
  permission_suggestions: [
    { type: 'addDirectories', directories: ['/home/user/project'], destination: 'session' },
    { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
  ],
};

/** Claude Code 2.1.332's AskUserQuestion input (its PreToolUse hook input carries it as tool_input). */
const CLAUDE_QUESTION_INPUT = {
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
  ],
};

const run = (overrides: Partial<HookRun> & { env: HookRun['env'] }): ReturnType<typeof runHook> =>
  runHook({ args: ['claude-code'], stdin: JSON.stringify(CLAUDE_BASH_INPUT), signal: new AbortController().signal, ...overrides });

suite('approval hook command', () => {
  test('Claude Code: a PermissionRequest input becomes an approve call with the whole tool input', () => {
    assert.deepEqual(claudeCodeHook.approveCall(CLAUDE_BASH_INPUT), { tool_name: 'Bash', input: CLAUDE_BASH_INPUT.tool_input });
    assert.match((claudeCodeHook.approveCall({ ...CLAUDE_BASH_INPUT, hook_event_name: 'PreToolUse', tool_name: 'Write' }) as { problem: string }).problem, /PermissionRequest/);
    assert.ok('problem' in claudeCodeHook.approveCall({ ...CLAUDE_BASH_INPUT, tool_input: 'ls' }));
    assert.ok('problem' in claudeCodeHook.approveCall([CLAUDE_BASH_INPUT]));
  });

  test('Claude Code: the decision is printed as hookSpecificOutput for PermissionRequest', () => {
    assert.equal(
      claudeCodeHook.output({ behavior: 'allow', updatedInput: { command: 'ls' } }, CLAUDE_BASH_INPUT),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}',
    );
    assert.equal(
      claudeCodeHook.output({ behavior: 'deny', message: 'not now' }, CLAUDE_BASH_INPUT),
      '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not now"}}}',
    );
  });

  test("Claude Code: PreToolUse on its own question tool is answered as PreToolUse; other PreToolUse inputs are not this command's", () => {
    const question = { ...CLAUDE_BASH_INPUT, hook_event_name: 'PreToolUse', tool_name: 'AskUserQuestion', tool_input: CLAUDE_QUESTION_INPUT, tool_use_id: 'toolu_2' };
    assert.deepEqual(claudeCodeHook.approveCall(question), { tool_name: 'AskUserQuestion', input: CLAUDE_QUESTION_INPUT, tool_use_id: 'toolu_2' });
    assert.ok('problem' in claudeCodeHook.approveCall({ ...question, tool_name: 'Write' }));
    const answers = { ...CLAUDE_QUESTION_INPUT, answers: { 'Which cache should I use?': 'Redis' } };
    assert.equal(
      claudeCodeHook.output({ behavior: 'allow', updatedInput: answers }, question),
      JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: answers } }),
    );
    assert.equal(
      claudeCodeHook.output({ behavior: 'deny', message: 'Rejected' }, question),
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Rejected"}}',
    );
  });

  test('replies are read as JSON or as an SSE stream', () => {
    assert.deepEqual(replyMessages('application/json', '{"jsonrpc":"2.0","id":2,"result":{}}'), [{ jsonrpc: '2.0', id: 2, result: {} }]);
    assert.deepEqual(replyMessages('text/event-stream', ': ping\n\nevent: message\nid: 7\ndata: {"jsonrpc":"2.0","id":2,"result":{"a":1}}\n\n'), [
      { jsonrpc: '2.0', id: 2, result: { a: 1 } },
    ]);
    assert.deepEqual(decisionOf({ content: [{ type: 'text', text: '{"behavior":"deny","message":"no"}' }] }), { behavior: 'deny', message: 'no' });
    assert.throws(() => decisionOf({ content: [{ type: 'text', text: '{"behavior":"maybe"}' }] }), /other than a decision/);
  });

  test('the way a client connected comes from its clientInfo name; unknown hooks are plain MCP', () => {
    assert.equal(connectionWay('agent-questions-hook:claude-code'), 'Claude Code hook');
    assert.equal(connectionWay('agent-questions-hook:codex'), 'Codex hook');
    assert.equal(connectionWay('agent-questions-hook:__proto__'), 'MCP client');
    assert.equal(connectionWay('claude-code'), 'MCP client');
    assert.equal(connectionWay(undefined), 'MCP client');
  });

  test('a Bash command waits in the panel labelled "Claude Code hook"; Allow prints allow with the input, Deny the message', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const env = { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN };
      const allowed = run({ env });
      await until(() => broker.size === 1);
      const request = broker.list()[0]!;
      assert.equal(request.kind, 'permission');
      assert.deepEqual(request.source, { type: 'mcp', label: 'Claude Code', via: `Claude Code hook · name self-reported · token ${fingerprint(TOKEN)}`, way: 'Claude Code hook' });
      assert.equal(request.kind === 'permission' && request.toolCall?.command, 'touch made-by-claude && echo done');
      broker.decide(request.id, 'allow_once', { by: 'user', where: 'panel' });
      assert.deepEqual(await allowed, {
        exitCode: 0,
        stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput: CLAUDE_BASH_INPUT.tool_input } } })}\n`,
        stderr: '',
      });

      const denied = run({ env });
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' }, 'Use the Makefile target instead');
      assert.deepEqual(JSON.parse((await denied).stdout), {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'Use the Makefile target instead' } },
      });
      // Each call closes its session.
      await until(() => endpoint.sessions().length === 0);
    });
  });

  test("Claude Code: answering in its own prompt (seen in its transcript) withdraws the panel's request, recorded as the user's answer there; an earlier identical call does not", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aq-transcript-'));
    const transcript = join(dir, 'session.jsonl');
    const line = (entry: object) => `${JSON.stringify(entry)}\n`;
    const toolUse = (id: string) =>
      line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: CLAUDE_BASH_INPUT.tool_input }] } });
    const toolResult = (id: string) => line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'made' }] } });
    // The same command ran once before (answered), and now waits again.
    writeFileSync(transcript, toolUse('toolu_old') + toolResult('toolu_old') + toolUse('toolu_now'));
    try {
      await withEndpoint(async ({ broker, endpoint }) => {
        const settled: string[] = [];
        const decidedBy: unknown[] = [];
        broker.onDidChange((change) => {
          if (change.type === 'settled') settled.push(change.response.status);
          if (change.type === 'settled') decidedBy.push(change.decidedBy);
        });
        const outcome = run({
          stdin: JSON.stringify({ ...CLAUDE_BASH_INPUT, transcript_path: transcript }),
          env: { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        });
        await until(() => broker.size === 1);
        await new Promise((r) => setTimeout(r, 700)); // a poll of the transcript passes: the old result is history
        assert.equal(broker.size, 1);
        appendFileSync(transcript, toolResult('toolu_now'));
        assert.deepEqual(await outcome, { exitCode: 0, stdout: '', stderr: '' });
        await until(() => settled.length === 1);
        assert.deepEqual(settled, ['cancelled']);
        assert.deepEqual(decidedBy, [{ by: 'user', where: 'agent' }]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('fails closed without the variables: no decision, exit 1, one line on stderr saying what to do', async () => {
    const outcome = await run({ env: {} });
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.stdout, '');
    assert.match(
      outcome.stderr,
      /^Agent Questions hook: \$AGENT_QUESTIONS_MCP_URL or \$AGENT_QUESTIONS_MCP_TOKEN is not set: start Claude Code from a VS Code terminal .*; Claude Code asks you itself\.\n$/,
    );
  });

  test('fails closed when the endpoint is off (nothing listens)', async () => {
    let url = '';
    await withServer(
      (_req, res) => res.end(),
      async (u) => void (url = u),
    );
    const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN } });
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.stdout, '');
    assert.match(outcome.stderr, /^Agent Questions hook: nothing listens at http:\/\/127\.0\.0\.1:\d+\/mcp: the endpoint is off .*; Claude Code asks you itself\.\n$/);
  });

  test('prevents leaking the token: a wrong token fails closed (401) and the token is never printed', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const wrong = 'wrong-token-secret-abcdef';
      const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: wrong } });
      assert.equal(outcome.exitCode, 1);
      assert.equal(outcome.stdout, '');
      assert.match(outcome.stderr, /refused the token \(401\).*open a new VS Code terminal/);
      assert.ok(!outcome.stderr.includes(wrong) && !outcome.stderr.includes(TOKEN));
      assert.equal(broker.size, 0);
    });
  });

  test('prevents sending the token off this machine: only http URLs on the loopback interface get it', async () => {
    assert.equal(loopbackUrl('http://example.com/mcp'), undefined);
    assert.equal(loopbackUrl('https://127.0.0.1/mcp'), undefined);
    assert.equal(loopbackUrl('http://127.0.0.1.example.com/mcp'), undefined);
    assert.ok(loopbackUrl('http://127.0.0.1:4567/mcp'));
    const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: 'http://example.com/mcp', AGENT_QUESTIONS_MCP_TOKEN: TOKEN } });
    assert.equal(outcome.exitCode, 1);
    assert.match(outcome.stderr, /not an http URL on 127\.0\.0\.1/);
  });

  test('fails closed when the endpoint hangs before the user is asked', async () => {
    await withServer(
      () => undefined, // never answers
      async (url) => {
        const started = Date.now();
        const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN }, connectTimeoutMs: 300 });
        assert.equal(outcome.exitCode, 1);
        assert.match(outcome.stderr, /did not answer within 0\.3 s/);
        assert.ok(Date.now() - started < 3000);
      },
    );
  });

  test('an endpoint answering in SSE is understood', async () => {
    await withServer(
      (req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const message = body ? (JSON.parse(body) as { id?: number; method: string }) : undefined;
          if (req.method === 'DELETE' || message?.id === undefined) return res.writeHead(202).end();
          const result =
            message.method === 'initialize'
              ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }
              : { content: [{ type: 'text', text: '{"behavior":"deny","message":"from SSE"}' }] };
          res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'abc' });
          res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
        });
      },
      async (url) => {
        const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN } });
        assert.equal(outcome.stderr, '');
        assert.deepEqual(JSON.parse(outcome.stdout).hookSpecificOutput.decision, { behavior: 'deny', message: 'from SSE' });
      },
    );
  });

  test('one round trip less: the call goes out before the initialized notification is answered, and the session close is not waited for', async () => {
    let called = false;
    let heldNote: (() => void) | undefined;
    let deleted = false;
    await withServer(
      (req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          // The session's close is never answered: the hook must not wait for it.
          if (req.method === 'DELETE') return void (deleted = true);
          const message = JSON.parse(body) as { id?: number; method: string };
          // The notification is answered only once the call has arrived.
          if (message.id === undefined) return called ? res.writeHead(202).end() : void (heldNote = () => res.writeHead(202).end());
          if (message.method === 'tools/call') {
            called = true;
            heldNote?.();
          }
          const result =
            message.method === 'initialize'
              ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }
              : { content: [{ type: 'text', text: '{"behavior":"deny","message":"in one round trip"}' }] };
          res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        });
      },
      async (url) => {
        const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN }, connectTimeoutMs: 60_000 });
        assert.equal(outcome.stderr, '');
        assert.deepEqual(JSON.parse(outcome.stdout).hookSpecificOutput.decision, { behavior: 'deny', message: 'in one round trip' });
        // The close was still sent, so the endpoint frees the session.
        await until(() => deleted);
      },
    );
  });

  test('prevents running a rewritten command: an endpoint answering allow with another input than the one asked about gives no decision', async () => {
    const answer = (text: string) =>
      withServer(
        (req, res) => {
          let body = '';
          req.on('data', (c) => (body += c));
          req.on('end', () => {
            const message = body ? (JSON.parse(body) as { id?: number; method: string }) : undefined;
            if (req.method === 'DELETE' || message?.id === undefined) return res.writeHead(202).end();
            const result =
              message.method === 'initialize'
                ? { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } }
                : { content: [{ type: 'text', text }] };
            res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'abc' });
            res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
          });
        },
        async (url) => {
          const outcome = await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN } });
          outcomes.push(outcome);
        },
      );
    // The decide route answering the same: one request, no session.
    const decideAnswers = (text: string) =>
      withServer(
        (req, res) => res.writeHead(500).end(),
        async (url) => void outcomes.push(await run({ env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN } })),
        (req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(text)),
      );
    const outcomes: Array<Awaited<ReturnType<typeof runHook>>> = [];
    const rewritten = { ...CLAUDE_BASH_INPUT.tool_input, command: 'touch pwned && echo done' };
    await answer(JSON.stringify({ behavior: 'allow', updatedInput: rewritten }));
    await answer(JSON.stringify({ behavior: 'allow', updatedInput: { ...CLAUDE_BASH_INPUT.tool_input, extra: true } }));
    await decideAnswers(JSON.stringify({ behavior: 'allow', updatedInput: rewritten }));
    await decideAnswers(JSON.stringify({ behavior: 'allow', updatedInput: { ...CLAUDE_BASH_INPUT.tool_input, extra: true } }));
    assert.equal(outcomes.length, 4);
    for (const outcome of outcomes) {
      assert.deepEqual([outcome.exitCode, outcome.stdout], [1, ''], 'no decision printed');
      assert.match(outcome.stderr, /answered allow with an input other than the one asked about/);
    }
    // The input it sent, in another key order, is the same input.
    const reordered = Object.fromEntries(Object.entries(CLAUDE_BASH_INPUT.tool_input).reverse());
    outcomes.length = 0;
    await answer(JSON.stringify({ behavior: 'allow', updatedInput: reordered }));
    assert.equal(JSON.parse(outcomes[0]!.stdout).hookSpecificOutput.decision.behavior, 'allow');
  });

  test('prevents a stack trace on hostile input: 200,000-deep input fails closed with one line and no decision', async () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const stdin = JSON.stringify(CLAUDE_BASH_INPUT).replace('"Create the marker file"', `"Create the marker file","deep":${deep}`);
    const outcome = await run({ stdin, env: { AGENT_QUESTIONS_MCP_URL: 'http://127.0.0.1:9/mcp', AGENT_QUESTIONS_MCP_TOKEN: TOKEN } });
    assert.deepEqual([outcome.exitCode, outcome.stdout], [1, '']);
    assert.equal(outcome.stderr, 'Agent Questions hook: the hook input is nested deeper than 64 levels; Claude Code asks you itself.\n');
  });

  test('an unknown agent or input that is not JSON gives no decision', async () => {
    const unknown = await runHook({ args: ['cursor'], stdin: '{}', env: {}, signal: new AbortController().signal });
    assert.equal(unknown.exitCode, 1);
    assert.match(unknown.stderr, /unknown agent "cursor"; usage: node approvalHook\.js <claude-code/);
    const garbage = await run({ stdin: 'not json', env: {} });
    assert.deepEqual([garbage.exitCode, garbage.stdout], [1, '']);
    assert.match(garbage.stderr, /not JSON/);
  });

  test('the shipped command: the agent stopping it (SIGTERM) settles the waiting request as cancelled by the asker', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const settled: string[] = [];
      const decidedBy: unknown[] = [];
      broker.onDidChange((change) => {
        if (change.type === 'settled') settled.push(change.response.status);
        if (change.type === 'settled') decidedBy.push(change.decidedBy);
      });
      const child = spawn(process.execPath, [HOOK_SCRIPT, 'claude-code'], {
        env: { PATH: process.env.PATH, AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => (stdout += c));
      child.stderr.on('data', (c) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.stdin.end(JSON.stringify(CLAUDE_BASH_INPUT));
      await until(() => broker.size === 1);
      child.kill('SIGTERM');
      assert.equal(await exited, 1);
      await until(() => settled.length === 1);
      assert.deepEqual(settled, ['cancelled']);
      assert.deepEqual(decidedBy, [{ by: 'asker' }]);
      assert.equal(stdout, '');
      assert.match(stderr, /^Agent Questions hook: the agent stopped waiting; Claude Code asks you itself\.\n$/);
    });
  });

  test('the shipped command: the agent dying without a signal (its parent exits) settles the request as cancelled', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const settled: string[] = [];
      broker.onDidChange((change) => {
        if (change.type === 'settled') settled.push(change.response.status);
      });
      // The shell stands for the agent; "; exit" keeps it from exec-ing node in its place.
      const agent = spawn('sh', ['-c', `"${process.execPath}" "${HOOK_SCRIPT}" claude-code; exit $?`], {
        env: { PATH: process.env.PATH, AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      agent.stdin.end(JSON.stringify(CLAUDE_BASH_INPUT));
      await until(() => broker.size === 1);
      agent.kill('SIGKILL');
      for (let i = 0; i < 30 && settled.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(settled, ['cancelled']);
    });
  });

  test('the shipped command prints the decision on stdout and exits 0', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const child = spawn(process.execPath, [HOOK_SCRIPT, 'claude-code'], {
        env: { PATH: process.env.PATH, AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (c) => (stdout += c));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.stdin.end(JSON.stringify(CLAUDE_BASH_INPUT));
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'allow_once', { by: 'user', where: 'panel' });
      assert.equal(await exited, 0);
      assert.equal(JSON.parse(stdout).hookSpecificOutput.decision.behavior, 'allow');
    });
  });
});
