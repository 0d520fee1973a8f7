import * as assert from 'node:assert/strict';
import { makeNoisePng, png, sha256, type TestFile } from '../ui/imageHelpers';
import { button, waitForRequest } from '../ui/panelHelpers';
import { useWorkbench } from '../ui/workbench';
import { finalReply, send } from './chat';

// VS Code's own agent mode with the scripted model (it declares image input): the model asks
// through ask_user, the user attaches screenshots in the panel, and the model's next request
// carries them as image parts of the tool result.
suite('The real agent loop: images in the answer reach the model', () => {
  const ui = useWorkbench();

  test('a screenshot and a full-size one attached in the panel reach the model byte for byte, after the text that describes them', async function () {
    const screenshot = png('screenshot.png', [40, 80, 200], [240, 240, 255]);
    // Larger than 768 px both ways and 2 MB: VS Code's agent passes it on unscaled.
    const fullSize: TestFile = { name: 'full-size.png', mimeType: 'image/png', buffer: makeNoisePng(1000, 700) };

    const chat = await send(ui.workbench, 'The layout is broken; ask me which one I expect. scenario:screenshot');
    // The first prompt also enables the built-in agent ("chat.allowAnonymousAccess"), which takes a while.
    await chat.locator('.interactive-list', { hasText: 'Asking 1 question (Layout)' }).waitFor();
    ui.panel = await ui.workbench.panel();
    await waitForRequest(ui.panel, 'Which layout is the page meant to have?');
    await ui.panel.locator('vscode-radio[value="Sidebar"]').click();
    const note = ui.panel.locator('.question .note-field');
    await note.click();
    await ui.workbench.page.keyboard.type('this is what I see');
    await ui.panel.locator('.question .image-input').setInputFiles([screenshot, fullSize]);
    await ui.panel.locator('.question .attached-image').nth(1).waitFor();
    await ui.workbench.screenshot('agent-images-attached');
    await button(ui.panel, 'submit').click();

    const reply = await finalReply(chat, 'IMAGES RECEIVED');
    await ui.workbench.screenshot('agent-images-reply');
    assert.match(
      reply,
      /MODEL RECEIVED: The user answered 1 question, "[^"]+" \(request id "[^"]+"\): layout = "Sidebar" \(note: "this is what I see"\) \(2 images\)\. The user attached 2 images; they follow this text/,
    );
    // The model lists each image part it received (a markdown list: the chat shows no dashes).
    const listed = reply.slice(reply.indexOf('IMAGES RECEIVED: 2')).match(/\{"mimeType"[^}]*\}/g) ?? [];
    const images = listed.map((json) => JSON.parse(json) as { mimeType: string; bytes: number; sha256: string; width: number; height: number });
    assert.deepEqual(images, [
      { mimeType: 'image/png', bytes: screenshot.buffer.length, sha256: sha256(screenshot.buffer), width: 320, height: 200 },
      { mimeType: 'image/png', bytes: fullSize.buffer.length, sha256: sha256(fullSize.buffer), width: 1000, height: 700 },
    ]);

    // The model's request: the tool result is the text (no base64), then each image part.
    const received = await ui.workbench.driver<Array<{ parts: string }>>('received');
    const last = received
      .map((r) => r.parts)
      .filter((parts) => parts.includes('"image":{'))
      .pop()!;
    for (const file of [screenshot, fullSize]) assert.equal(last.includes(file.buffer.toString('base64').slice(0, 40)), false, 'no base64 anywhere in the text the model reads');
    const text = last.indexOf('The user attached 2 images');
    assert.ok(
      text > 0 && text < last.indexOf(sha256(screenshot.buffer)) && last.indexOf(sha256(screenshot.buffer)) < last.indexOf(sha256(fullSize.buffer)),
      'text first, then the images in order',
    );
  });
});
