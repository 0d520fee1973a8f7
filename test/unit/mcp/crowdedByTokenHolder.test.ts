import * as assert from 'node:assert/strict';
import { MAX_CONNECTIONS } from '../../../src/mcp/mcpEndpoint';
import { slowBodies } from '../../harness/slowBodies';
import { until } from '../../harness/deadline';
import { connect, TOKEN, withEndpoint } from '../helpers/mcpHelpers';

suite('MCP endpoint: a token holder crowding every connection', () => {
  test(`prevents a token holder's ${MAX_CONNECTIONS} slow bodies, each reopened the moment it is closed, from taking the place an agent's new connection was given: an agent connects and lists its tools 20 times of 20`, async function () {
    this.timeout(120_000);
    await withEndpoint(async ({ endpoint }) => {
      const crowd = slowBodies(endpoint.url, TOKEN, MAX_CONNECTIONS, 2000);
      try {
        await until('the crowd to hold every connection', () => crowd.open === MAX_CONNECTIONS);
        const failures: string[] = [];
        // The crowd refills what an agent's connection took at once: each connect finds the endpoint full.
        for (let i = 0; i < 20; i++) {
          try {
            const client = await connect(endpoint.url, TOKEN, `agent ${i}`);
            await client.listTools();
            await client.close();
          } catch (error) {
            failures.push(error instanceof Error ? error.message : String(error));
          }
        }
        assert.deepEqual(failures, [], `${20 - failures.length} of 20 agents connected; the crowd ended ${JSON.stringify(crowd.endings)}`);
      } finally {
        crowd.stop();
      }
    });
  });
});
