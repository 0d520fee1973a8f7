// The answer page as a phone user sees and uses it: each question kind, an approval shown in full,
// the agent's markdown rendered by the panel's rules, the user's language, and its size.
import * as assert from 'node:assert/strict';
import { LIMITS, type PermissionResponse, type QuestionResponse } from '../../../src/broker/contract/schemas';
import { MAX_SHOWN_CHARS } from '../../../src/broker/permissions/toolCallDisplay';
import { PAGE_SCRIPT } from '../../../src/answerPage/answerPageHtml';
import { APPROVAL, askPermission, askQuestion, http, openPage, post, QUESTION, withPage } from './answerPageHelpers';

const PAGE_BUDGET = 50 * 1024;

/** The bytes a page costs to transfer: its head and its body. */
const transferSize = (reply: { headers: Record<string, string | string[] | undefined>; bytes: number }) =>
  Object.entries(reply.headers).reduce((sum, [name, value]) => sum + name.length + String(value).length + 4, 0) + reply.bytes;

suite('answer page', () => {
  test('a single-choice question: the page shows it as the panel does and the agent gets the answer picked', async () => {
    await withPage(async (f) => {
      const { id, response } = askQuestion(f.broker);
      const decided: unknown[] = [];
      f.broker.onDidChange((change) => change.type === 'settled' && decided.push(change.decidedBy));
      const { page, c, n } = await openPage(f, id);
      assert.equal(page.status, 200);
      assert.match(page.body, /^<!doctype html><html lang="en">/);
      assert.match(page.body, /<meta name="viewport" content="width=device-width,initial-scale=1">/);
      assert.match(page.body, /Asked by Copilot/);
      assert.match(page.body, /We found <strong>two<\/strong> options\./);
      assert.match(page.body, /<fieldset><legend><span class="chip">Database<\/span> Which database\?<\/legend>/);
      assert.match(
        page.body,
        /<input type="radio" name="q0" value="0" checked><span><span class="label">SQLite<\/span> <span class="chip">Recommended<\/span> <span class="desc">A file\.<\/span>/,
      );
      assert.match(page.body, /<input type="radio" name="q0" value="other"><span class="label">Other…<\/span>/);
      const reply = await post(f, { c, n, q0: '1', 'q0-note': 'for the tests' });
      assert.equal(reply.status, 200);
      assert.match(reply.body, /Answered/);
      const answer: QuestionResponse = await response;
      assert.deepEqual(answer, { requestId: id, status: 'answered', answers: { db: { selected: ['Postgres'], skipped: false, note: 'for the tests' } } });
      assert.deepEqual(decided, [{ by: 'user', where: 'page' }], 'the history records that the user decided on the page');
    });
  });

  test('multi, Other, free text and skipped: each reaches the agent as the panel would send it', async () => {
    await withPage(async (f) => {
      const { id, response } = askQuestion(f.broker, {
        source: { type: 'tool', label: 'Copilot' },
        questions: [
          { id: 'langs', header: 'Languages', question: 'Which?', kind: 'multi', options: [{ label: 'TS' }, { label: 'Go' }, { label: 'Rust' }], allowOther: true },
          { id: 'name', header: 'Name', question: 'The name?', kind: 'text', options: [], allowOther: false, placeholder: 'my-app' },
          { id: 'db', header: 'Database', question: 'Which?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: true },
          { id: 'later', header: 'Later', question: 'Skip me?', kind: 'single', options: [{ label: 'A' }, { label: 'B' }], allowOther: false },
        ],
      });
      const { page, c, n } = await openPage(f, id);
      assert.match(page.body, /<input type="checkbox" name="q0" value="2">/);
      assert.match(page.body, /<textarea name="q1-text" rows="3" maxlength="10000" placeholder="my-app"><\/textarea>/);
      // Typed into "Other…" without picking it (the page works without script): that is the answer.
      assert.equal((await post(f, { c, n, q0: ['0', '2', 'other'], 'q0-other': 'Zig', 'q1-text': 'atlas', 'q2-other': 'C', 'q3-note': 'ask me later' })).status, 200);
      assert.deepEqual((await response).answers, {
        langs: { selected: ['TS', 'Rust'], other: 'Zig', skipped: false },
        name: { selected: ['atlas'], skipped: false },
        db: { selected: [], other: 'C', skipped: false },
        later: { selected: [], skipped: true, note: 'ask me later' },
      });
    });
  });

  test('an answer that does not fit is refused with the reason, and the request still waits for a good one', async () => {
    await withPage(async (f) => {
      const { id, response } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      const twice = await post(f, { c, n, q0: ['0', '1'] });
      assert.equal(twice.status, 400);
      assert.match(twice.body, /takes one choice/);
      assert.equal((await post(f, { c, n, q0: '7' })).status, 400);
      assert.ok(f.broker.get(id));
      assert.equal((await post(f, { c, n, q0: '0' })).status, 200);
      assert.deepEqual((await response).answers, { db: { selected: ['SQLite'], skipped: false } });
    });
  });

  test('an approval: the one-line summary, the whole command with invisible characters marked, nothing cut; Deny with a message', async () => {
    await withPage(async (f) => {
      const tail = 'x'.repeat(5000);
      const { id, response } = askPermission(f.broker, {
        ...APPROVAL,
        toolCall: {
          tool: 'Bash',
          command: `echo safe\u202E; rm -rf ~ ${tail}`,
          fields: [{ name: 'description', value: 'Clean <up>' }],
          warnings: ['The command has 1 lines; read all of them.'],
          summary: 'Runs echo and rm; deletes files.',
        },
      });
      const { page, c, n } = await openPage(f, id);
      assert.match(page.body, /<h1>Run a command<\/h1>/);
      assert.match(page.body, /<p class="summary" role="note">Runs echo and rm; deletes files\.<\/p>/);
      assert.ok(page.body.includes(`<pre class="command">echo safe<span class="inv">⟨U+202E⟩</span>; rm -rf ~ ${tail}</pre>`));
      assert.match(page.body, /Contains invisible characters \(U\+202E\)/);
      assert.match(page.body, /<dt>description<\/dt><dd><pre>Clean &lt;up&gt;<\/pre><\/dd>/);
      assert.equal((await post(f, { c, n, decision: 'deny', message: 'not today' })).status, 200);
      const decided: PermissionResponse = await response;
      assert.deepEqual(decided, { requestId: id, status: 'answered', decision: 'deny', reason: 'not today' });
    });
  });

  test("the agent's markdown follows the panel's rules: no HTML, links shown with their target and not followed, images not loaded", async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker, {
        ...QUESTION,
        context: '<script>alert(1)</script> <img src=x onerror=alert(1)> [docs](https://example.com/a"b) ![logo](https://example.com/l.png) [x](javascript:alert(1))\n\n# Title',
      });
      const { page } = await openPage(f, id);
      assert.doesNotMatch(page.body, /<script>alert|<img/);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      assert.match(page.body, /<span class="link">docs<\/span> <span class="target">\(https:\/\/example\.com\/a%22b\)<\/span>/);
      assert.match(page.body, /\[image: logo\] \(https:\/\/example\.com\/l\.png\)/);
      assert.match(page.body, /\[x\]\(javascript:alert\(1\)\)/);
      assert.match(page.body, /<h3>Title<\/h3>/);
      assert.doesNotMatch(page.body, /<[^>]*\s(src|href)=/);
    });
  });

  test('agent text in attributes and labels cannot leave them: quotes and angle brackets are escaped, invisible characters marked', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker, {
        source: { type: 'tool', label: '<b>Copilot</b>' },
        questions: [
          { id: 'name', header: 'Name"><script>', question: 'Which\u202Ename?', kind: 'text', options: [], allowOther: false, placeholder: '" autofocus onfocus="alert(1)' },
        ],
      });
      const { page } = await openPage(f, id);
      assert.match(page.body, /placeholder="&quot; autofocus onfocus=&quot;alert\(1\)"/);
      assert.match(page.body, /Asked by &lt;b&gt;Copilot&lt;\/b&gt;/);
      assert.match(page.body, /<span class="chip">Name&quot;&gt;&lt;script&gt;<\/span> Which<span class="inv">⟨U\+202E⟩<\/span>name\?/);
      assert.equal(page.body.match(/<script/g)?.length, 1);
    });
  });

  test("the page speaks the user's language: the caller's strings and lang", async () => {
    await withPage(
      async (f) => {
        const { id } = askPermission(f.broker);
        const { page } = await openPage(f, id);
        assert.match(page.body, /<html lang="zh-cn">/);
        assert.match(page.body, />仅允许一次</);
        assert.match(page.body, />Deny</);
        assert.match((await http(f.port, 'GET', '/answer')).body, /<html lang="zh-cn">/);
      },
      { lang: 'zh-cn', strings: { allowOnce: '仅允许一次', deny: '' } },
    );
  });

  test('the page weighs under 50 KB for the largest question request and the largest tool call shown', async () => {
    await withPage(async (f) => {
      const markdown = (n: number) => `Some **bold** and \`code\` text. `.repeat(Math.ceil(n / 32)).slice(0, n);
      const perSource = Math.floor(LIMITS.markdownTotalMax / 5);
      const options = Array.from({ length: LIMITS.maxOptions }, (_, i) => ({ label: `${i}`.padEnd(LIMITS.labelMax, 'l'), description: 'd'.repeat(LIMITS.descriptionMax) }));
      const { id: questions } = askQuestion(f.broker, {
        source: { type: 'tool', label: 'Copilot' },
        context: markdown(perSource),
        questions: Array.from({ length: LIMITS.maxQuestions }, (_, i) => ({
          id: `q${i}`,
          header: 'h'.repeat(LIMITS.headerMax),
          question: 'q'.repeat(LIMITS.questionMax),
          detail: markdown(perSource),
          kind: 'single' as const,
          options,
          allowOther: true,
        })),
      });
      const { id: approval } = askPermission(f.broker, {
        ...APPROVAL,
        toolCall: { tool: 'Bash', command: 'echo hello world; '.repeat(MAX_SHOWN_CHARS / 18).slice(0, MAX_SHOWN_CHARS - 4), fields: [], warnings: [] },
      });
      for (const id of [questions, approval]) {
        const { page } = await openPage(f, id);
        assert.ok(transferSize(page) < PAGE_BUDGET, `${transferSize(page)} bytes`);
      }
    });
  });

  test('the page asks whether its request still waits: yes while it does', async () => {
    await withPage(async (f) => {
      const { id } = askQuestion(f.broker);
      const { c, n } = await openPage(f, id);
      const state = await http(f.port, 'GET', `/proxy/8080/state?c=${c}&n=${n}`);
      assert.equal(state.status, 204);
      assert.ok(f.broker.get(id));
    });
  });

  test("the page's one script parses, and asks only relative URLs", () => {
    assert.doesNotThrow(() => new Function(PAGE_SCRIPT));
    assert.match(PAGE_SCRIPT, /fetch\("state\?"/);
    assert.doesNotMatch(PAGE_SCRIPT, /https?:|fetch\("\//);
  });
});
