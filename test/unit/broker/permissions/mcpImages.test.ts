import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { askUserQuestionResultFor, questionRequestFor } from '../../../../src/broker/permissions/approveTool';
import type { NewQuestionRequest } from '../../../../src/broker/broker';
import { ASK, connect, TOKEN, until, withEndpoint } from '../../helpers/mcpHelpers';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...Array.from({ length: 2000 }, (_, i) => (i * 31) % 256)]);
const GIF = Buffer.from(`GIF89a${'x'.repeat(300)}`, 'latin1');

suite('MCP endpoint: images in the answer', () => {
  test('ask_user over MCP returns the attached images as image content after the text, which only describes them', async () => {
    await withEndpoint(async ({ broker, endpoint }) => {
      const client = await connect(endpoint.url, TOKEN, 'Claude Code');
      const call = client.callTool({ name: 'ask_user', arguments: ASK });
      await until(() => broker.size === 1);
      const images = [
        { mimeType: 'image/png' as const, data: PNG.toString('base64'), name: 'screenshot.png' },
        { mimeType: 'image/gif' as const, data: GIF.toString('base64') },
      ];
      assert.equal(
        broker.reply(broker.list()[0]!.id, { database: { selected: ['SQLite'], note: 'as in the screenshot', images, skipped: false } }, { by: 'user', where: 'panel' }),
        true,
      );
      const result = (await call) as { content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>; isError?: boolean };
      assert.equal(result.isError, undefined);
      assert.deepEqual(
        result.content.map((c) => c.type),
        ['text', 'image', 'image'],
      );
      const text = result.content[0]!.text!;
      assert.match(
        text,
        /^The user answered 1 question, "[^"]*" \(request id "[^"]+"\): database = "SQLite" \(note: "as in the screenshot"\) \(2 images\)\. The user attached 2 images; they follow this text/,
      );
      assert.deepEqual(JSON.parse(text.slice(text.indexOf('\n') + 1)).answers.database.images, [
        { mimeType: 'image/png', name: 'screenshot.png', bytes: PNG.length },
        { mimeType: 'image/gif', bytes: GIF.length },
      ]);
      assert.equal(text.includes(images[0]!.data.slice(0, 40)), false, 'no base64 in the text');
      assert.deepEqual(
        result.content.slice(1).map((c) => ({ mimeType: c.mimeType, sha256: sha256(Buffer.from(c.data!, 'base64')) })),
        [
          { mimeType: 'image/png', sha256: sha256(PNG) },
          { mimeType: 'image/gif', sha256: sha256(GIF) },
        ],
      );
      await client.close();
    });
  });

  test("Claude Code's AskUserQuestion answers are text: images attached to one are named, never silently dropped", () => {
    const call = {
      tool_name: 'AskUserQuestion',
      input: { questions: [{ question: 'Which layout?', header: 'Layout', options: [{ label: 'Grid' }, { label: 'List' }], multiSelect: false }] },
    };
    const request = questionRequestFor(call, { type: 'mcp', label: 'Claude Code' }) as NewQuestionRequest;
    const images = [{ mimeType: 'image/png' as const, data: PNG.toString('base64') }];
    const result = askUserQuestionResultFor(call, request, { requestId: 'r1', status: 'answered', answers: { q1: { selected: ['Grid'], images, skipped: false } } });
    assert.deepEqual(JSON.parse(JSON.stringify(result)).updatedInput.answers, { 'Which layout?': 'Grid (the user attached 1 image, which this prompt cannot pass on)' });
  });
});
