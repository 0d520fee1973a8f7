import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as markdownModule from '../../../src/broker/markdown/markdownModule';
import { MarkdownRenderer, type MarkdownModule } from '../../../src/extension/markdownRenderer';
import type { QuestionRequest } from '../../../src/broker/contract/schemas';
import { ROOT } from '../helpers/repoRoot';

const request = (context: string, preview = 'See [the docs](https://docs.example/a).'): QuestionRequest => ({
  id: `r-${context.length}`,
  kind: 'questions',
  source: { type: 'tool', label: 'Chat tool' },
  createdAt: 0,
  context,
  questions: [{ id: 'a', header: 'A', question: 'A?', kind: 'single', allowOther: true, options: [{ label: 'x', preview }, { label: 'y' }] }],
});

suite('markdown renderer (host, for link checks): loaded on first use, cached by source', () => {
  test('loads the bundle once, on the first link check, and reuses trees', () => {
    let loads = 0;
    let renders = 0;
    const renderer = new MarkdownRenderer(assert.fail, () => {
      loads++;
      return { renderMarkdownTree: (source: string) => (renders++, markdownModule.renderMarkdownTree(source)) } satisfies MarkdownModule;
    });
    assert.equal(loads, 0, 'nothing loaded before markdown is needed');
    assert.equal(renderer.hasLink([request('**why**')], 'https://docs.example/a'), true);
    assert.deepEqual([loads, renders], [1, 2], 'the context, then the preview that holds the link');
    renderer.hasLink([request('**why**'), request('other')], 'https://nowhere.example/');
    assert.deepEqual([loads, renders], [1, 3], 'only the new source is rendered');
  });

  test('a bundle that cannot load leaves markdown as plain text, logged once', () => {
    const logged: string[] = [];
    const renderer = new MarkdownRenderer(
      (m) => logged.push(m),
      () => {
        throw new Error('Cannot find module markdown.js');
      },
    );
    assert.equal(renderer.hasLink([request('a'), request('bb')], 'https://docs.example/a'), false, 'no link can be opened without the renderer');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /plain text/);
  });

  test('prevents opening a link the panel invents: only links of waiting requests', () => {
    const renderer = new MarkdownRenderer(assert.fail, () => markdownModule);
    const waiting = [request('Read [this](https://safe.example/x) first.')];
    assert.equal(renderer.hasLink(waiting, 'https://safe.example/x'), true);
    assert.equal(renderer.hasLink(waiting, 'https://docs.example/a'), true, 'a link in an option preview');
    assert.equal(renderer.hasLink(waiting, 'https://evil.example/'), false);
    assert.equal(renderer.hasLink([], 'https://safe.example/x'), false, 'a settled request’s links are gone');
  });
});

suite('one markdown bundle', () => {
  test("markdown-it ships once, in dist/markdown.js, which the host requires; highlight.js only in the panel's dist/webviewHighlight.js", () => {
    const dist = join(ROOT, 'dist');
    const holding = (library: string) => readdirSync(dist).filter((file) => file.endsWith('.js') && readFileSync(join(dist, file), 'utf8').includes(`node_modules/${library}/`));
    assert.deepEqual(holding('markdown-it'), ['markdown.js']);
    assert.deepEqual(holding('highlight.js'), ['webviewHighlight.js']);
    // The file the panel loads as a script is also a module for the host.
    const bundled = require(join(dist, 'markdown.js')) as MarkdownModule;
    assert.deepEqual(bundled.renderMarkdownTree('[x](https://example.com)'), { blocks: [{ tag: 'p', children: [{ tag: 'a', href: 'https://example.com', children: ['x'] }] }] });
  });
});
