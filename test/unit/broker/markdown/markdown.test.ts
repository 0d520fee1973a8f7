import * as assert from 'node:assert/strict';
import { parseHighlighted } from '../../../../src/broker/markdown/markdownHighlight';
import { highlightCode, MAX_HIGHLIGHTED_CHARS } from '../../../../src/broker/markdown/markdownHighlight';
import { PanelToHostSchema } from '../../../../src/broker/contract/protocol';
import { renderMarkdownTree as renderTree } from '../../../../src/broker/markdown/markdownRender';

/** As the panel renders: with highlighting. */
const renderMarkdownTree = (source: string) => renderTree(source, highlightCode);
import {
  HLJS_CLASS,
  isOpenableHref,
  LANGUAGE,
  MARKDOWN_LIMITS,
  MARKDOWN_TAGS,
  markdownSources,
  measureTree,
  type MarkdownElement,
  type MarkdownNode,
  type MarkdownTree,
} from '../../../../src/broker/markdown/markdownTree';
import type { PendingRequest } from '../../../../src/broker/contract/schemas';

function blocks(source: string): MarkdownNode[] {
  const tree = renderMarkdownTree(source);
  assert.ok('blocks' in tree, `rendered as a tree: ${source.slice(0, 40)}`);
  assertAllowlisted(tree);
  return tree.blocks;
}

/** What the panel turns into DOM may only hold allowlisted tags, openable links and hljs classes, within the limits. */
function assertAllowlisted(tree: MarkdownTree): void {
  if ('plain' in tree) return assert.deepEqual(tree, { plain: true });
  const { nodes, depth } = measureTree(tree.blocks);
  assert.ok(nodes <= MARKDOWN_LIMITS.nodes && depth <= MARKDOWN_LIMITS.depth, `${nodes} nodes, depth ${depth}`);
  for (const e of elements(tree.blocks)) {
    assert.ok((MARKDOWN_TAGS as readonly string[]).includes(e.tag), e.tag);
    assert.deepEqual(
      Object.keys(e).filter((k) => !['tag', 'children', 'href', 'alt', 'cls', 'lang', 'start', 'align'].includes(k)),
      [],
    );
    if (e.tag === 'a') assert.ok(e.href !== undefined && isOpenableHref(e.href), e.href);
    for (const cls of e.cls ?? []) assert.match(cls, HLJS_CLASS);
    if (e.lang !== undefined) assert.match(e.lang, LANGUAGE);
  }
}

/** Every element of a tree, depth first. */
function elements(nodes: readonly MarkdownNode[]): MarkdownElement[] {
  return nodes.flatMap((n) => (typeof n === 'string' ? [] : [n, ...elements(n.children ?? [])]));
}

const text = (nodes: readonly MarkdownNode[]): string => nodes.map((n) => (typeof n === 'string' ? n : text(n.children ?? []))).join('');
const tags = (nodes: readonly MarkdownNode[]) => elements(nodes).map((e) => e.tag);

suite('markdown: the agent’s markdown renders into an allowlisted tree', () => {
  test('tables keep their header, rows, cells and alignment', () => {
    const [table] = blocks('| Option | Cost | Speed |\n|:--|:-:|--:|\n| Redis | **low** | fast |\n| Kafka | high | `ok` |') as MarkdownElement[];
    assert.equal(table?.tag, 'table');
    const [thead, tbody] = table!.children as MarkdownElement[];
    assert.deepEqual(
      thead!.children!.map((tr) => text([tr])),
      ['OptionCostSpeed'],
    );
    const rows = tbody!.children as MarkdownElement[];
    assert.equal(rows.length, 2);
    const firstRow = rows[0]!.children as MarkdownElement[];
    assert.deepEqual(
      firstRow.map((cell) => [cell.tag, cell.align, text(cell.children!)]),
      [
        ['td', 'left', 'Redis'],
        ['td', 'center', 'low'],
        ['td', 'right', 'fast'],
      ],
    );
    assert.deepEqual(tags(firstRow[1]!.children!), ['strong']);
    assert.deepEqual(tags((rows[1]!.children as MarkdownElement[])[2]!.children!), ['code']);
  });

  test('nested lists and quotes stay nested', () => {
    const tree = blocks('- one\n  - two\n    1. three\n    2. four\n- five\n\n> outer\n> > inner\n> > - item\n\n3. starts at three');
    const [ul, quote, ol] = tree as MarkdownElement[];
    assert.equal(ul?.tag, 'ul');
    const innerList = elements(ul!.children!).find((e) => e.tag === 'ul')!;
    assert.equal(text(innerList.children!).startsWith('two'), true);
    assert.deepEqual(
      elements(innerList.children!)
        .filter((e) => e.tag === 'ol')
        .map((e) => e.children!.length),
      [2],
    );
    assert.equal(quote?.tag, 'blockquote');
    const innerQuote = (quote!.children as MarkdownElement[]).find((e) => e.tag === 'blockquote')!;
    assert.ok(innerQuote, 'a quote inside the quote');
    assert.deepEqual(tags(innerQuote.children!), ['p', 'ul', 'li']);
    assert.deepEqual([ol?.tag, ol?.start], ['ol', 3]);
    assert.deepEqual(
      blocks('1. one\n2. two'),
      [
        {
          tag: 'ol',
          children: [
            { tag: 'li', children: ['one'] },
            { tag: 'li', children: ['two'] },
          ],
        },
      ],
      'a list from 1 has no start',
    );
  });

  test('a fence of four backticks holding a three-backtick line is one code block', () => {
    const source = '````markdown\nBefore\n```ts\nconst x = 1;\n```\nAfter\n````\n\nOutside';
    const tree = blocks(source);
    assert.deepEqual(
      tags(tree).filter((t) => t === 'pre'),
      ['pre'],
    );
    const pre = tree[0] as MarkdownElement;
    assert.equal(pre.lang, 'markdown');
    assert.equal(text([pre]), 'Before\n```ts\nconst x = 1;\n```\nAfter');
    assert.deepEqual(tree[1], { tag: 'p', children: ['Outside'] });
  });

  test('raw HTML and entities show as text', () => {
    const tree = blocks('<img src=x onerror=alert(1)>\n\n<script>alert(1)</script> and <b>bold</b>\n\n&lt;i&gt; &amp; &#x27;');
    assert.deepEqual(tags(tree), ['p', 'p', 'p']);
    assert.deepEqual(
      tree.map((b) => text([b])),
      ['<img src=x onerror=alert(1)>', '<script>alert(1)</script> and <b>bold</b>', "<i> & '"],
    );
  });

  test('prevents clickable javascript:, command:, data:, vscode: and file: links: they stay text', () => {
    const hostile = [
      '[run](javascript:alert(1))',
      '[run](JAVASCRIPT:alert(1))',
      '[run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D)',
      '[run](data:text/html,<script>alert(1)</script>)',
      '[run](vscode:extension/evil.extension)',
      '[run](file:///etc/passwd)',
      '<javascript:alert(1)>',
      '<command:workbench.action.reloadWindow>',
      '[run][evil]\n\n[evil]: javascript:alert(1)',
      '[run](  javascript:alert(1)  )',
      '[run](java\nscript:alert(1))',
      '[relative](./docs/readme.md)',
    ];
    for (const source of hostile) {
      const tree = blocks(source);
      assert.deepEqual(
        tags(tree).filter((t) => t === 'a'),
        [],
        `no link in ${source}`,
      );
      assert.ok(text(tree).includes('run') || text(tree).includes('relative') || text(tree).includes(':'), `the text stays: ${source}`);
    }
    assert.deepEqual(text(blocks('[run](command:x)')), '[run](command:x)');
  });

  test('http, https and mailto links are links that keep their target', () => {
    const tree = blocks(
      '[docs](https://example.com/a?b=1) <http://example.org> mail [me](mailto:me@example.com) and https://bare.example/path\n\n[ref link][r]\n\n[r]: https://ref.example/x',
    );
    const links = elements(tree).filter((e) => e.tag === 'a');
    assert.deepEqual(
      links.map((l) => [l.href, text(l.children!)]),
      [
        ['https://example.com/a?b=1', 'docs'],
        ['http://example.org', 'http://example.org'],
        ['mailto:me@example.com', 'me'],
        ['https://bare.example/path', 'https://bare.example/path'],
        ['https://ref.example/x', 'ref link'],
      ],
    );
    // A file name is not a web address.
    assert.deepEqual(tags(blocks('See README.md and www.example.com')), ['p']);
  });

  test('images are never loaded: only their alt text and address', () => {
    const tree = blocks('![diagram *of* it](https://example.com/x.png "t") ![x](data:image/png;base64,AAAA)');
    const images = elements(tree).filter((e) => e.tag === 'image');
    assert.deepEqual(images, [{ tag: 'image', href: 'https://example.com/x.png', alt: 'diagram of it' }]);
    assert.ok(text(tree).includes('![x](data:image/png;base64,AAAA)'), 'a data: image stays text');
  });

  test('emphasis, strikethrough, inline code, headings, rules and breaks', () => {
    const tree = blocks('# Title\n\n*em* **strong** ~~gone~~ `code`  \nnext\nsoft\n\n---\n###### Six');
    assert.deepEqual(tags(tree), ['h1', 'p', 'em', 'strong', 's', 'code', 'br', 'hr', 'h6']);
    assert.equal(text([tree[1]!]), 'em strong gone codenext\nsoft');
  });

  test('fenced code is highlighted with hljs-* classes only', () => {
    const samples = {
      ts: 'class Foo extends Bar {\n  f(x: number): string { return `a${x}`; } // note\n}',
      html: '<div onclick="x"><script>var a = 1;</script><style>p { color: red }</style></div>',
      python: '@decorator\ndef f(a: int) -> str:\n    return f"{a!r}"  # c',
      bash: 'export A=$(ls) && echo "${A}" > /tmp/x',
      diff: '- old\n+ new',
      json: '{"a": [1, true, null]}',
    };
    for (const [language, code] of Object.entries(samples)) {
      const tree = blocks(`\`\`\`${language}\n${code}\n\`\`\``);
      const spans = elements(tree).filter((e) => e.tag === 'span');
      assert.ok(spans.length > 0, `${language} has tokens`);
      for (const span of spans) for (const cls of span.cls ?? []) assert.match(cls, /^hljs-[a-z0-9_-]+$/, `${language}: ${cls}`);
      assert.equal(text(tree), code, `${language}: the code is intact`);
    }
    const ts = elements(blocks('```ts\nconst a = 1;\n```')).filter((e) => e.tag === 'span');
    assert.deepEqual(
      ts.map((s) => s.cls),
      [['hljs-keyword'], ['hljs-number']],
    );
    // An unknown language is plain code.
    assert.deepEqual(tags(blocks('```nosuchlanguage\nx\n```')), ['pre', 'code']);
  });

  test('highlight output with anything but spans and escapes is refused', () => {
    assert.deepEqual(parseHighlighted('<span class="hljs-title function_">f</span>&lt;&amp;'), [{ tag: 'span', cls: ['hljs-title', 'hljs-function_'], children: ['f'] }, '<&']);
    assert.deepEqual(parseHighlighted('<span class="language-xml"><span class="hljs-tag">x</span></span>'), [{ tag: 'span', cls: ['hljs-tag'], children: ['x'] }]);
    for (const html of ['<img src=x onerror=alert(1)>', '<span class="hljs-x">a', 'a</span>', '<span class="x" onclick="y">a</span>', '&nbsp;', '<span class=hljs-x>a</span>']) {
      assert.equal(parseHighlighted(html), undefined, html);
    }
  });

  test('prevents a depth bomb: nesting past the limit is shown as plain text', () => {
    for (const source of [
      '>'.repeat(2000),
      `${'- '.repeat(600)}x`,
      `${'  '.repeat(0)}${Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')}`,
      `${'['.repeat(1000)}x${'](https://e.x)'.repeat(1000)}`,
      `${'*'.repeat(1000)}x${'*'.repeat(1000)}`,
    ]) {
      const started = performance.now();
      const tree = renderMarkdownTree(source);
      assert.ok(performance.now() - started < 1000, 'rendered quickly');
      assertAllowlisted(tree);
      if ('blocks' in tree) assert.ok(measureTree(tree.blocks).depth <= MARKDOWN_LIMITS.depth);
    }
    assert.deepEqual(renderMarkdownTree('>'.repeat(2000)), { plain: true });
  });

  test('prevents a size bomb: too many nodes lose their highlighting, then fall back to plain text', () => {
    const code = `\`\`\`ts\n${'a(1); '.repeat(1700)}\n\`\`\``;
    const highlightedTooMuch = renderMarkdownTree(code);
    assert.ok('blocks' in highlightedTooMuch);
    assert.deepEqual(tags(highlightedTooMuch.blocks), ['pre', 'code'], 'the code block is kept, without token spans');
    const manyNodes = renderMarkdownTree('*a* '.repeat(2500));
    assert.deepEqual(manyNodes, { plain: true });
    const ok = renderMarkdownTree('*a* '.repeat(500));
    assert.ok('blocks' in ok && measureTree(ok.blocks).nodes <= MARKDOWN_LIMITS.nodes);
  });

  test('prevents a slow panel: code over the highlighting bound is shown plain, at once', () => {
    const long = `const x = 1;\n`.repeat(Math.ceil((MAX_HIGHLIGHTED_CHARS + 1) / 13));
    assert.equal(highlightCode(long, 'ts'), undefined);
    const tree = renderMarkdownTree(`\`\`\`ts\n${long}\`\`\``);
    assert.ok('blocks' in tree && !JSON.stringify(tree.blocks).includes('hljs'), 'no highlighting nodes');
    assert.ok(highlightCode('const x = 1;', 'ts')!.length > 1, 'short code is still highlighted');
  });

  test('prevents the host rendering every waiting request for one click: a link to open names the request it is in', () => {
    assert.equal(PanelToHostSchema.safeParse({ type: 'openLink', href: 'https://docs.example/a' }).success, false);
    assert.equal(PanelToHostSchema.safeParse({ type: 'openLink', href: 'https://docs.example/a', requestId: 'r1' }).success, true);
  });

  test('only http, https and mailto addresses are openable', () => {
    for (const href of ['https://example.com', 'http://localhost:8080/x', 'mailto:a@b.c', 'HTTPS://EXAMPLE.COM']) assert.equal(isOpenableHref(href), true, href);
    for (const href of [
      'javascript:alert(1)',
      'command:x',
      'vscode:x',
      'file:///etc/passwd',
      'data:text/html,x',
      '//example.com',
      'https:',
      'ftp://x',
      ` https://x`,
      `https://x/${'a'.repeat(3000)}`,
    ]) {
      assert.equal(isOpenableHref(href), false, href);
    }
  });

  test('a request’s markdown: context, every detail and every preview; a permission’s detail unless it shows a tool call', () => {
    const request = {
      id: 'r',
      kind: 'questions',
      source: { type: 'tool', label: 'Chat tool' },
      createdAt: 0,
      context: 'ctx',
      questions: [
        {
          id: 'a',
          header: 'A',
          question: 'A?',
          detail: 'det',
          kind: 'single',
          allowOther: true,
          options: [{ label: 'x', preview: 'p1' }, { label: 'y', preview: 'p2' }, { label: 'z' }],
        },
        { id: 'b', header: 'B', question: 'B?', kind: 'text', allowOther: false, options: [], detail: 'ctx' },
      ],
    } satisfies PendingRequest;
    assert.deepEqual(markdownSources(request), ['ctx', 'det', 'p1', 'p2']);
    const permission = { id: 'p', kind: 'permission', source: { type: 'extension', label: 'x' }, createdAt: 0, title: 't', detail: 'perm **detail**' } satisfies PendingRequest;
    assert.deepEqual(markdownSources(permission), ['perm **detail**']);
    assert.deepEqual(markdownSources({ ...permission, toolCall: { tool: 'Bash', command: 'ls', fields: [], warnings: [] } }), []);
  });
});
