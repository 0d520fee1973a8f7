// Who decided: every way a request settles records it, in the broker's change and in the history;
// the response the asker reads never carries it.
import * as assert from 'node:assert/strict';
import type { BrokerChange, NewPermissionRequest } from '../../../src/broker/broker';
import { askPermission, askQuestions, type Policy } from '../../../src/broker/askWithPolicy';
import { History } from '../../../src/broker/history';
import type { DecidedBy } from '../../../src/broker/contract/schemas';
import { HistoryEntrySchema } from '../../../src/broker/contract/schemas';
import { memoryStore, RememberedPermissions, type SettingsRules } from '../../../src/broker/permissions/rememberedPermissions';
import type { CommandRules } from '../../../src/broker/permissions/shell/commandRules';
import { displayToolCall } from '../../../src/broker/permissions/toolCallDisplay';
import { cancellation, DB_QUESTION, loadTestChecker, makeBroker, makePolicy, MemoryStore } from '../helpers/fakes';

const WORKSPACE = '/home/dev/project';
const ANSWER = { db: { selected: ['B'], skipped: false } };

function bash(command: string): NewPermissionRequest {
  const shown = displayToolCall('Bash', { command }, [WORKSPACE]);
  assert.ok(shown.ok);
  return { source: { type: 'mcp', label: 'Claude Code' }, title: 'Claude Code wants to use Bash', detail: '', toolCall: shown.toolCall };
}

function setup() {
  const { broker } = makeBroker();
  const history = new History(new MemoryStore(), () => 100);
  const decided: DecidedBy[] = [];
  broker.onDidChange((change: BrokerChange) => {
    if (change.type !== 'settled') return;
    decided.push(change.decidedBy);
    history.record(change);
  });
  return { broker, history, decided };
}

/** A policy whose rules come from settings too: the user's own, the workspace's deny entries, VS Code's terminal rules. */
function policyWith(user: CommandRules = {}, workspaceDeny: CommandRules = {}, terminal: CommandRules = {}): Policy {
  const settings: SettingsRules = { user: () => user, workspaceDeny: () => workspaceDeny, terminal: () => terminal, setUser: async () => undefined };
  const stores = { session: memoryStore(), workspace: memoryStore(), user: memoryStore() };
  const permissions = new RememberedPermissions(stores, { settings, loadChecker: loadTestChecker, workspaceFolders: () => [WORKSPACE] });
  return { route: () => ({ kind: 'ask' }), loadAnswersFile: () => Promise.resolve({ ok: true, entries: {} }), permissions };
}

suite('who decided', () => {
  test('a reply from the panel is the user in the panel, in the change and the history, never in the response', async () => {
    const { broker, history, decided } = setup();
    const pending = broker.ask(DB_QUESTION);
    assert.equal(broker.reply('r1', ANSWER, { by: 'user', where: 'panel' }), true);
    const response = await pending;
    assert.deepEqual(decided, [{ by: 'user', where: 'panel' }]);
    assert.deepEqual(history.list()[0]!.decidedBy, { by: 'user', where: 'panel' });
    assert.equal('decidedBy' in response, false, 'what the asker reads is unchanged');
    assert.ok(HistoryEntrySchema.safeParse(history.list()[0]).success, 'the entry crosses to the panel');
  });

  test('the answer page, a notification, the Queue and an extension each say so', async () => {
    const { broker, decided } = setup();
    void broker.ask(DB_QUESTION);
    void broker.requestPermission({ source: { type: 'extension', label: 'Extension a.b' }, title: 'Run tests?', detail: 'npm test' });
    void broker.ask(DB_QUESTION);
    void broker.ask(DB_QUESTION);
    broker.reply('r1', ANSWER, { by: 'user', where: 'page' });
    broker.decide('r2', 'allow_once', { by: 'extension' });
    broker.reject('r3', { by: 'user', where: 'notification' }, 'not now');
    broker.reject('r4', { by: 'user', where: 'queue' });
    assert.deepEqual(decided, [{ by: 'user', where: 'page' }, { by: 'extension' }, { by: 'user', where: 'notification' }, { by: 'user', where: 'queue' }]);
  });

  test('an ignored reply records nothing: only the answer that settles is recorded', async () => {
    const { broker, decided } = setup();
    const pending = broker.ask(DB_QUESTION);
    assert.equal(broker.reply('r1', { db: { selected: ['Z'], skipped: false } }, { by: 'user', where: 'page' }), false);
    assert.equal(broker.reply('r1', ANSWER, { by: 'user', where: 'panel' }), true);
    assert.equal(broker.reply('r1', ANSWER, { by: 'user', where: 'page' }), false);
    await pending;
    assert.deepEqual(decided, [{ by: 'user', where: 'panel' }]);
  });

  test('a remembered rule: its text, origin and scope', async () => {
    const { broker, history, decided } = setup();
    const policy = policyWith();
    const first = askPermission(broker, bash('npm test'), policy);
    await new Promise<void>((resolve) => {
      const wait = () => (broker.size === 1 ? resolve() : setTimeout(wait, 5));
      wait();
    });
    const request = broker.list()[0]!;
    assert.ok(request.kind === 'permission' && request.rememberOptions?.[0]);
    const option = request.rememberOptions[0];
    broker.decide(request.id, 'allow_always', { by: 'user', where: 'panel' }, undefined, option.key, 'session');
    await first;
    const second = await askPermission(broker, bash('npm test'), policy);
    assert.equal(second.decision, 'allow_always');
    assert.equal('decidedBy' in second, false);
    assert.deepEqual(decided, [
      { by: 'user', where: 'panel' },
      { by: 'rule', rules: [{ text: option.label, origin: 'remembered', scope: 'session' }] },
    ]);
    assert.deepEqual(history.list()[0]!.decidedBy, decided[1]);
  });

  test("hand-written rules: the user's settings, the workspace's deny entries, VS Code's terminal rules, each part of a line by its own", async () => {
    const { broker, decided } = setup();
    const policy = policyWith({ 'npm test': true }, { 'rm -rf': false }, { 'git status': true });
    assert.equal((await askPermission(broker, bash('npm test'), policy)).decision, 'allow_always');
    assert.equal((await askPermission(broker, bash('rm -rf build'), policy)).decision, 'deny');
    assert.equal((await askPermission(broker, bash('git status && npm test'), policy)).decision, 'allow_always');
    assert.deepEqual(decided, [
      { by: 'rule', rules: [{ text: 'npm test', origin: 'userSettings' }] },
      { by: 'rule', rules: [{ text: 'rm -rf', origin: 'workspaceSettings' }] },
      {
        by: 'rule',
        rules: [
          { text: 'git status', origin: 'terminalSettings' },
          { text: 'npm test', origin: 'userSettings' },
        ],
      },
    ]);
  });

  test('scripted answers are the answers file, also when they do not fit', async () => {
    const { broker, decided } = setup();
    const fits = makePolicy({ kind: 'script' }, { ok: true, entries: { db: 'A' } });
    assert.equal((await askQuestions(broker, DB_QUESTION, fits)).status, 'answered');
    const missing = makePolicy({ kind: 'script' }, { ok: true, entries: {} });
    assert.equal((await askQuestions(broker, DB_QUESTION, missing)).status, 'unavailable');
    const broken = makePolicy({ kind: 'script' }, { ok: false, error: 'not JSON' });
    assert.equal((await askQuestions(broker, DB_QUESTION, broken)).status, 'unavailable');
    assert.deepEqual(decided, [{ by: 'answersFile' }, { by: 'answersFile' }, { by: 'answersFile' }]);
  });

  test('no one to ask: the mode or the unattended setting, for questions and permissions (answersFile mode refuses permissions)', async () => {
    const { broker, decided } = setup();
    await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'unavailable', reason: 'off', setting: 'mode' }));
    await askQuestions(broker, DB_QUESTION, makePolicy({ kind: 'unavailable', reason: 'unattended', setting: 'unattended' }));
    await askPermission(broker, bash('npm test'), makePolicy({ kind: 'unavailable', reason: 'unattended', setting: 'unattended' }));
    await askPermission(broker, bash('npm test'), makePolicy({ kind: 'script' }));
    assert.deepEqual(decided, [
      { by: 'policy', setting: 'mode' },
      { by: 'policy', setting: 'unattended' },
      { by: 'policy', setting: 'unattended' },
      { by: 'policy', setting: 'mode' },
    ]);
  });

  test('a timeout records how long it waited', async () => {
    const { broker, history } = setup();
    const response = await broker.ask(DB_QUESTION, { timeoutMs: 20 });
    assert.equal(response.status, 'timed_out');
    assert.deepEqual(history.list()[0]!.decidedBy, { by: 'timeout', afterSeconds: 0 });
    const long = broker.ask(DB_QUESTION, { timeoutMs: 300_000 });
    broker.reply('r2', ANSWER, { by: 'user', where: 'panel' });
    await long;
    assert.deepEqual(history.list()[0]!.decidedBy, { by: 'user', where: 'panel' }, 'answered before its timeout: the user decided');
  });

  test("the asker's cancellation is the asker, unless it says the user answered in the agent's own prompt", async () => {
    const { broker, decided } = setup();
    const stop = cancellation();
    const stopped = broker.ask(DB_QUESTION, { token: stop });
    stop.cancel();
    assert.equal((await stopped).status, 'cancelled');
    const elsewhere = cancellation();
    const answered = broker.requestPermission(bash('npm test'), { token: elsewhere, cancelledBy: () => ({ by: 'user', where: 'agent' }) });
    elsewhere.cancel();
    assert.equal((await answered).status, 'cancelled');
    const early = cancellation();
    early.cancel();
    await broker.ask(DB_QUESTION, { token: early });
    assert.deepEqual(decided, [{ by: 'asker' }, { by: 'user', where: 'agent' }, { by: 'asker' }]);
  });

  test('shutdown settles what waits as shut down', async () => {
    const { broker, decided } = setup();
    const a = broker.ask(DB_QUESTION);
    const b = broker.requestPermission(bash('npm test'));
    broker.dispose();
    assert.deepEqual(
      (await Promise.all([a, b])).map((r) => r.status),
      ['cancelled', 'cancelled'],
    );
    assert.deepEqual(decided, [{ by: 'shutdown' }, { by: 'shutdown' }]);
  });

  test('an entry recorded before who-decided existed still loads and crosses to the panel', () => {
    const store = new MemoryStore();
    const old = { requestId: 'r9', kind: 'questions', source: { type: 'tool', label: 'Chat' }, summary: 'Database', createdAt: 1, settledAt: 2, status: 'answered' };
    void store.update('agentQuestions.history', [old]);
    const history = new History(store, () => 10);
    assert.equal(history.list()[0]!.decidedBy, undefined);
    assert.ok(HistoryEntrySchema.safeParse(history.list()[0]).success);
  });
});
