// The hooks' one-request path (issue 44, item 3): a command a remembered rule allows is decided by
// the endpoint's decide route, with no MCP session; a person's decision still goes through one.
// Nothing fails open: a decide route that hangs, refuses the token or answers something that is not
// a decision leaves the call to the agent's own prompt (Claude Code) or hands it back (VS Code's agent).
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, type PathLike } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readReply } from '../../../src/hook/mcpApprove';
import { runHook } from '../../../src/hook/runHook';
import { runAgentHook } from '../../../src/hook/vscodeAgentRun';
import { EndpointDiscoveryFile } from '../../../src/mcp/endpointDiscoveryFile';
import { local, PROJECT } from '../helpers/agentHookInputs';
import { TOKEN, until, withEndpoint } from '../helpers/mcpHelpers';
import { ROOT } from '../helpers/repoRoot';
import { withServer } from '../helpers/localServer';

const CLAUDE_INPUT = (command: string) => ({ session_id: 's', cwd: PROJECT, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command } });
const TERMINAL = (command: string) => local('run_in_terminal', { command, explanation: 'e', goal: 'g', mode: 'sync' });
const ALWAYS_GIT_LOG = { key: 'cmd:git log', value: true, label: 'git log …', description: 'test' };
const LOCAL_ALLOW = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n';

/** Runs a shipped hook bundle with `input` on stdin. */
function runBundle(script: string, args: string[], env: Record<string, string | undefined>, input: unknown) {
  const child = spawn(process.execPath, [join(ROOT, 'dist', script), ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  child.stdin.end(JSON.stringify(input));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A scratch discovery folder naming `url` for PROJECT, as a VS Code window with the endpoint on writes it. */
async function withDiscovery(url: string, body: (env: Record<string, string>, home: string) => Promise<void>) {
  const home = mkdtempSync(join(tmpdir(), 'aq-decide-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
  try {
    new EndpointDiscoveryFile(env, home).write(url, TOKEN, [PROJECT], { warn: assert.fail });
    await body(env, home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Answers that are no decision: a hang, a refused token, a server error, garbage, a decision of another shape. */
const NOT_A_DECISION: Array<[string, (req: IncomingMessage, res: ServerResponse) => void, RegExp]> = [
  ['hangs', () => undefined, /did not answer within 0\.3 s/],
  ['401', (req, res) => void req.resume().on('end', () => res.writeHead(401).end()), /refused the token \(401\)/],
  ['500', (req, res) => void req.resume().on('end', () => res.writeHead(500).end()), /answered HTTP 500 to the decide request/],
  ['garbage', (req, res) => void req.resume().on('end', () => res.writeHead(200).end('allow')), /answered something other than a decision/],
  ['allow without input', (req, res) => void req.resume().on('end', () => res.writeHead(200).end('{"behavior":"allow"}')), /answered something other than a decision/],
];

suite("the hooks' one-request path", () => {
  test('the reply is read off the socket whole: its length said or in chunks; anything else is no reply', () => {
    const reply = (text: string) => readReply(Buffer.from(text));
    assert.deepEqual(reply('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n{"é"'), { status: 200, body: '{"é"' });
    assert.deepEqual(reply('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\n w!\r\n0\r\n\r\n'), { status: 200, body: 'hello w!' });
    assert.deepEqual(reply('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n'), { status: 204, body: '' });
    assert.equal(reply('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nab'), undefined, 'cut short');
    assert.equal(reply('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab'), undefined, 'a chunk size that is not hex');
    assert.equal(reply('allow'), undefined);
    // Before the server closes: only a reply whole by its own framing counts.
    const open = (text: string) => readReply(Buffer.from(text), false);
    assert.deepEqual(open('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), { status: 200, body: 'ok' });
    assert.deepEqual(open('HTTP/1.1 204 No Content\r\n\r\n'), { status: 204, body: '' });
    assert.equal(open('HTTP/1.1 200 OK\r\n\r\nok'), undefined, 'a body that ends when the server closes');
    assert.equal(open('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'), undefined, 'a chunk cut short');
    assert.equal(open('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n'), undefined, 'no last chunk yet');
    assert.deepEqual(reply('HTTP/1.1 200 OK\r\n\r\nok'), { status: 200, body: 'ok' }, 'closed: the body is what came');
  });

  test('a whole reply decides at once, though the server keeps its connection open', async () => {
    const decision = JSON.stringify({ behavior: 'allow', updatedInput: { command: 'git log' } });
    // Answers the decide request and never closes: the hook must not wait for the close.
    const sockets: Socket[] = [];
    const server = createNetServer((socket) => {
      sockets.push(socket);
      socket.once('data', () => socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${decision.length}\r\n\r\n${decision}`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const outcome = await runHook({
        args: ['claude-code'],
        stdin: JSON.stringify(CLAUDE_INPUT('git log')),
        env: { AGENT_QUESTIONS_MCP_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        signal: new AbortController().signal,
        // Far longer than a decision takes, far shorter than the test's limit: waiting for the close would end here.
        connectTimeoutMs: 20_000,
      });
      assert.deepEqual(JSON.parse(outcome.stdout).hookSpecificOutput.decision, { behavior: 'allow', updatedInput: { command: 'git log' } }, outcome.stderr);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  test('a command a remembered rule allows: both shipped hooks print allow, and the endpoint opens no session and queues nothing', async () => {
    await withEndpoint(async ({ broker, endpoint, policy, logs }) => {
      await policy.permissions.remember(ALWAYS_GIT_LOG, 'test');
      const claude = await runBundle(
        'approvalHook.js',
        ['claude-code'],
        { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        CLAUDE_INPUT('git log --oneline -5'),
      );
      assert.deepEqual(JSON.parse(claude.stdout).hookSpecificOutput.decision, { behavior: 'allow', updatedInput: { command: 'git log --oneline -5' } });
      await withDiscovery(endpoint.url, async (env) => {
        const vscode = await runBundle('vscodeAgentHook.js', ['86400'], env, TERMINAL('git log --oneline -5'));
        assert.deepEqual(vscode, { code: 0, stdout: LOCAL_ALLOW, stderr: '' });
      });
      assert.equal(broker.size, 0);
      assert.equal(logs.filter((line) => line.startsWith('MCP session opened')).length, 0, logs.join('\n'));
    });
  });

  test("prevents a long Claude Code transcript from holding up a rule's decision: the hook decides without reading it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aq-transcript-'));
    const transcript = join(dir, 'session.jsonl');
    const entry = { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_old', content: 'output\n'.repeat(200) }] } };
    writeFileSync(transcript, `${JSON.stringify(entry)}\n`.repeat(500));
    // Every file the hook opens, seen through the module it reads with.
    const fs = require('node:fs') as typeof import('node:fs');
    const openSync = fs.openSync;
    const opened: string[] = [];
    fs.openSync = ((path: PathLike, ...rest: Parameters<typeof openSync> extends [unknown, ...infer R] ? R : never) => {
      opened.push(String(path));
      return openSync(path, ...rest);
    }) as typeof openSync;
    try {
      await withEndpoint(async ({ broker, endpoint, policy }) => {
        await policy.permissions.remember(ALWAYS_GIT_LOG, 'test');
        const outcome = await runHook({
          args: ['claude-code'],
          stdin: JSON.stringify({ ...CLAUDE_INPUT('git log --oneline -5'), transcript_path: transcript }),
          env: { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
          signal: new AbortController().signal,
        });
        assert.deepEqual(JSON.parse(outcome.stdout).hookSpecificOutput.decision, { behavior: 'allow', updatedInput: { command: 'git log --oneline -5' } });
        assert.equal(broker.size, 0);
      });
      assert.deepEqual(
        opened.filter((path) => path === transcript),
        [],
      );
    } finally {
      fs.openSync = openSync;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a command no rule decides still waits in the panel through a session, and the answer comes back', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const outcome = runHook({
        args: ['claude-code'],
        stdin: JSON.stringify(CLAUDE_INPUT('rm -rf build')),
        env: { AGENT_QUESTIONS_MCP_URL: endpoint.url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
        signal: new AbortController().signal,
      });
      await until(() => broker.size === 1);
      broker.decide(broker.list()[0]!.id, 'deny', { by: 'user', where: 'panel' }, 'not now');
      assert.deepEqual(JSON.parse((await outcome).stdout).hookSpecificOutput.decision, { behavior: 'deny', message: 'not now' });
    });
  });

  for (const [what, decide, why] of NOT_A_DECISION) {
    test(`prevents a decide route that ${what === 'hangs' ? 'hangs' : `answers ${what}`} from running the command: Claude Code's hook gives no decision, VS Code's agent's hook hands it back`, async () => {
      await withServer(
        (req, res) => void res.writeHead(500).end(),
        async (url) => {
          const claude = await runHook({
            args: ['claude-code'],
            stdin: JSON.stringify(CLAUDE_INPUT('git log')),
            env: { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: TOKEN },
            signal: new AbortController().signal,
            connectTimeoutMs: 300,
          });
          assert.deepEqual([claude.exitCode, claude.stdout], [1, '']);
          assert.match(claude.stderr, why);
          await withDiscovery(url, async (env, home) => {
            const vscode = await runAgentHook({
              args: ['86400'],
              stdin: JSON.stringify(TERMINAL('git log')),
              env,
              home,
              signal: new AbortController().signal,
              connectTimeoutMs: 300,
            });
            const answer = JSON.parse(vscode.stdout).hookSpecificOutput;
            assert.equal(answer.permissionDecision, 'ask');
            assert.match(answer.permissionDecisionReason, why);
          });
        },
        decide,
      );
    });
  }
});
