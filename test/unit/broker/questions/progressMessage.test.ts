import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { askingMarkdown, askingText, escapeMarkdown, FOCUS_QUESTION_COMMAND } from '../../../../src/broker/questions/progressMessage';

// VS Code renders the progress line as markdown; markdown-it with HTML and bare-URL links on is stricter than it.
const render = (markdown: string) => new MarkdownIt({ html: true, linkify: true }).renderInline(markdown);
const links = (html: string) => [...html.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);

suite('the chat progress line for ask_user', () => {
  test('reads "Asking N questions (headers)" and ends with one link that focuses the question', () => {
    const html = render(askingMarkdown(['Database', 'Auth']));
    assert.equal(html.replace(/<[^>]+>/g, ''), 'Asking 2 questions (Database, Auth) · Go to the question');
    assert.deepEqual(links(html), [`<a href="command:${FOCUS_QUESTION_COMMAND}" title="Focus the question in Agent Questions">`]);
    assert.equal(askingText(['Database']), 'Asking 1 question (Database)');
  });

  test("prevents an agent's header from adding a link, an image or HTML to the chat's progress line", () => {
    const hostile = [
      '[Allow](command:agentQuestions.rejectAll)',
      '![x](https://evil.example/p.png)',
      '<img src=x onerror=alert(1)>',
      'https://evil.example',
      '**bold** `code` _x_ # h',
      '&lt;b&gt; \\[ \u202E',
    ];
    const html = render(askingMarkdown(hostile));
    assert.equal(links(html).length, 1, `only our link: ${html}`);
    assert.doesNotMatch(html, /<img|<strong|<em|<code|<b>|onerror=alert\(1\)>/);
    const text = html
      .replace(/<a\b[^>]*>[^<]*<\/a>$/, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    // As typed, but as VS Code's own UI shows agent text: "](" broken apart, invisible characters marked.
    assert.equal(text, `${askingText(hostile)} · `);
    assert.match(text, /\(\[Allow\] \(command:agentQuestions\.rejectAll\), .*<img src=x onerror=alert\(1\)>.*&lt;b&gt; \\\[ ⟨U\+202E⟩\) · $/);
  });

  test('escaping covers every ASCII punctuation character and nothing else', () => {
    const punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
    assert.equal(escapeMarkdown(punctuation), [...punctuation].map((c) => `\\${c}`).join(''));
    assert.equal(escapeMarkdown('Datenbank ü 数据库 42'), 'Datenbank ü 数据库 42');
  });
});
