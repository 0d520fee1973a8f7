// Rules that end: a rule chosen for a day or a week (or, from tests, a minute) decides until then, with
// the injected clock, and nothing after; its end survives a reload; an end that is not a time ends it
// at once, with one log line and no crash; the decision log names the rule that allowed.
import * as assert from 'node:assert/strict';
import type { BrokerChange, NewPermissionRequest } from '../../../../src/broker/broker';
import { askPermission, type Policy } from '../../../../src/broker/askWithPolicy';
import { PanelToHostSchema } from '../../../../src/broker/contract/protocol';
import { RULE_LIFETIMES, type DecidedBy } from '../../../../src/broker/contract/schemas';
import { memoryStore, RememberedPermissions, type RuleStores } from '../../../../src/broker/permissions/rememberedPermissions';
import { displayToolCall } from '../../../../src/broker/permissions/toolCallDisplay';
import { loadTestChecker, makeBroker } from '../../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const MINUTE = 60_000;
const KEY = 'agentQuestions.permissionRules.v2';

function bash(command: string): NewPermissionRequest {
  const shown = displayToolCall('Bash', { command }, [WORKSPACE]);
  assert.ok(shown.ok);
  return { source: { type: 'mcp', label: 'Claude Code' }, title: 'Claude Code wants to use Bash', detail: '', toolCall: shown.toolCall };
}

function setup(stores: RuleStores = { session: memoryStore(), workspace: memoryStore(), user: memoryStore() }) {
  const clock = { now: 1_000_000 };
  const logs: string[] = [];
  const permissions = new RememberedPermissions(stores, { loadChecker: loadTestChecker, workspaceFolders: () => [WORKSPACE], now: () => clock.now, log: (m) => logs.push(m) });
  const policy: Policy = { route: () => ({ kind: 'ask' }), loadAnswersFile: () => Promise.resolve({ ok: true, entries: {} }), permissions };
  const { broker } = makeBroker();
  const decided: DecidedBy[] = [];
  broker.onDidChange((change: BrokerChange) => void (change.type === 'settled' && decided.push(change.decidedBy)));
  return { stores, clock, logs, permissions, policy, broker, decided };
}

/** Asks for `command`; when it waits, the user picks "Always allow" with its first rule in this workspace, ending after `minutes`. */
async function allowFor(t: ReturnType<typeof setup>, command: string, minutes: number): Promise<string> {
  let label = '';
  const response = askPermission(t.broker, bash(command), t.policy, {
    onQueued: (id) => {
      const request = t.broker.get(id);
      assert.ok(request?.kind === 'permission' && request.rememberOptions?.[0]);
      label = request.rememberOptions[0].label;
      t.broker.decide(id, 'allow_always', { by: 'user', where: 'panel' }, undefined, request.rememberOptions[0].key, 'workspace', minutes);
    },
  });
  assert.equal((await response).decision, 'allow_always');
  assert.equal('expiresAfterMinutes' in (await response), false, 'the response the asker reads keeps its shape');
  return label;
}

/** Remembers the first rule offered for `command`, with no end. */
async function allowForever(t: ReturnType<typeof setup>, command: string) {
  const option = (await t.permissions.decide(bash(command))).options[0];
  assert.ok(option);
  await t.permissions.remember(option, 'Claude Code');
  return option;
}

/** How `command` is decided now: allowed by a rule without asking, or asked (then denied). */
async function outcome(t: ReturnType<typeof setup>, command: string): Promise<'allowed' | 'asked'> {
  let asked = false;
  await askPermission(t.broker, bash(command), t.policy, {
    onQueued: (id) => {
      asked = true;
      t.broker.decide(id, 'deny', { by: 'user', where: 'panel' });
    },
  });
  return asked ? 'asked' : 'allowed';
}

suite('Rules that end', () => {
  test('a rule made to end after one minute allows until then, with the injected clock, and is asked again after it; the log names the rule', async () => {
    const t = setup();
    const label = await allowFor(t, 'npm test', 1);
    const [rule] = t.permissions.list();
    assert.equal(rule?.expiresAt, 1_000_000 + MINUTE);
    t.clock.now += MINUTE - 1;
    assert.equal(await outcome(t, 'npm test'), 'allowed');
    assert.deepEqual(
      t.decided.at(-1),
      { by: 'rule', rules: [{ text: label, origin: 'remembered', scope: 'workspace' }] },
      'the decision log names the rule and where it came from',
    );
    t.clock.now += 1;
    assert.equal(await outcome(t, 'npm test'), 'asked');
    assert.deepEqual(t.permissions.list(), [], 'the ledger no longer lists it');
    assert.deepEqual(t.decided.at(-1), { by: 'user', where: 'panel' });
  });

  test('an ended rule is dropped from the store at the next write; a rule without an end stays', async () => {
    const t = setup();
    await allowFor(t, 'npm test', RULE_LIFETIMES.day);
    const forever = await allowForever(t, 'git status');
    t.clock.now += RULE_LIFETIMES.day * MINUTE;
    await t.permissions.forget('nothing');
    const saved = t.stores.workspace.get<Array<{ label: string }>>(KEY) ?? [];
    assert.deepEqual(
      saved.map((r) => r.label),
      [forever.label],
    );
  });

  test("a stored rule's end round-trips: a reload reads it and the rule ends at the same time", async () => {
    const t = setup();
    await allowFor(t, 'npm test', RULE_LIFETIMES.week);
    const reloaded = setup(t.stores);
    reloaded.clock.now = t.clock.now + RULE_LIFETIMES.week * MINUTE - 1;
    assert.equal(reloaded.permissions.list()[0]?.expiresAt, t.clock.now + RULE_LIFETIMES.week * MINUTE);
    assert.equal(await outcome(reloaded, 'npm test'), 'allowed');
    reloaded.clock.now += 1;
    assert.equal(await outcome(reloaded, 'npm test'), 'asked');
  });

  test('a malformed stored end drops that rule (asked again, never allowed forever) and is logged once, without its text; the others still decide', async () => {
    const t = setup();
    await allowFor(t, 'npm test', RULE_LIFETIMES.day);
    const good = await allowForever(t, 'git status');
    const saved = t.stores.workspace.get<Array<Record<string, unknown>>>(KEY) ?? [];
    await t.stores.workspace.update(
      KEY,
      saved.map((r) => (r.label === good.label ? r : { ...r, expiresAt: 'tomorrow' })),
    );
    assert.equal(await outcome(t, 'npm test'), 'asked');
    assert.equal(await outcome(t, 'npm test'), 'asked');
    assert.equal(await outcome(t, 'git status'), 'allowed');
    assert.deepEqual(
      t.permissions.list().map((r) => r.label),
      [good.label],
    );
    assert.equal(t.logs.length, 1, t.logs.join('\n'));
    assert.match(t.logs[0]!, /expiry is not a time/);
    assert.equal(t.logs[0]!.includes('npm'), false, 'the log does not carry the rule text');
  });

  test("prevents an end on a rule for all workspaces (its command rules live in settings, which never expire): the panel's message and the store refuse it", async () => {
    const decide = { type: 'decide', requestId: 'r1', decision: 'allow_always', rule: 'k' };
    assert.equal(PanelToHostSchema.safeParse({ ...decide, scope: 'workspace', expiresAfterMinutes: RULE_LIFETIMES.day }).success, true);
    assert.equal(PanelToHostSchema.safeParse({ ...decide, scope: 'user', expiresAfterMinutes: RULE_LIFETIMES.day }).success, false);
    assert.equal(PanelToHostSchema.safeParse({ ...decide, scope: 'workspace', expiresAfterMinutes: RULE_LIFETIMES.week + 1 }).success, false, 'a week at most');
    assert.equal(PanelToHostSchema.safeParse({ ...decide, scope: 'workspace', expiresAfterMinutes: 0 }).success, false);
    const t = setup();
    const option = (await t.permissions.decide(bash('npm test'))).options[0];
    assert.ok(option);
    await assert.rejects(t.permissions.remember(option, 'Claude Code', { scope: 'user', expiresAfterMinutes: 1 }), /all workspaces does not expire/);
    assert.deepEqual(t.permissions.list(), []);
  });
});
