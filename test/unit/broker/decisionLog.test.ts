// The decision log: one JSON object per line, oldest first, with who decided; secrets only as handles.
import * as assert from 'node:assert/strict';
import { decisionLog } from '../../../src/broker/decisionLog';
import { History, type HistoryEntry } from '../../../src/broker/history';
import type { NewQuestionRequest } from '../../../src/broker/broker';
import { makeBroker, MemoryStore } from '../helpers/fakes';

const SECRET_AND_CHOICE: NewQuestionRequest = {
  source: { type: 'mcp', label: 'Codex', via: 'MCP client · name self-reported · token abc123', way: 'MCP client' },
  questions: [
    { id: 'key', header: 'API key', question: 'Key?', kind: 'secret', options: [], allowOther: false, envVar: 'OPENAI_API_KEY' },
    { id: 'db', header: 'Database', question: 'Which?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true },
  ],
};
const CANARY = 'sk-canary-decision-log-5e4d';

suite('decision log', () => {
  test('one line per settled request, oldest first, each a JSON object with ISO times and who decided', async () => {
    const { broker } = makeBroker();
    const history = new History(new MemoryStore(), () => 100);
    broker.onDidChange((c) => c.type === 'settled' && history.record(c));
    const first = broker.ask(SECRET_AND_CHOICE);
    broker.reject('r1', { by: 'user', where: 'queue' }, 'busy');
    await first;
    const second = broker.requestPermission({ source: { type: 'extension', label: 'Extension a.b' }, title: 'Run tests?', detail: 'npm test' });
    broker.decide('r2', 'allow_once', { by: 'extension' });
    await second;

    const text = decisionLog(history.list());
    assert.ok(text.endsWith('\n'));
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    const [older, newer] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual([older!.requestId, newer!.requestId], ['r1', 'r2']);
    assert.deepEqual(older, {
      settledAt: new Date(history.list()[1]!.settledAt).toISOString(),
      createdAt: new Date(history.list()[1]!.createdAt).toISOString(),
      requestId: 'r1',
      kind: 'questions',
      status: 'rejected',
      decidedBy: { by: 'user', where: 'queue' },
      source: SECRET_AND_CHOICE.source,
      summary: 'API key, Database',
      questions: [
        { id: 'key', header: 'API key', question: 'Key?', kind: 'secret' },
        { id: 'db', header: 'Database', question: 'Which?', kind: 'single' },
      ],
      reason: 'busy',
    });
    assert.deepEqual([newer!.decision, newer!.decidedBy, newer!.summary], ['allow_once', { by: 'extension' }, 'Run tests?']);
    assert.equal(decisionLog([]), '');
  });

  test('prevents a secret from reaching the exported log: a value planted in a stored entry is written as its handle only', () => {
    // A corrupted or hand-edited store: the log redacts again rather than trusting the history.
    const planted: HistoryEntry = {
      requestId: 'r1',
      kind: 'questions',
      source: { type: 'tool', label: 'Chat' },
      summary: 'API key, Database',
      createdAt: 1,
      settledAt: 2,
      status: 'answered',
      decidedBy: { by: 'user', where: 'panel' },
      questions: [
        { id: 'key', header: 'API key', question: 'Key?', kind: 'secret' },
        { id: 'db', header: 'Database', question: 'Which?', kind: 'single' },
      ],
      answers: {
        key: { selected: [CANARY], other: CANARY, note: CANARY, value: CANARY, skipped: false, secret: { stored: true, envVar: 'OPENAI_API_KEY' } },
        db: { selected: ['A'], skipped: false, value: CANARY, images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'shot.png' }] },
      },
    };
    const text = decisionLog([planted]);
    assert.equal(text.includes(CANARY), false);
    assert.equal(text.includes('iVBORw0KGgo'), false, 'no image bytes');
    const line = JSON.parse(text) as { answers: Record<string, unknown> };
    assert.deepEqual(line.answers.key, { selected: [], skipped: false, secret: { stored: true, envVar: 'OPENAI_API_KEY' } });
    assert.deepEqual(line.answers.db, { selected: ['A'], skipped: false, images: [{ mimeType: 'image/png', name: 'shot.png', data: '' }] });
  });
});
