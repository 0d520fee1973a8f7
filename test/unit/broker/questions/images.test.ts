import * as assert from 'node:assert/strict';
import { callAskUser } from '../../../../src/broker/questions/askUserCall';
import type { NewQuestionRequest } from '../../../../src/broker/broker';
import { History } from '../../../../src/broker/history';
import { base64ByteLength, sniffImageType } from '../../../../src/broker/questions/imageFormat';
import { summarizeAnswer } from '../../../../src/broker/contract/resultText';
import { LIMITS, type Answer, type AnswerImage, type Question } from '../../../../src/broker/contract/schemas';
import { emptyDraft, evaluateDraft, skippedAnswer } from '../../../../src/webview/drafts';
import { attachmentsOf, readImage } from '../../../../src/webview/imageStore';
import { makeBroker, makePolicy, MemoryStore } from '../../helpers/fakes';

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Bytes that start like the format they claim, with a recognisable random tail. */
const bytesOf = (magic: number[], size = 64) => Uint8Array.from({ length: size }, (_, i) => (i < magic.length ? magic[i]! : (i * 37 + 11) % 256));
const imageOf = (bytes: Uint8Array, mimeType: AnswerImage['mimeType'] = 'image/png', name = 'shot.png'): AnswerImage => ({
  mimeType,
  data: Buffer.from(bytes).toString('base64'),
  name,
});

const PNG = imageOf(bytesOf(PNG_MAGIC, 3000));
const JPEG = imageOf(bytesOf([0xff, 0xd8, 0xff, 0xe0], 500), 'image/jpeg', 'photo.jpg');

const REQUEST: NewQuestionRequest = {
  source: { type: 'tool', label: 'Chat tool' },
  questions: [
    { id: 'layout', header: 'Layout', question: 'Which layout?', kind: 'single', options: [{ label: 'Grid' }, { label: 'List' }], allowOther: true },
    { id: 'error', header: 'Error', question: 'What do you see?', kind: 'text', options: [], allowOther: false },
    { id: 'key', header: 'Key', question: 'Key?', kind: 'secret', options: [], allowOther: false, envVar: 'SOME_KEY' },
  ],
};
const SECRET_SKIPPED: Answer = { selected: [], skipped: true };

suite('answer images: formats and the broker', () => {
  test('the image type comes from the first bytes, whatever the name or declared type says', () => {
    assert.equal(sniffImageType(bytesOf(PNG_MAGIC)), 'image/png');
    assert.equal(sniffImageType(bytesOf([0xff, 0xd8, 0xff, 0xdb])), 'image/jpeg');
    assert.equal(sniffImageType(new TextEncoder().encode('GIF89a......')), 'image/gif');
    assert.equal(sniffImageType(new TextEncoder().encode('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ')), 'image/webp');
    for (const other of ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'RIFF....WAVEfmt ', '%PDF-1.7', 'BM......', '']) {
      assert.equal(sniffImageType(new TextEncoder().encode(other)), undefined, other);
    }
    assert.equal(base64ByteLength(PNG.data), 3000);
    assert.equal(base64ByteLength(Buffer.from('ab').toString('base64')), 2);
  });

  test('images are accepted on answered choice and text questions', async () => {
    const { broker } = makeBroker();
    const pending = broker.ask(REQUEST);
    const answers = {
      layout: { selected: ['Grid'], note: 'like this', images: [PNG], skipped: false },
      error: { selected: [''], images: [JPEG, PNG], skipped: false },
      key: SECRET_SKIPPED,
    };
    assert.equal(broker.reply('r1', answers, { by: 'user', where: 'panel' }), true);
    assert.deepEqual((await pending).answers, answers);
  });

  test('prevents images on a secret answer, a skipped answer, or bytes that are not what they claim', async () => {
    const { broker, logs } = makeBroker();
    const pending = broker.ask(REQUEST);
    const fine = { layout: { selected: ['Grid'], skipped: false }, error: { selected: ['x'], skipped: false } };
    const refused: Array<[string, Record<string, Answer>]> = [
      ['secret', { ...fine, key: { selected: [], skipped: false, secret: { stored: true, envVar: 'SOME_KEY' }, images: [PNG] } }],
      ['skipped secret', { ...fine, key: { ...SECRET_SKIPPED, images: [PNG] } }],
      ['skipped choice', { ...fine, layout: { selected: [], skipped: true, images: [PNG] }, key: SECRET_SKIPPED }],
      [
        'declared png, bytes of a text file',
        { ...fine, error: { selected: ['x'], images: [{ ...PNG, data: Buffer.from('<svg onload=alert(1)>').toString('base64') }], skipped: false }, key: SECRET_SKIPPED },
      ],
      ['declared jpeg, bytes of a png', { ...fine, error: { selected: ['x'], images: [{ ...PNG, mimeType: 'image/jpeg' }], skipped: false }, key: SECRET_SKIPPED }],
      ['empty image', { ...fine, error: { selected: ['x'], images: [{ ...PNG, data: '' }], skipped: false }, key: SECRET_SKIPPED }],
    ];
    for (const [what, answers] of refused) assert.equal(broker.reply('r1', answers, { by: 'user', where: 'panel' }), false, what);
    assert.match(logs.join('\n'), /secret question "key" takes no images/);
    assert.match(logs.join('\n'), /question "layout" is skipped but carries an answer/);
    assert.match(logs.join('\n'), /image 1 of question "error" is not a image\/png image/);
    assert.equal(broker.size, 1, 'the request still waits');
    broker.cancel('r1', { by: 'asker' });
    await pending;
  });

  test('an image larger than the limit is refused even if the schema lets its base64 through', async () => {
    const { broker, logs } = makeBroker();
    const pending = broker.ask(REQUEST);
    const big = imageOf(bytesOf(PNG_MAGIC, LIMITS.imageMaxBytes + 1));
    assert.equal(
      broker.reply(
        'r1',
        { layout: { selected: ['Grid'], images: [big], skipped: false }, error: { selected: ['x'], skipped: false }, key: SECRET_SKIPPED },
        { by: 'user', where: 'panel' },
      ),
      false,
    );
    assert.match(logs.join('\n'), /larger than 5242880 bytes/);
    broker.cancel('r1', { by: 'asker' });
    await pending;
  });
});

suite('answer images: what the model and the history get', () => {
  test('the tool text describes each image and never contains its base64; the response keeps the bytes', async () => {
    const { broker } = makeBroker();
    const input = { questions: [{ id: 'layout', header: 'Layout', question: 'Which layout?', options: [{ label: 'Grid', preview: '```\n[] [] []\n```' }, { label: 'List' }] }] };
    const call = callAskUser(input, { broker, policy: makePolicy(), source: { type: 'tool', label: 'Chat tool' } });
    await new Promise((r) => setImmediate(r));
    broker.reply('r1', { layout: { selected: ['Grid'], note: 'see both', images: [PNG, JPEG], skipped: false } }, { by: 'user', where: 'panel' });
    const { text, response } = await call;
    const [line, json] = text.split('\n');
    assert.equal(
      line,
      'The user answered 1 question, "Which layout?" (request id "r1"): layout = "Grid" (note: "see both") (2 images). The user attached 2 images; they follow this text, in the order of the answers.',
    );
    assert.deepEqual(JSON.parse(json!).answers.layout.images, [
      { mimeType: 'image/png', name: 'shot.png', bytes: 3000 },
      { mimeType: 'image/jpeg', name: 'photo.jpg', bytes: 500 },
    ]);
    for (const image of [PNG, JPEG]) {
      assert.equal(text.includes(image.data), false);
      assert.equal(text.includes(image.data.slice(0, 40)), false, 'not even a prefix of the base64');
    }
    assert.deepEqual(response!.answers!.layout!.images, [PNG, JPEG], 'the response (the API, the image parts) keeps the bytes');
  });

  test('history never holds image bytes: it keeps the type and name, and says "2 images"', async () => {
    const { broker } = makeBroker();
    const store = new MemoryStore();
    const history = new History(store, () => 10);
    broker.onDidChange((c) => c.type === 'settled' && history.record(c));
    const pending = broker.ask(REQUEST);
    broker.reply(
      'r1',
      { layout: { selected: ['List'], images: [PNG, JPEG], skipped: false }, error: { selected: ['boom'], skipped: false }, key: SECRET_SKIPPED },
      { by: 'user', where: 'panel' },
    );
    assert.equal((await pending).answers!.layout!.images!.length, 2);
    const entry = history.list()[0]!;
    assert.deepEqual(entry.answers!.layout!.images, [
      { mimeType: 'image/png', name: 'shot.png', data: '' },
      { mimeType: 'image/jpeg', name: 'photo.jpg', data: '' },
    ]);
    assert.equal(summarizeAnswer(REQUEST.questions[0]!, entry.answers!.layout), '"List" (2 images)');
    const stored = JSON.stringify([...store.data.values()]);
    assert.equal(stored.includes(PNG.data.slice(0, 40)), false);
    assert.equal(stored.includes(JPEG.data.slice(0, 40)), false);
  });
});

suite('answer images: panel drafts', () => {
  const [choice, text, secret] = REQUEST.questions as [Question, Question, Question];
  const file = (bytes: Uint8Array, name: string) => Object.assign(new Blob([new Uint8Array(bytes)]), { name });

  test('a file is checked by its first bytes and its size before it is attached', async () => {
    assert.deepEqual(await readImage(file(new TextEncoder().encode('not an image at all'), 'fake.png')), { problem: '"fake.png" is not a PNG, JPEG, GIF or WebP image.' });
    assert.deepEqual(await readImage(file(bytesOf(PNG_MAGIC, LIMITS.imageMaxBytes + 1), 'huge.png')), { problem: '"huge.png" is 5.0 MB; an image may be at most 5 MB.' });
    const read = await readImage(file(bytesOf(PNG_MAGIC, 3000), 'shot.png'));
    assert.ok(!('problem' in read));
    assert.equal(read.data, PNG.data);
    assert.equal(read.mimeType, 'image/png');
  });

  test('attached images join the answer; they are never part of the saved draft', async () => {
    const draft = { ...emptyDraft(text), text: 'it crashes' };
    const read = (await readImage(file(bytesOf(PNG_MAGIC, 3000), 'shot.png'))) as Exclude<Awaited<ReturnType<typeof readImage>>, { problem: string }>;
    attachmentsOf(draft).images.push(read);
    draft.images = 1;
    assert.deepEqual(evaluateDraft(text, draft), { state: 'answered', answer: { selected: ['it crashes'], images: [PNG], skipped: false } });
    assert.equal(JSON.stringify(draft).includes(PNG.data.slice(0, 40)), false, 'setState gets the count, not the bytes');
    assert.deepEqual(JSON.parse(JSON.stringify(draft)).images, 1);

    const onlyImage = emptyDraft(text);
    attachmentsOf(onlyImage).images.push(read);
    assert.deepEqual(evaluateDraft(text, onlyImage), { state: 'answered', answer: { selected: [''], images: [PNG], skipped: false } });

    const noChoice = { ...emptyDraft(choice), choice: undefined };
    attachmentsOf(noChoice).images.push(read);
    assert.deepEqual(evaluateDraft(choice, noChoice), { state: 'incomplete', problem: 'Choose an option to send the attached images, or remove them.' });
    assert.equal(skippedAnswer(noChoice).images, undefined, 'a skipped answer carries no images');

    const secretDraft = { ...emptyDraft(secret), secretTyped: true };
    attachmentsOf(secretDraft).images.push(read);
    assert.equal((evaluateDraft(secret, secretDraft) as { answer: Answer }).answer.images, undefined, 'a secret answer carries no images');
  });
});
