import * as assert from 'node:assert/strict';
import type { QuestionResponse } from '../../../../src/broker/contract/schemas';
import { LATER_WAITING_PER_GROUP, LATER_WAITING_PER_OWNER, LATER_WAITING_TOTAL, LaterAnswers } from '../../../../src/broker/questions/laterAnswers';
import { connect, TOKEN, type ToolResult, withEndpoint } from '../../helpers/mcpHelpers';

const LATER = { questions: [{ id: 'db', header: 'Database', question: 'Which database?', options: [{ label: 'PostgreSQL' }, { label: 'SQLite' }] }], wait: false };
const GROUP = 'mcp:token';
const ownerNamed = (name: string) => `${GROUP}:${name}`;
const names = (count: number, prefix = 'flood') => Array.from({ length: count }, (_, i) => `${prefix}-${i}`);

/** One process asking under each of `claimed` names until it is refused; returns how many places it took. */
function flood(store: LaterAnswers, claimed: readonly string[]): number {
  let taken = 0;
  for (const name of claimed)
    while (!store.refusal(ownerNamed(name), GROUP)) store.hold(ownerNamed(name), `${name}-${taken++}`, [], new Promise<QuestionResponse>(() => undefined), GROUP);
  return taken;
}

suite('wait: false places: one process cannot crowd out a second agent on its token', () => {
  test("prevents one process with four names from taking a second agent's wait: false place", () => {
    const store = new LaterAnswers({ keepMs: () => 60_000 });
    flood(store, names(4));
    assert.equal(store.refusal(ownerNamed('second-agent'), GROUP), undefined, 'the second agent, holding none, still asks');
  });

  test("one process takes at most its token's half however many names it claims, and other askers keep theirs", () => {
    const store = new LaterAnswers({ keepMs: () => 60_000 });
    assert.equal(flood(store, names(40)), LATER_WAITING_PER_GROUP);
    assert.equal(store.refusal('chat:a'), undefined, 'a chat in VS Code still asks');
    assert.equal(flood(store, names(40, 'more')), 0, 'more names on the same token get nothing');
    assert.ok(store.waitingCount <= LATER_WAITING_TOTAL);
  });

  test('an asker already holding places is told the last ones are kept for agents holding none, and what to do', () => {
    const store = new LaterAnswers({ keepMs: () => 60_000 });
    flood(store, names(4));
    const refused = store.refusal(ownerNamed('flood-3'), GROUP);
    assert.match(refused ?? '', /kept for agents of your token that have none waiting.*collect answers with get_answers.*or ask with wait: true/);
  });

  test("prevents one process with four names from taking a second agent's wait: false place (through the endpoint)", () =>
    withEndpoint(async ({ endpoint }) => {
      const flooders = await Promise.all(names(4).map((name) => connect(endpoint.url, TOKEN, name)));
      for (const flooder of flooders) for (let i = 0; i < LATER_WAITING_PER_OWNER; i++) await flooder.callTool({ name: 'ask_user', arguments: LATER });
      const second = await connect(endpoint.url, TOKEN, 'second-agent');
      const asked = (await second.callTool({ name: 'ask_user', arguments: LATER })) as ToolResult;
      assert.notEqual(asked.isError, true, asked.content[0]!.text);
      assert.match(asked.content[0]!.text, /"status":"waiting"/);
      await Promise.all([...flooders, second].map((c) => c.close()));
    }));
});
