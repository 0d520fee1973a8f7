import * as assert from 'node:assert/strict';
import { LIMITS, type Question } from '../../../src/broker/contract/schemas';
import { batchNote, emptyRequestDraft } from '../../../src/webview/drafts';

const questions: Question[] = [
  { id: 'db', header: 'Database', question: '?', kind: 'single', options: [{ label: 'A' }, { label: 'B', recommended: true }], allowOther: true },
  { id: 't', header: 'Notes', question: '?', kind: 'text', options: [], allowOther: false },
];

suite('request drafts: the note on the whole batch', () => {
  test('starts empty, one draft per question', () => {
    const draft = emptyRequestDraft(questions);
    assert.equal(draft.step, 0);
    assert.equal(draft.drafts.length, 2);
    assert.equal(draft.drafts[0]!.choice, 'B');
    assert.equal(batchNote(draft), undefined);
  });

  test('sent trimmed, absent when blank or missing (drafts saved before the note existed)', () => {
    assert.equal(batchNote({ ...emptyRequestDraft(questions), note: '  staging only \n' }), 'staging only');
    assert.equal(batchNote({ ...emptyRequestDraft(questions), note: ' \n\t ' }), undefined);
    assert.equal(batchNote({ step: 2, drafts: [] }), undefined);
  });

  test('never longer than a reply accepts, so a long note cannot get the whole reply dropped', () => {
    const note = batchNote({ ...emptyRequestDraft(questions), note: 'x'.repeat(LIMITS.batchNoteMax + 50) });
    assert.equal(note!.length, LIMITS.batchNoteMax);
  });
});
