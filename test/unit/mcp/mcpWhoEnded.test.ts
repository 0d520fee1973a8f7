// Issue 41: a call the endpoint ends is not recorded as the asker giving up. Turning the endpoint
// off says so; a hook that hands the decision back at its deadline says so.
import * as assert from 'node:assert/strict';
import { connect, callAsk, until, withEndpoint, post, INITIALIZE, TOKEN } from '../helpers/mcpHelpers';
import { HANDED_BACK_AT_DEADLINE } from '../../../src/broker/contract/wireNames';

suite('MCP endpoint: who ended a call', () => {
  test('prevents turning the endpoint off from being recorded as the asker cancelling: the waiting question is settled as shut down (the endpoint)', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const decidedBy: unknown[] = [];
      broker.onDidChange((change) => change.type === 'settled' && decidedBy.push(change.decidedBy));
      const client = await connect(endpoint.url);
      void callAsk(client).catch(() => undefined);
      await until(() => broker.size === 1);
      await endpoint.close();
      await until(() => decidedBy.length === 1);
      assert.deepEqual(decidedBy, [{ by: 'shutdown', part: 'endpoint' }]);
    });
  });

  test("a hook that hands its decision back at its deadline is recorded as such, not as the asker's plain cancel", async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const decidedBy: unknown[] = [];
      broker.onDidChange((change) => change.type === 'settled' && decidedBy.push(change.decidedBy));
      const opened = await post(endpoint.url, INITIALIZE);
      const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')! };
      await post(endpoint.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
      const call = post(
        endpoint.url,
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'touch marker' } } } },
        session,
      );
      await until(() => broker.size === 1);
      await post(endpoint.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: HANDED_BACK_AT_DEADLINE } }, session);
      await until(() => decidedBy.length === 1);
      assert.deepEqual(decidedBy, [{ by: 'asker', at: 'hookDeadline' }]);
      void call.catch(() => undefined);
      assert.ok(TOKEN);
    });
  });
});
