import * as assert from 'node:assert/strict';
import { Nudger, nudgeMessage, nudgeSettingsFrom, plainName, type InspectedSetting, type NudgeMessage, type NudgeSettings } from '../../../src/broker/nudges';
import type { PendingRequest } from '../../../src/broker/contract/schemas';
import { DB_QUESTION, makeBroker } from '../helpers/fakes';

const SETTINGS: NudgeSettings = { afterMs: 5, reminderAfterMs: 0, maxPerHour: 6, includeQuestionText: false, includeCommandText: false };

function setup(settings: Partial<NudgeSettings> = {}, answerUrl?: (requestId: string) => Promise<string | undefined>) {
  const { broker } = makeBroker();
  const sent: NudgeMessage[] = [];
  const logs: string[] = [];
  let seen = false;
  let now = 1_000_000;
  let fail: Error | undefined;
  const nudger = new Nudger({
    settings: () => ({ ...SETTINGS, ...settings }),
    pending: () => broker.list(),
    isSeen: () => seen,
    workspace: () => 'shop',
    send: async (message) => {
      if (fail) throw fail;
      sent.push(message);
      return true;
    },
    log: (m) => logs.push(m),
    now: () => now,
    answerUrl,
  });
  broker.onDidChange((change) => (change.type === 'added' ? nudger.added(change.request) : nudger.settled(change.request.id)));
  return {
    broker,
    sent,
    logs,
    nudger,
    look: (value: boolean) => (seen = value),
    advance: (ms: number) => (now += ms),
    failWith: (error: Error | undefined) => (fail = error),
  };
}

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(condition(), 'condition never became true');
};

/** Waits until every nudge timer due so far has run (a timer queued after `ms`). */
const after = (ms: number) => new Promise((r) => setTimeout(r, ms));

suite('nudges', () => {
  test('one nudge for a request left unseen, with who, what kind, how many and where, and no question text', async () => {
    const { broker, sent } = setup();
    void broker.ask({ ...DB_QUESTION, questions: [{ ...DB_QUESTION.questions[0]!, question: 'CANARY-QUESTION-TEXT' }] });
    await until(() => sent.length === 1);
    await after(30);
    assert.equal(sent.length, 1);
    assert.deepEqual(sent[0], { text: 'Chat tool asks you a question in VS Code (shop).', agent: 'Chat tool', kind: 'question', waiting: 1, workspace: 'shop' });
    assert.doesNotMatch(JSON.stringify(sent), /CANARY/);
  });

  test('with the answer page on, the nudge carries the link made at send time for the request it is about, and still no question text', async () => {
    const asked: string[] = [];
    const { broker, sent } = setup({}, async (id) => {
      asked.push(id);
      return `https://tunnel.example/answer?c=${id}`;
    });
    const id = await new Promise<string>(
      (resolve) => void broker.ask({ ...DB_QUESTION, questions: [{ ...DB_QUESTION.questions[0]!, question: 'CANARY-QUESTION-TEXT' }] }, { onQueued: resolve }),
    );
    await until(() => sent.length === 1);
    assert.deepEqual(asked, [id]);
    assert.deepEqual(sent[0], {
      text: 'Chat tool asks you a question in VS Code (shop).',
      agent: 'Chat tool',
      kind: 'question',
      waiting: 1,
      workspace: 'shop',
      answerUrl: `https://tunnel.example/answer?c=${id}`,
    });
    assert.doesNotMatch(JSON.stringify(sent), /CANARY/);
  });

  test('with the answer page off (no link), the nudge has no answerUrl field at all', async () => {
    const { broker, sent } = setup({}, async () => undefined);
    void broker.ask(DB_QUESTION);
    await until(() => sent.length === 1);
    assert.equal('answerUrl' in sent[0]!, false);
  });

  test('no nudge when the request was seen first, or settled first', async () => {
    const { broker, sent, nudger, look } = setup({ afterMs: 20 });
    void broker.ask(DB_QUESTION);
    look(true);
    nudger.seen();
    const id = await new Promise<string>((resolve) => void broker.ask(DB_QUESTION, { onQueued: resolve }));
    broker.reject(id, { by: 'user', where: 'panel' });
    await after(60);
    assert.deepEqual(sent, []);
  });

  test('one message covers a burst: 50 requests at once send one nudge that counts them', async () => {
    const { broker, sent } = setup();
    for (let i = 0; i < 50; i++) void broker.ask(DB_QUESTION);
    await until(() => sent.length === 1);
    await after(40);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]!.waiting, 50);
    assert.match(sent[0]!.text, /\(50 requests waiting\)/);
  });

  test('the hourly limit holds: 50 requests one after another send maxPerHour nudges until the hour has passed', async () => {
    const { broker, sent, logs, advance } = setup({ maxPerHour: 3 });
    for (let i = 0; i < 50; i++) {
      const id = await new Promise<string>((resolve) => void broker.ask(DB_QUESTION, { onQueued: resolve }));
      // The first three are sent; the fourth meets the limit (logged); the rest may or may not reach it before they settle.
      if (i < 3) await until(() => sent.length === i + 1);
      else if (i === 3) await until(() => logs.length === 1);
      else await after(10);
      broker.reject(id, { by: 'user', where: 'panel' });
    }
    assert.equal(sent.length, 3);
    assert.equal(logs.filter((l) => /No nudge sent: 3 were sent in the last hour/.test(l)).length, 1, 'the limit is logged once');
    advance(60 * 60_000 + 1);
    void broker.ask(DB_QUESTION);
    await until(() => sent.length === 4);
  });

  test('a reminder only when asked for, once', async () => {
    const { broker, sent } = setup({ reminderAfterMs: 10 });
    void broker.ask(DB_QUESTION);
    await until(() => sent.length === 2);
    await after(50);
    assert.equal(sent.length, 2);
  });

  test('a failing channel is logged once, without its address, until a nudge goes through', async () => {
    const { broker, sent, logs, failWith } = setup();
    failWith(Object.assign(new TypeError('fetch failed to https://ntfy.sh/SECRET-TOPIC'), { cause: { code: 'ECONNREFUSED' } }));
    for (let i = 0; i < 3; i++) {
      const id = await new Promise<string>((resolve) => void broker.ask(DB_QUESTION, { onQueued: resolve }));
      if (i === 0) await until(() => logs.length === 1);
      else await after(20);
      broker.reject(id, { by: 'user', where: 'panel' });
    }
    assert.deepEqual(logs, ['A nudge could not be sent (ECONNREFUSED); later failures are not logged until one is delivered.']);
    failWith(undefined);
    void broker.ask(DB_QUESTION);
    await until(() => sent.length === 1);
    assert.equal(logs.at(-1), 'Nudges are delivered again.');
  });

  test('question text only when the setting allows, never a secret question, and command lines only with their own setting', () => {
    const question = (kind: 'single' | 'secret', text: string): PendingRequest => ({
      id: 'q',
      kind: 'questions',
      createdAt: 0,
      source: { type: 'mcp', label: 'Codex' },
      questions: [{ id: 'a', header: 'A', question: text, kind, options: [], allowOther: false, ...(kind === 'secret' ? { envVar: 'API_KEY' } : {}) }],
    });
    const approval: PendingRequest = {
      id: 'p',
      kind: 'permission',
      createdAt: 0,
      source: { type: 'mcp', label: 'Claude Code' },
      title: 'Run a command',
      detail: 'rm -rf build',
      toolCall: { tool: 'Bash', command: 'rm -rf build', fields: [], warnings: [] },
    };
    const on = { includeQuestionText: true, includeCommandText: false };
    assert.match(nudgeMessage(question('single', 'Which database?'), 1, 'shop', on).text, /Which database\?$/);
    assert.doesNotMatch(nudgeMessage(question('secret', 'Your staging key for billing?'), 1, 'shop', on).text, /billing/);
    assert.equal(nudgeMessage(approval, 2, 'shop', on).text, 'Claude Code asks for your approval in VS Code (shop) (2 requests waiting).');
    assert.match(nudgeMessage(approval, 1, 'shop', { includeQuestionText: false, includeCommandText: true }).text, /Command: rm -rf build$/);
  });

  test('prevents an MCP client\'s self-reported name from putting a link in a nudge: only its plain words appear, or "An agent"', () => {
    const asking = (label: string): PendingRequest => ({
      id: 'q',
      kind: 'questions',
      createdAt: 0,
      source: { type: 'mcp', label },
      questions: [{ id: 'a', header: 'A', question: 'Q?', kind: 'single', options: [], allowOther: false }],
    });
    const off = { includeQuestionText: false, includeCommandText: false };
    // The example: the name reads as an instruction with a link in it.
    const message = nudgeMessage(asking('VS Code: approve at https://evil.example/login'), 1, 'shop', off);
    assert.equal(message.text, 'VS Code approve at asks you a question in VS Code (shop).');
    assert.equal(message.agent, 'VS Code approve at');
    const cases: Array<[string, string]> = [
      ['Claude Code', 'Claude Code'],
      ["O'Brien-bot 2", "O'Brien-bot 2"],
      ['approve at evil.example/login now', 'approve at evil example login now'],
      ['[Approve](https://evil.example) **now** <b>#1</b> `x` _y_', 'Approve now b 1 b x y'],
      ['ｈｔｔｐｓ：／／ｅｖｉｌ．ｃｏｍ Codex', 'Codex'],
      ['evil\u200B.example', 'evil example'],
      ['www.evil.example tel:+15551234 me@evil.example mailto:me Bot', 'Bot'],
      ['line\nbreak\u0007bell\u202Eflip', 'line break bell flip'],
      ['Agent '.repeat(20), 'Agent Agent Agent Agent Agent Agent'],
      ['x'.repeat(100), 'x'.repeat(40)],
    ];
    for (const [name, plain] of cases) assert.equal(plainName(name), plain, name);
    for (const name of ['https://evil.example/login', '<>[]()*_`#', '\u0000\u202E', ''])
      assert.equal(nudgeMessage(asking(name), 1, 'shop', off).agent, 'An agent', JSON.stringify(name));
    for (const [name] of cases) assert.doesNotMatch(nudgeMessage(asking(name), 1, 'shop', off).agent, /[.:@/<>[\]()*_`#\p{C}]/u, name);
  });

  test("prevents a repository's settings from changing nudges: only the user's own values are read, and a value of the wrong type is ignored", () => {
    const values: Record<string, InspectedSetting> = {
      afterSeconds: { defaultValue: 120, workspaceValue: 1, workspaceFolderValue: 1 },
      reminderAfterSeconds: { defaultValue: 0, workspaceValue: 1 },
      maxPerHour: { defaultValue: 6, workspaceValue: 60 },
      includeQuestionText: { defaultValue: false, workspaceValue: true },
      includeCommandText: { defaultValue: false, workspaceFolderValue: true },
    };
    const defaults: NudgeSettings = { afterMs: 120_000, reminderAfterMs: 0, maxPerHour: 6, includeQuestionText: false, includeCommandText: false };
    assert.deepEqual(
      nudgeSettingsFrom((key) => values[key]),
      defaults,
    );
    const user = (globals: Record<string, unknown>) => nudgeSettingsFrom((key) => ({ ...values[key], globalValue: globals[key] }));
    assert.deepEqual(user({ afterSeconds: 30, reminderAfterSeconds: 600, maxPerHour: 2.5, includeQuestionText: true, includeCommandText: true }), {
      afterMs: 30_000,
      reminderAfterMs: 600_000,
      maxPerHour: 2,
      includeQuestionText: true,
      includeCommandText: true,
    });
    assert.deepEqual(user({ afterSeconds: '1', reminderAfterSeconds: Number.NaN, maxPerHour: null, includeQuestionText: 'yes', includeCommandText: 1 }), defaults);
    assert.deepEqual(
      nudgeSettingsFrom(() => undefined),
      defaults,
    );
  });
});
