// The answer page's HTML: one request (its questions or its tool call, as the panel shows them),
// phone-first, a plain form that works without script. What the request shows is built apart from
// the form's hidden fields, so its hash binds the link to exactly that text.
import { createHash } from 'node:crypto';
import type { PendingRequest, PermissionRequest, Question, QuestionRequest, ToolCall } from '../broker/contract/schemas';
import { isSecretKind } from '../broker/contract/questionKinds';
import { invisibleCodePoints, invisibleCount } from '../broker/visibleText';
import { escapeHtml, markdownHtml, visibleHtml, type RenderMarkdown } from './answerPageMarkdown';
import { format, type AnswerPageStrings } from './answerPageStrings';

export interface ShownRequest {
  /** The request as shown, form controls included, without the link's capability and nonce. */
  html: string;
  /** SHA-256 of `html`, hex. */
  hash: string;
  /** A secret question is answered in VS Code only: the page has no form. */
  answerable: boolean;
}

export function showRequest(request: PendingRequest, strings: AnswerPageStrings, render?: RenderMarkdown): ShownRequest {
  const answerable = request.kind === 'permission' || !request.questions.some((q) => isSecretKind(q.kind));
  const html = request.kind === 'permission' ? permissionHtml(request, strings, render) : questionsHtml(request, strings, render, answerable);
  return { html, hash: createHash('sha256').update(html).digest('hex'), answerable };
}

const source = (request: PendingRequest, strings: AnswerPageStrings) => `<p class="source">${visibleHtml(format(strings.askedBy, request.source.label))}</p>`;

function questionsHtml(request: QuestionRequest, strings: AnswerPageStrings, render: RenderMarkdown | undefined, answerable: boolean): string {
  const parts = [source(request, strings), `<h1>${escapeHtml(strings.questionsHeading)}</h1>`];
  if (request.context) parts.push(markdownHtml(request.context, render, strings));
  if (!answerable) {
    parts.push(`<p class="notice" role="note">${escapeHtml(strings.secretInVsCode)}</p>`);
    for (const question of request.questions) parts.push(`<h2>${questionLegend(question)}</h2>`);
    return parts.join('');
  }
  request.questions.forEach((question, index) => parts.push(questionHtml(question, index, strings, render)));
  if (request.questions.length > 0) parts.push(`<p class="hint">${escapeHtml(strings.unansweredSkipped)}</p>`);
  parts.push(`<div class="actions"><button type="submit" class="primary">${escapeHtml(strings.send)}</button></div>`);
  return parts.join('');
}

const questionLegend = (question: Question) => `<span class="chip">${visibleHtml(question.header)}</span> ${visibleHtml(question.question)}`;

function questionHtml(question: Question, index: number, strings: AnswerPageStrings, render: RenderMarkdown | undefined): string {
  const name = `q${index}`;
  const parts = [`<fieldset><legend>${questionLegend(question)}</legend>`];
  if (question.detail) parts.push(markdownHtml(question.detail, render, strings));
  if (question.kind === 'single' || question.kind === 'multi') {
    const type = question.kind === 'single' ? 'radio' : 'checkbox';
    question.options.forEach((option, i) => {
      const checked = option.recommended && question.kind === 'single' ? ' checked' : '';
      const description = option.description ? ` <span class="desc">${visibleHtml(option.description)}</span>` : '';
      const recommended = option.recommended ? ` <span class="chip">${escapeHtml(strings.recommended)}</span>` : '';
      parts.push(
        `<label class="choice"><input type="${type}" name="${name}" value="${i}"${checked}><span><span class="label">${visibleHtml(option.label)}</span>${recommended}${description}</span></label>`,
      );
      if (option.preview) parts.push(`<div class="preview">${markdownHtml(option.preview, render, strings)}</div>`);
    });
    if (question.allowOther) {
      parts.push(`<label class="choice"><input type="${type}" name="${name}" value="other"><span class="label">${escapeHtml(strings.other)}</span></label>`);
      parts.push(`<label class="field">${escapeHtml(strings.otherAnswer)}<input type="text" name="${name}-other" maxlength="10000" autocomplete="off"></label>`);
    }
  } else {
    const placeholder = question.placeholder ? ` placeholder="${escapeHtml(question.placeholder)}"` : '';
    parts.push(`<label class="field">${escapeHtml(strings.textAnswer)}<textarea name="${name}-text" rows="3" maxlength="10000"${placeholder}></textarea></label>`);
  }
  parts.push(
    `<details><summary>${escapeHtml(strings.addNote)}</summary><label class="field">${escapeHtml(strings.note)}<textarea name="${name}-note" rows="2" maxlength="10000"></textarea></label></details>`,
  );
  parts.push('</fieldset>');
  return parts.join('');
}

function permissionHtml(request: PermissionRequest, strings: AnswerPageStrings, render: RenderMarkdown | undefined): string {
  const parts = [source(request, strings), `<h1>${visibleHtml(request.title)}</h1>`, warningsHtml(request, strings)];
  parts.push(request.toolCall ? toolCallHtml(request.toolCall, strings) : markdownHtml(request.detail, render, strings));
  parts.push(`<label class="field">${escapeHtml(strings.denyMessage)}<textarea name="message" rows="2" maxlength="2000"></textarea></label>`);
  // Allow once and Deny only: a rule is remembered in VS Code, never from a link.
  parts.push(
    `<div class="actions"><button type="submit" name="decision" value="allow_once" class="primary">${escapeHtml(strings.allowOnce)}</button><button type="submit" name="decision" value="deny">${escapeHtml(strings.deny)}</button></div>`,
  );
  return parts.join('');
}

/** The call's own warnings, and any invisible character in what is shown with how many, first (as the panel). */
function warningsHtml(request: PermissionRequest, strings: AnswerPageStrings): string {
  const call = request.toolCall;
  const shown = [request.title, ...(call ? [call.command ?? '', ...call.fields.flatMap((f) => [f.name, f.value])] : [request.detail])].join('\n');
  const hidden = invisibleCodePoints(shown).join(', ');
  const count = invisibleCount(shown);
  const invisible = count === 1 ? [format(strings.invisibleCharacters, hidden)] : count > 1 ? [format(strings.invisibleCharactersCounted, String(count), hidden)] : [];
  const warnings = [...invisible, ...(call?.warnings ?? [])];
  if (warnings.length === 0) return '';
  return `<div class="warnings" role="note"><p>${escapeHtml(strings.checkBeforeAllowing)}</p><ul>${warnings.map((w) => `<li>${visibleHtml(w)}</li>`).join('')}</ul></div>`;
}

function toolCallHtml(call: ToolCall, strings: AnswerPageStrings): string {
  const parts: string[] = [];
  if (call.summary !== undefined) parts.push(`<p class="summary" role="note">${visibleHtml(call.summary)}</p>`);
  if (call.command !== undefined) parts.push(`<p class="name">${escapeHtml(strings.command)}</p><pre class="command">${visibleHtml(call.command)}</pre>`);
  if (call.fields.length) {
    const fields = call.fields.map((f) => `<dt${f.warning ? ' class="unusual"' : ''}>${visibleHtml(f.name)}</dt><dd><pre>${visibleHtml(f.value)}</pre></dd>`);
    parts.push(`<dl>${fields.join('')}</dl>`);
  }
  if (parts.length === 0) parts.push(`<p class="hint">${visibleHtml(format(strings.noInput, call.tool))}</p>`);
  return `<div class="tool-call">${parts.join('')}</div>`;
}

/** The form around what is shown: relative action (the page may sit under a proxy's path), the capability and the page's nonce. */
export function formHtml(shown: ShownRequest, capability: string, pageNonce: string): string {
  if (!shown.answerable) return shown.html;
  const hidden = `<input type="hidden" name="c" value="${escapeHtml(capability)}"><input type="hidden" name="n" value="${escapeHtml(pageNonce)}">`;
  return `<form method="post" action="answer" autocomplete="off">${hidden}${shown.html}</form>`;
}

/** A whole page: one style and one script, both allowed by this response's CSP nonce. */
export function pageHtml(lang: string, title: string, main: string, cspNonce: string, withScript: boolean): string {
  const script = withScript ? `<script nonce="${cspNonce}">${PAGE_SCRIPT}</script>` : '';
  return `${head(lang, title, `<style nonce="${cspNonce}">${PAGE_CSS}</style>`)}<body><main>${main}</main>${script}</body></html>`;
}

function head(lang: string, title: string, style: string): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(title)}</title>${style}</head>`;
}

/** "No longer waiting", and what the page shows in place of its form when the request settles elsewhere. */
export const goneHtml = (strings: AnswerPageStrings) => `<h1>${escapeHtml(strings.noLongerWaiting)}</h1><p>${escapeHtml(strings.noLongerWaitingDetail)}</p>`;

/**
 * The one answer to anything without a valid capability: the same bytes every time (its style
 * allowed by hash, not by a nonce), so it tells nothing about why.
 */
export function uniformNotFoundHtml(lang: string, strings: AnswerPageStrings): string {
  return `${head(lang, strings.pageTitle, `<style>${PAGE_CSS}</style>`)}<body><main>${goneHtml(strings)}</main></body></html>`;
}

export const PAGE_CSS = [
  ':root{color-scheme:light dark;--bg:#fff;--fg:#1f1f1f;--muted:#5f6368;--line:#c4c7c5;--accent:#0b57d0;--on-accent:#fff;--warn-bg:#fff4e5;--warn:#8a4b00;--code:#f1f3f4}',
  '@media (prefers-color-scheme:dark){:root{--bg:#1e1e1e;--fg:#e8eaed;--muted:#a8abb0;--line:#5f6368;--accent:#8ab4f8;--on-accent:#0b1a33;--warn-bg:#3d2a0f;--warn:#fdd18a;--code:#2b2b2b}}',
  '*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'main{max-width:40rem;margin:0 auto;padding:1rem}h1{font-size:1.3rem;margin:.25rem 0 1rem}h2{font-size:1.05rem}',
  '.source,.hint,.desc{color:var(--muted);font-size:.9rem}.source{margin:0}.desc{display:block}',
  '.chip{display:inline-block;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;font-size:.8rem;margin-right:.25rem}',
  'fieldset{border:1px solid var(--line);border-radius:.5rem;margin:0 0 1rem;padding:.75rem}legend{font-weight:600;padding:0 .25rem}',
  '.choice{display:flex;gap:.75rem;align-items:flex-start;min-height:48px;padding:.6rem .25rem;border-bottom:1px solid var(--line);cursor:pointer}',
  '.choice input{width:1.4rem;height:1.4rem;margin:.1rem 0 0;flex:none;accent-color:var(--accent)}.label{font-weight:500}',
  '.field{display:block;margin:.75rem 0}.field input,.field textarea{display:block;width:100%;margin-top:.25rem;font:inherit;min-height:48px;padding:.6rem;border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}',
  'details{margin-top:.5rem}summary{min-height:48px;padding:.6rem 0;cursor:pointer;color:var(--accent)}',
  '.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}button{font:inherit;font-weight:600;min-height:48px;min-width:8rem;padding:.6rem 1.2rem;border-radius:.5rem;border:1px solid var(--accent);background:var(--bg);color:var(--accent);flex:1}',
  'button.primary{background:var(--accent);color:var(--on-accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  'pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--code);padding:.6rem;border-radius:.4rem;margin:.25rem 0;font:.9rem/1.4 ui-monospace,Menlo,Consolas,monospace}',
  'code{font-family:ui-monospace,Menlo,Consolas,monospace;background:var(--code);padding:0 .2rem;border-radius:.2rem}pre code{padding:0}',
  '.name,dt{font-weight:600;margin:.5rem 0 0}dd{margin:0}dt.unusual{color:var(--warn)}.inv{color:var(--warn);font-weight:700}',
  '.warnings,.notice{background:var(--warn-bg);color:var(--warn);border-radius:.5rem;padding:.5rem .75rem}.warnings p{margin:0;font-weight:600}',
  '.summary{border-left:3px solid var(--accent);padding-left:.6rem}.target{color:var(--muted);overflow-wrap:anywhere}.preview{margin:0 0 .5rem 2.2rem}',
  'table{border-collapse:collapse;display:block;overflow-x:auto}th,td{border:1px solid var(--line);padding:.25rem .5rem}.al-center{text-align:center}.al-right{text-align:right}',
].join('');

/**
 * The page's only script, progressive: typing an own answer picks "Other…", a second tap does not
 * send twice, the page says "No longer waiting" as soon as the request settles elsewhere, and it
 * stops checking once its own answer is sent.
 */
export const PAGE_SCRIPT = [
  '(()=>{const f=document.querySelector("form");if(!f)return;let sent=false;const stop=new AbortController();',
  'f.addEventListener("input",e=>{const t=e.target;if(t.name&&t.name.endsWith("-other")&&t.value){const o=f.querySelector(`input[name="${t.name.slice(0,-6)}"][value="other"]`);if(o)o.checked=true}});',
  // Once the answer is on its way the request settles: a check then would only fetch the 404.
  'f.addEventListener("submit",e=>{if(sent)e.preventDefault();sent=true;stop.abort()});',
  'const q=new URLSearchParams({c:f.elements.c.value,n:f.elements.n.value}).toString();',
  'const gone=()=>{if(sent)return;f.remove();document.getElementById("gone").hidden=false};',
  'const check=()=>{if(!sent)fetch("state?"+q,{cache:"no-store",signal:stop.signal}).then(r=>{if(r.status===404)gone();else setTimeout(check,2000)},()=>setTimeout(check,4000))};',
  'setTimeout(check,2000)})();',
].join('');
