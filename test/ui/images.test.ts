import * as assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { until } from '../harness/deadline';
import { reloadWebviews, useTheme } from './auditHelpers';
import { GIF, makePng, png, sha256, type DataPart, type TestFile } from './imageHelpers';
import { button, invoke, toolResult, waitForRequest } from './panelHelpers';
import { useWorkbench, type Workbench } from './workbench';

/** A real paste: a ClipboardEvent carrying the file, dispatched on the field's own input inside the webview. */
async function paste(target: Locator, file: TestFile): Promise<void> {
  await target.evaluate(
    (element, f) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      const inner = element.shadowRoot?.querySelector('input, textarea') ?? element;
      inner.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
    },
    { name: file.name, mimeType: file.mimeType, data: file.buffer.toString('base64') },
  );
}

/**
 * A drag from outside that enters the panel, hovers and drops the file on `target`. The workbench
 * blocks pointer events on webviews while it sees a drag, until the mouse moves with no button
 * down, as a real hand does after a drop.
 */
async function drop(workbench: Workbench, target: Locator, file: TestFile): Promise<void> {
  await target.evaluate(
    (element, f) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.mimeType }));
      for (const type of ['dragenter', 'dragover', 'drop']) element.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true, composed: true }));
    },
    { name: file.name, mimeType: file.mimeType, data: file.buffer.toString('base64') },
  );
  await workbench.page.mouse.move(640, 600);
  await workbench.page.mouse.move(650, 610);
}

/** Names of the attached images, once every thumbnail has decoded (a CSP without blob: would leave them broken). */
async function thumbnails(panel: Frame, count: number): Promise<string[]> {
  const images = panel.locator('.question .attached-image');
  await until(`${count} thumbnails to show`, async () => {
    const shown = await images.count();
    if (shown !== count) throw new Error(`${shown} shown`);
    return true;
  });
  assert.equal(await images.count(), count, 'thumbnails shown');
  await panel.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.question .thumbnail')].every((img) => img.complete && img.naturalWidth > 0));
  return images.locator('.image-name').allInnerTexts();
}

const announced = (panel: Frame) => panel.locator('#announcer').innerText();

const LAYOUT_AND_ERROR = {
  questions: [
    {
      id: 'layout',
      header: 'Layout',
      question: 'Which layout is closer to what you want?',
      options: [
        { label: 'Grid', preview: '```\n[ ] [ ] [ ]\n[ ] [ ] [ ]\n```' },
        { label: 'List', preview: '```\n[      ]\n[      ]\n```' },
      ],
    },
    { id: 'error', header: 'Error', question: 'What does the error look like?', kind: 'text' },
  ],
};

suite('Question panel: images in the answer', () => {
  const ui = useWorkbench();

  // Thumbnails make a question taller than the Question view's share of its side bar: with the
  // Queue view collapsed when it shares that side bar (the primary one), the screenshots show the whole request.
  suiteSetup(async () => {
    const queueHeader = ui.workbench.page.locator('.pane-header:visible', { hasText: 'Queue' });
    if ((await queueHeader.count()) > 0) await queueHeader.first().click();
  });

  suiteTeardown(async () => {
    await ui.workbench?.driver('config', { section: 'workbench', key: 'colorTheme', value: null }).catch(() => undefined);
  });

  test('paste, drop and pick images, remove one: the tool result carries exactly the bytes attached, and no base64 in its text', async () => {
    await useTheme(ui.workbench, 'Default Light Modern');
    const pasted = png('pasted.png', [30, 90, 200], [250, 250, 255]);
    const dropped: TestFile = { name: 'dropped.gif', mimeType: 'image/gif', buffer: GIF };
    const picked = png('picked.png', [200, 60, 40], [255, 240, 200]);
    const inText = png('error.png', [20, 20, 20], [200, 30, 30]);

    const call = await invoke(ui.workbench, LAYOUT_AND_ERROR);
    await waitForRequest(ui.panel, 'Which layout is closer to what you want?');
    await ui.panel.locator('vscode-radio[value="Grid"]').click();
    const note = ui.panel.locator('.question .note-field');
    await note.click();
    await ui.workbench.page.keyboard.type('the spacing is off');
    await paste(note, pasted);
    assert.deepEqual(await thumbnails(ui.panel, 1), ['pasted.png']);
    // Anywhere on the question: VS Code would otherwise take the drag over for its editors.
    await drop(ui.workbench, ui.panel.locator('.question .question-text'), dropped);
    assert.deepEqual(await thumbnails(ui.panel, 2), ['pasted.png', 'dropped.gif']);
    await ui.panel.locator('.question .image-input').setInputFiles([picked]);
    assert.deepEqual(await thumbnails(ui.panel, 3), ['pasted.png', 'dropped.gif', 'picked.png']);
    assert.match(await announced(ui.panel), /Attached picked\.png; 3 images on this answer\./);

    // Its accessible name says which image; a click works (the drop left the panel clickable).
    await ui.panel.getByRole('button', { name: 'Remove image dropped.gif' }).click();
    assert.deepEqual(await thumbnails(ui.panel, 2), ['pasted.png', 'picked.png']);
    assert.equal(await announced(ui.panel), 'Removed dropped.gif.');
    assert.equal(await ui.panel.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Remove image picked.png', 'focus stays in the list');
    await ui.workbench.screenshot('images-attached-light');

    await button(ui.panel, 'next').click();
    const area = ui.panel.locator('.question vscode-text-area');
    await area.click();
    await ui.workbench.page.keyboard.type('TypeError: x is undefined');
    await paste(area, inText);
    assert.deepEqual(await thumbnails(ui.panel, 1), ['error.png']);
    await button(ui.panel, 'next').click();
    assert.match(await ui.panel.locator('.review').innerText(), /Grid \(note: the spacing is off\) \+ 2 images[\s\S]*TypeError: x is undefined \+ 1 image/);
    await button(ui.panel, 'submit').click();

    const { line, json, text } = await toolResult(ui.workbench, call);
    const { dataParts } = await ui.workbench.driver<{ dataParts: DataPart[] }>('await', { callId: call.callId });
    assert.deepEqual(
      dataParts,
      [pasted, picked, inText].map((f) => ({ mimeType: 'image/png', bytes: f.buffer.length, sha256: sha256(f.buffer) })),
      'the image parts hold exactly the attached bytes, in answer order',
    );
    assert.equal(
      line.replace(/, "[^"]*"(?:(?:, | and )"[^"]*")* \(request id "[^"]+"\)/, ''),
      'The user answered 2 questions: layout = "Grid" (note: "the spacing is off") (2 images); error = "TypeError: x is undefined" (1 image). The user attached 3 images; they follow this text, in the order of the answers.',
    );
    assert.deepEqual(json.answers.layout.images, [
      { mimeType: 'image/png', name: 'pasted.png', bytes: pasted.buffer.length },
      { mimeType: 'image/png', name: 'picked.png', bytes: picked.buffer.length },
    ]);
    for (const f of [pasted, picked, inText]) assert.equal(text.includes(f.buffer.toString('base64').slice(0, 40)), false, 'no base64 in the text part');

    await ui.panel.locator('.history summary').click();
    assert.match(await ui.panel.locator('.history').innerText(), /Layout: Grid \(note: the spacing is off\) \(2 images\)/);
    const history = await ui.workbench.driver<Array<{ answers: Record<string, { images?: Array<{ data: string }> }> }>>('history');
    assert.deepEqual(
      history[0]!.answers.layout!.images!.map((i) => i.data),
      ['', ''],
      'the history keeps no bytes',
    );
    await ui.panel.locator('.history summary').click();
  });

  test('refuses a file that is not an image, a too-large one and a fifth one, each with a message that is read out; the API answer keeps the base64', async () => {
    await useTheme(ui.workbench, 'Default Dark Modern');
    const ask = await ui.workbench.driver<{ callId: number }>('ask', {
      request: { extensionId: 'tests.driver', questions: [{ id: 'screens', header: 'Screens', question: 'Can you show me the bug?', kind: 'text' }] },
    });
    await waitForRequest(ui.panel, 'Can you show me the bug?');
    const area = ui.panel.locator('.question vscode-text-area');

    await paste(area, { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') });
    const errors = ui.panel.locator('.question .image-error');
    await errors.filter({ hasText: '"notes.png" is not a PNG, JPEG, GIF or WebP image.' }).waitFor();
    assert.equal(await announced(ui.panel), '"notes.png" is not a PNG, JPEG, GIF or WebP image.');

    const huge = Buffer.concat([makePng(8, 8, [0, 0, 0], [255, 255, 255]), Buffer.alloc(6 * 1024 * 1024)]);
    await ui.panel.locator('.question .image-input').setInputFiles([{ name: 'huge.png', mimeType: 'image/png', buffer: huge }]);
    await errors.filter({ hasText: '"huge.png" is 6.0 MB; an image may be at most 5 MB.' }).waitFor();
    assert.equal(await announced(ui.panel), '"huge.png" is 6.0 MB; an image may be at most 5 MB.');

    const five = [1, 2, 3, 4, 5].map((n) => png(`shot-${n}.png`, [n * 40, 120, 255 - n * 40], [255, n * 30, 60]));
    await ui.panel.locator('.question .image-input').setInputFiles(five);
    assert.deepEqual(await thumbnails(ui.panel, 4), ['shot-1.png', 'shot-2.png', 'shot-3.png', 'shot-4.png']);
    await errors.filter({ hasText: '"shot-5.png" was not added: an answer takes at most 4 images.' }).waitFor();
    assert.match(await announced(ui.panel), /Attached shot-1\.png, shot-2\.png, shot-3\.png, shot-4\.png; 4 images on this answer\. "shot-5\.png" was not added/);
    assert.equal(await ui.panel.locator('.question .image-error').count(), 1, "only the last attempt's problems are shown");
    await ui.workbench.screenshot('images-refused-dark');

    // Images alone answer a text question.
    await button(ui.panel, 'submit').click();
    const { value, error } = await ui.workbench.driver<{
      value?: { status: string; answers: Record<string, { selected: string[]; images: Array<{ mimeType: string; data: string; name: string }> }> };
      error?: string;
    }>('await', { callId: ask.callId });
    assert.equal(error, undefined);
    assert.equal(value!.status, 'answered');
    assert.deepEqual(value!.answers.screens!.selected, ['']);
    assert.deepEqual(
      value!.answers.screens!.images.map((i) => ({ name: i.name, mimeType: i.mimeType, sha256: sha256(Buffer.from(i.data, 'base64')) })),
      five.slice(0, 4).map((f) => ({ name: f.name, mimeType: 'image/png', sha256: sha256(f.buffer) })),
      'a trusted API caller gets the base64 of each image',
    );
  });

  test('attachments are not kept over a webview reload (their bytes never go to the saved state); the panel says so and keeps the text', async () => {
    const call = await invoke(ui.workbench, { questions: [{ id: 'repro', header: 'Repro', question: 'How do I reproduce it?', kind: 'text' }] });
    await waitForRequest(ui.panel, 'How do I reproduce it?');
    const area = ui.panel.locator('.question vscode-text-area');
    await area.click();
    await ui.workbench.page.keyboard.type('open the settings');
    await paste(area, png('repro.png', [0, 120, 0], [200, 255, 200]));
    await paste(area, png('repro-2.png', [0, 0, 120], [200, 200, 255]));
    await thumbnails(ui.panel, 2);
    await reloadWebviews(ui);
    await waitForRequest(ui.panel, 'How do I reproduce it?');
    await ui.panel.locator('.question .image-error', { hasText: '2 attached images were not kept when the panel reloaded; attach them again.' }).waitFor();
    assert.equal(await ui.panel.locator('.question .attached-image').count(), 0);
    assert.equal(await ui.panel.locator('.question vscode-text-area').evaluate((e) => (e as unknown as { value: string }).value), 'open the settings');
    await button(ui.panel, 'submit').click();
    const { json } = await toolResult(ui.workbench, call);
    assert.deepEqual(json.answers, { repro: { selected: ['open the settings'], skipped: false } });
  });
});
