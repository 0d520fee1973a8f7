// The decide route (issue 44, item 3): our hook commands' one-request path, answered with the
// approve tool's decision when a remembered rule or the policy decides, 204 when a person must be
// asked. Guarded like the MCP endpoint it sits on: the token, loopback Host, no browser origins, bodies.
import * as assert from 'node:assert/strict';
import type { QuestionBroker } from '../../../src/broker/broker';
import type { DecidedBy } from '../../../src/broker/contract/schemas';
import { DECIDE_PATH } from '../../../src/mcp/mcpEndpoint';
import { post, TOKEN, withEndpoint } from '../helpers/mcpHelpers';

const CLIENT = { name: 'agent-questions-hook:claude-code', title: 'Claude Code', version: '1' };
const BASH = (command: string) => ({ tool_name: 'Bash', input: { command }, cwd: '/home/dev/project', confinement: 'unsandboxed' });
const ALWAYS_GIT_LOG = { key: 'cmd:git log', value: true, label: 'git log …', description: 'test' };
/** How many requests have settled so far: nothing may be decided on a refused request. */
function settledCount(broker: QuestionBroker): () => number {
  let settled = 0;
  broker.onDidChange((change) => change.type === 'settled' && settled++);
  return () => settled;
}
const decideUrl = (mcpUrl: string) => new URL(DECIDE_PATH, mcpUrl).href;

suite('the decide route', () => {
  test('a command a remembered rule allows is answered in one request: allow with the input, no session opened, nothing queued, recorded as decided by the rule', async () => {
    await withEndpoint(async ({ broker, endpoint, policy }) => {
      await policy.permissions.remember(ALWAYS_GIT_LOG, 'test');
      const decidedBy: DecidedBy[] = [];
      broker.onDidChange((change) => change.type === 'settled' && decidedBy.push(change.decidedBy));
      const response = await post(decideUrl(endpoint.url), { client: CLIENT, arguments: BASH('git log --oneline -5') });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { behavior: 'allow', updatedInput: { command: 'git log --oneline -5' } });
      assert.deepEqual([endpoint.sessions().length, broker.size], [0, 0]);
      assert.equal(decidedBy.length, 1);
      assert.equal(decidedBy[0]!.by, 'rule');
    });
  });

  test('a command no rule decides, and a question, are left to a person: 204, nothing queued, nothing recorded', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const settled = settledCount(broker);
      const command = await post(decideUrl(endpoint.url), { client: CLIENT, arguments: BASH('rm -rf build') });
      const question = await post(decideUrl(endpoint.url), {
        client: CLIENT,
        arguments: { tool_name: 'AskUserQuestion', input: { questions: [{ question: 'Which?', header: 'H', options: [{ label: 'A' }, { label: 'B' }], multiSelect: false }] } },
      });
      assert.deepEqual([command.status, await command.text(), question.status], [204, '', 204]);
      assert.deepEqual([broker.size, settled(), endpoint.sessions().length], [0, 0, 0]);
    });
  });

  test('prevents deciding without the token: no token and a wrong token are refused 401, and the rule is never consulted', async () => {
    await withEndpoint(async ({ broker, endpoint, policy }) => {
      await policy.permissions.remember(ALWAYS_GIT_LOG, 'test');
      const settled = settledCount(broker);
      const body = { client: CLIENT, arguments: BASH('git log') };
      for (const authorization of ['', 'Bearer wrong-token', TOKEN]) {
        const response = await post(decideUrl(endpoint.url), body, { authorization });
        assert.equal(response.status, 401, authorization);
        assert.match(((await response.json()) as { error: { message: string } }).error.message, /Missing or wrong bearer token/);
      }
      assert.equal(settled(), 0);
    });
  });

  test('prevents a web page or a name that resolves elsewhere from asking: a browser Origin and a Host other than the loopback address are refused 403', async () => {
    await withEndpoint(async ({ broker, endpoint, policy }) => {
      await policy.permissions.remember(ALWAYS_GIT_LOG, 'test');
      const settled = settledCount(broker);
      const body = { client: CLIENT, arguments: BASH('git log') };
      const fromPage = await post(decideUrl(endpoint.url), body, { origin: 'http://evil.example' });
      // fetch will not forge Host; a raw request can.
      const { request } = await import('node:http');
      const rebound = await new Promise<number>((resolve, reject) => {
        const headers = { host: `192.168.1.5:${endpoint.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
        const req = request(decideUrl(endpoint.url), { method: 'POST', headers }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
      assert.deepEqual([fromPage.status, rebound], [403, 403]);
      assert.equal(settled(), 0);
      // It listens on the loopback interface only.
      assert.equal(new URL(endpoint.url).hostname, '127.0.0.1');
    });
  });

  test('prevents a malformed decide request from being guessed at: each is refused 400 with what was expected, and nothing is decided', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const settled = settledCount(broker);
      const cases: Array<[unknown, RegExp]> = [
        ['{"client":', /not JSON/],
        [[{ client: CLIENT, arguments: BASH('ls') }], /Expected \{ "client"/],
        [{ arguments: BASH('ls') }, /Expected \{ "client"/],
        [{ client: { title: 'no name' }, arguments: BASH('ls') }, /Expected \{ "client"/],
        [{ client: CLIENT, arguments: 'ls' }, /Expected \{ "client"/],
        [{ client: CLIENT, arguments: { tool_name: 'Bash', input: { command: 'ls' }, deep: JSON.parse(`${'['.repeat(100)}${']'.repeat(100)}`) } }, /nested deeper than 64/],
      ];
      for (const [body, message] of cases) {
        const response = await post(decideUrl(endpoint.url), body);
        assert.equal(response.status, 400, JSON.stringify(body).slice(0, 60));
        assert.match(((await response.json()) as { error: { message: string } }).error.message, message);
      }
      // Arguments the approve tool cannot read are denied, as the tool denies them.
      const invalid = await post(decideUrl(endpoint.url), { client: CLIENT, arguments: { tool_name: 'Bash' } });
      assert.equal(((await invalid.json()) as { behavior: string }).behavior, 'deny');
      assert.equal(settled(), 0);
      const get = await fetch(decideUrl(endpoint.url), { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(get.status, 405);
    });
  });
});
