// The hook command passes on the folder the agent runs the call in (issue 40, item 2): Claude Code's
// and Codex's `cwd`, the `cwd` the OpenCode plugin adds; '' when the input names none.
import * as assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOOK_AGENTS } from '../../../src/agents/hookRegistry';
import { runHook } from '../../../src/hook/runHook';

const BASH = { tool_name: 'Bash', tool_input: { command: 'cat .ssh/id_rsa' } };

/** A minimal endpoint: records the decide request's arguments (or the approve call's, in a session), answers allow. */
async function withRecordingEndpoint(body: (url: string, calls: Array<Record<string, unknown>>) => Promise<void>): Promise<void> {
  const calls: Array<Record<string, unknown>> = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST') return res.writeHead(200).end();
      if (req.url === '/mcp/decide') {
        const { arguments: args } = JSON.parse(text) as { arguments: Record<string, unknown> };
        calls.push(args);
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ behavior: 'allow', updatedInput: args['input'] }));
      }
      const message = JSON.parse(text) as { id?: number; method: string; params?: { arguments?: Record<string, unknown> } };
      if (message.id === undefined) return res.writeHead(202).end();
      let result: unknown = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'test', version: '1' } };
      if (message.method === 'tools/call') {
        calls.push(message.params!.arguments!);
        const input = message.params!.arguments!['input'];
        result = { content: [{ type: 'text', text: JSON.stringify({ behavior: 'allow', updatedInput: input }) }] };
      }
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, calls);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

suite('the hook passes on the folder the agent runs in', () => {
  test("prevents the agent's folder from being dropped: each agent's hook input gives its folder", () => {
    assert.equal(HOOK_AGENTS['claude-code'].folder({ hook_event_name: 'PermissionRequest', cwd: '/home/u', ...BASH }), '/home/u');
    assert.equal(HOOK_AGENTS.codex.folder({ hook_event_name: 'PermissionRequest', cwd: '/home/u/ws/sub', ...BASH }), '/home/u/ws/sub');
    assert.equal(HOOK_AGENTS.opencode.folder({ permission: 'bash', metadata: { command: 'ls' }, cwd: '/home/u/ws' }), '/home/u/ws');
    // An input without one (an older OpenCode plugin) says so: the folder is not known.
    assert.equal(HOOK_AGENTS.opencode.folder({ permission: 'bash', metadata: { command: 'ls' } }), '');
    assert.equal(HOOK_AGENTS['claude-code'].folder({ hook_event_name: 'PermissionRequest', cwd: 7, ...BASH }), '');
  });

  test("prevents the agent's folder from being dropped on the way: the approve call carries the hook input's cwd", async () => {
    await withRecordingEndpoint(async (url, calls) => {
      const env = { AGENT_QUESTIONS_MCP_URL: url, AGENT_QUESTIONS_MCP_TOKEN: 'token' };
      const signal = new AbortController().signal;
      const outcome = await runHook({ args: ['codex'], stdin: JSON.stringify({ hook_event_name: 'PermissionRequest', cwd: '/home/u', ...BASH }), env, signal });
      assert.equal(outcome.exitCode, 0, outcome.stderr);
      await runHook({ args: ['codex'], stdin: JSON.stringify({ hook_event_name: 'PermissionRequest', ...BASH }), env, signal });
      assert.deepEqual(
        calls.map((c) => c['cwd']),
        ['/home/u', ''],
      );
    });
  });
});
