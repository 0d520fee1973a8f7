import * as assert from 'node:assert/strict';
import type { Question } from '../../../src/broker/contract/schemas';
import { describeDraft, emptyDraft, evaluateDraft, OTHER, skippedAnswer } from '../../../src/webview/drafts';

const single: Question = { id: 'db', header: 'Database', question: '?', kind: 'single', options: [{ label: 'A' }, { label: 'B', recommended: true }], allowOther: true };
const multi: Question = { id: 'x', header: 'Extras', question: '?', kind: 'multi', options: [{ label: 'A', recommended: true }, { label: 'B' }], allowOther: true };
const text: Question = { id: 't', header: 'Notes', question: '?', kind: 'text', options: [], allowOther: false };
const secret: Question = { id: 's', header: 'Key', question: '?', kind: 'secret', options: [], allowOther: false, envVar: 'API_KEY' };

suite('panel drafts', () => {
  test('recommended options start selected, as the schema promises', () => {
    assert.equal(emptyDraft(single).choice, 'B');
    assert.deepEqual(emptyDraft(multi).checked, ['A']);
    assert.deepEqual(evaluateDraft(single, emptyDraft(single)), { state: 'answered', answer: { selected: ['B'], skipped: false } });
  });

  test('"Other…" needs text, and its text goes to `other`, never into `selected`', () => {
    const draft = { ...emptyDraft(single), choice: OTHER };
    assert.equal(evaluateDraft(single, draft).state, 'incomplete');
    draft.other = '  MariaDB ';
    assert.deepEqual(evaluateDraft(single, draft), { state: 'answered', answer: { selected: [], other: 'MariaDB', skipped: false } });
    const many = { ...emptyDraft(multi), checked: ['B', OTHER, 'A'], other: 'C' };
    assert.deepEqual(evaluateDraft(multi, many), { state: 'answered', answer: { selected: ['A', 'B'], other: 'C', skipped: false } });
  });

  test('a note is a typed field on any kind', () => {
    const draft = { ...emptyDraft(text), text: 'hello', note: 'my note' };
    assert.deepEqual(evaluateDraft(text, draft), { state: 'answered', answer: { selected: ['hello'], note: 'my note', skipped: false } });
    assert.deepEqual(skippedAnswer({ ...emptyDraft(text), note: 'later' }), { selected: [], note: 'later', skipped: true });
  });

  test('unanswered questions and secrets', () => {
    assert.equal(evaluateDraft(text, emptyDraft(text)).state, 'unanswered');
    assert.equal(evaluateDraft(multi, { ...emptyDraft(multi), checked: [] }).state, 'unanswered');
    const typed = { ...emptyDraft(secret), secretTyped: true };
    assert.deepEqual(evaluateDraft(secret, typed), { state: 'answered', answer: { selected: [], skipped: false } });
    assert.equal(describeDraft(secret, evaluateDraft(secret, typed)), 'A value for API_KEY (hidden)');
    assert.equal(describeDraft(text, evaluateDraft(text, emptyDraft(text))), 'Unanswered: will be sent as skipped');
  });
});

suite('secret drafts', () => {
  const secretQ: Question = { id: 's', header: 'Key', question: '?', kind: 'secret', options: [], allowOther: false, envVar: 'API_KEY' };

  test('a stored value is offered first, and declining answers skipped', () => {
    assert.equal(emptyDraft(secretQ, ['API_KEY']).secretChoice, 'stored');
    assert.equal(emptyDraft(secretQ, ['OTHER']).secretChoice, 'type');
    assert.deepEqual(evaluateDraft(secretQ, { ...emptyDraft(secretQ, ['API_KEY']) }), { state: 'answered', answer: { selected: [], skipped: false } });
    assert.deepEqual(evaluateDraft(secretQ, { ...emptyDraft(secretQ), secretChoice: 'decline' }), { state: 'answered', answer: { selected: [], skipped: true } });
  });

  test('a typed value for a variable that is not a credential name cannot be submitted until the user confirms the name', () => {
    const proxy: Question = { ...secretQ, envVar: 'HTTPS_PROXY' };
    const typed = { ...emptyDraft(proxy), secretTyped: true };
    assert.deepEqual(evaluateDraft(proxy, typed), { state: 'incomplete', problem: 'Check "Set $HTTPS_PROXY anyway" to store the value, or choose "Don\'t share a value".' });
    assert.deepEqual(evaluateDraft(proxy, { ...typed, secretNameConfirmed: true }), { state: 'answered', answer: { selected: [], skipped: false } });
    // Declining needs no confirmation; a credential name never asks for one.
    assert.deepEqual(evaluateDraft(proxy, { ...typed, secretChoice: 'decline' }), { state: 'answered', answer: { selected: [], skipped: true } });
    assert.equal(evaluateDraft(secretQ, { ...emptyDraft(secretQ), secretTyped: true }).state, 'answered');
  });
});
