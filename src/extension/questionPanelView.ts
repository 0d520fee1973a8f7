// The Question webview view: shows the head of the queue and turns the panel's typed
// messages into broker calls. Everything the webview sends is validated and otherwise dropped.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import { Emitter } from '../broker/events';
import type { History } from '../broker/history';
import { isOpenableHref } from '../broker/markdown/markdownTree';
import { PANEL_MESSAGES } from '../broker/contract/panelMessages';
import { PANEL_STRINGS_ELEMENT_ID, PanelToHostSchema, type HostToPanel, type PanelToHost } from '../broker/contract/protocol';
import type { Answers, QuestionRequest } from '../broker/contract/schemas';
import { mark } from './benchTrace';
import { MarkdownRenderer } from './markdownRenderer';
import { resolveSecretAnswers, type SecretInput } from './secretAnswers';
import type { SecretVault } from './secretVault';
import { readSettings } from './settings';

const HISTORY_SHOWN = 20;
/** Whatever the panel settles, the user decided it there. */
const IN_THE_PANEL = { by: 'user', where: 'panel' } as const;

export class QuestionPanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'agentQuestions.panel';
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly shown = new Emitter<string>();
  /** Fires with a request id when the panel has rendered that request and is ready for input. */
  readonly onDidShowRequest = this.shown.event;
  private readonly visibility = new Emitter<boolean>();
  /** Fires when the panel is shown or hidden. */
  readonly onDidChangeVisibility = this.visibility.event;
  private readonly shownAt = new Map<string, number>();
  private readonly pongs = new Map<number, () => void>();
  /** A request chosen in the Queue or a notification, shown as soon as the panel is ready for it. */
  private requestedShow: string | undefined;
  /** The user asked to focus the panel before it was ready: its first control takes focus once it is. */
  private requestedFocus = false;
  /** A queued request's id -> the id of its preview in the panel (set just before the broker's 'added'). */
  private readonly previewOf = new Map<string, string>();
  /** Only to check that a link the panel asks to open is one a waiting request shows. */
  private readonly markdown: MarkdownRenderer;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly broker: QuestionBroker,
    private readonly history: History,
    private readonly vault: SecretVault,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.markdown = new MarkdownRenderer((message) => log.warn(message));
    this.disposables.push(
      // After the first snapshot the panel receives changes, not the whole queue again.
      broker.onDidChange((change) => {
        if (change.type === 'added') {
          const replaces = this.previewOf.get(change.request.id);
          this.previewOf.delete(change.request.id);
          this.post({ type: 'added', request: change.request, ...(replaces ? { replaces } : {}) });
          if (readSettings().revealOnAsk) this.reveal();
          return;
        }
        const latest = this.history.list()[0];
        this.post({
          type: 'settled',
          requestId: change.request.id,
          status: change.response.status,
          ...(change.response.reason ? { reason: change.response.reason } : {}),
          ...(latest?.requestId === change.request.id ? { historyEntry: latest } : {}),
        });
      }),
      this.shown,
      this.visibility,
      vault.onDidChange((names) => this.post({ type: 'storedSecrets', names })),
    );
  }

  get isVisible(): boolean {
    return this.view?.visible ?? false;
  }

  /** Shows a pending request in the panel, even if it is not the head of the queue. */
  async showRequest(requestId: string): Promise<void> {
    this.requestedShow = requestId;
    await vscode.commands.executeCommand(`${QuestionPanelView.viewType}.focus`);
    // A panel that was hidden reloads and says 'ready' first; then it gets this again.
    this.post({ type: 'show', requestId });
  }

  /** Focuses the panel and its request's first control: the user asked for it. */
  async focus(): Promise<void> {
    // A panel not on screen (re)loads and says 'ready' first, and takes focus then; a visible one takes it now, once.
    this.requestedFocus = !this.view?.visible;
    await vscode.commands.executeCommand(`${QuestionPanelView.viewType}.focus`);
    this.post({ type: 'focus' });
  }

  /** Shows a question VS Code has prepared, before its invocation queues it: held, not answerable. */
  preview(request: QuestionRequest): void {
    mark('preview posted');
    this.post({ type: 'preview', request });
  }

  /** The queued request `requestId` takes over the preview `previewId` on screen. Call before it is queued. */
  bindPreview(previewId: string, requestId: string): void {
    this.previewOf.set(requestId, previewId);
  }

  /** Removes a preview whose call was never invoked (or never queued). */
  withdrawPreview(previewId: string): void {
    mark('preview withdrawn');
    this.post({ type: 'withdrawn', previewId });
  }

  /** Resolves with the time the panel reported this request interactive (at once if it already did). */
  whenShown(requestId: string): Promise<number> {
    const at = this.shownAt.get(requestId);
    if (at !== undefined) return Promise.resolve(at);
    return new Promise((resolve) => {
      const subscription = this.onDidShowRequest((id) => {
        if (id !== requestId) return;
        subscription.dispose();
        resolve(this.shownAt.get(id)!);
      });
    });
  }

  /** A bare host → webview → host round trip; resolves when the panel answers. */
  ping(): Promise<void> {
    const nonce = Math.random();
    return new Promise((resolve) => {
      this.pongs.set(nonce, resolve);
      this.post({ type: 'ping', nonce });
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = this.html(view.webview);
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      view.onDidChangeVisibility(() => this.visibility.fire(view.visible)),
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        for (const s of subscriptions) s.dispose();
      }),
    ];
  }

  /** Brings the panel into view without moving focus: keys meant for an editor or terminal stay there. */
  private reveal(): void {
    if (this.view?.visible) return;
    if (this.view) return this.view.show(true);
    // Never resolved yet: only the focus command can open it. The panel itself ignores keys until
    // the user comes to a request, so nothing typed elsewhere can answer it.
    void vscode.commands.executeCommand(`${QuestionPanelView.viewType}.focus`);
  }

  /** A message from the panel (or, in a test run, from the panelMessage probe): validated, then handled. */
  receive(raw: unknown): void {
    const parsed = PanelToHostSchema.safeParse(raw);
    if (!parsed.success) {
      const where = parsed.error.issues.map((i) => i.path.join('.') || '(message)').join(', ');
      this.log.warn(`Dropped a malformed message from the Question panel (bad fields: ${where}).`);
      return;
    }
    this.handle(parsed.data);
  }

  private handle(message: PanelToHost): void {
    switch (message.type) {
      case 'ready':
        this.postSnapshot();
        if (this.requestedShow && this.broker.get(this.requestedShow)) this.post({ type: 'show', requestId: this.requestedShow });
        else if (this.requestedFocus) this.post({ type: 'focus' });
        // Only this load: a later reload (the view shown again for a new request) must not take the keyboard.
        this.requestedFocus = false;
        return;
      case 'reply':
        mark('reply received');
        void this.reply(
          message.requestId,
          message.answers,
          { values: message.secrets ?? {}, useStored: message.useStored ?? [], allWorkspaces: message.allWorkspaces ?? [], nameConfirmed: message.nameConfirmed ?? [] },
          message.note,
        );
        return;
      case 'reject':
        this.broker.reject(message.requestId, IN_THE_PANEL, message.reason);
        return;
      case 'decide':
        this.broker.decide(message.requestId, message.decision, IN_THE_PANEL, message.message, message.rule, message.scope, message.expiresAfterMinutes);
        return;
      case 'shown':
        if (message.requestId === this.requestedShow) this.requestedShow = undefined;
        this.requestedFocus = false;
        this.shownAt.set(message.requestId, Date.now());
        if (this.shownAt.size > 50) this.shownAt.delete(this.shownAt.keys().next().value!);
        this.shown.fire(message.requestId);
        return;
      case 'openQueue':
        void vscode.commands.executeCommand('agentQuestions.queue.focus');
        return;
      case 'openLink':
        void this.openLink(message.href, message.requestId);
        return;
      case 'pong':
        this.pongs.get(message.nonce)?.();
        this.pongs.delete(message.nonce);
        return;
    }
  }

  /** Stores typed secrets first; the answer then carries only their handles. */
  private async reply(requestId: string, sent: Answers, secrets: SecretInput, note?: string): Promise<void> {
    const request = this.broker.get(requestId);
    if (request?.kind !== 'questions') return void this.broker.reply(requestId, sent, IN_THE_PANEL, note); // logged and ignored there
    try {
      const resolved = await resolveSecretAnswers(request, sent, secrets, this.vault);
      if ('problem' in resolved) this.log.warn(`Ignored a reply from the Question panel for request ${requestId}: ${resolved.problem}.`);
      else this.broker.reply(requestId, resolved.answers, IN_THE_PANEL, note);
    } catch {
      this.log.error(`Could not store a secret for request ${requestId} in SecretStorage; the request is still waiting.`);
    }
  }

  /** Opens a link from the agent's markdown through VS Code, which asks before opening an untrusted site. */
  private async openLink(href: string, requestId: string): Promise<void> {
    // The webview is untrusted: only an http, https or mailto link that the waiting request it names shows
    // (rendering that one request's markdown, never every waiting request's).
    const request = this.broker.get(requestId);
    if (!isOpenableHref(href) || !request || !this.markdown.hasLink([request], href)) {
      this.log.warn('Refused to open a link from the Question panel: it is not an http, https or mailto link of a waiting request.');
      return;
    }
    try {
      await vscode.env.openExternal(vscode.Uri.parse(href, true));
    } catch {
      this.log.warn('Could not open a link from the Question panel.');
    }
  }

  private postSnapshot(): void {
    this.post({ type: 'snapshot', pending: this.broker.list(), history: this.history.list().slice(0, HISTORY_SHOWN), hostNow: Date.now(), storedSecrets: this.vault.names() });
  }

  private post(message: HostToPanel): void {
    void this.view?.webview.postMessage(message);
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const asset = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...path)).toString();
    const csp = [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src 'nonce-${nonce}' ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} blob:`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="${escapeAttribute(vscode.env.language)}">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta property="csp-nonce" content="${nonce}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" nonce="${nonce}" href="${asset('media', 'panel.css')}">
  <title>${escapeAttribute(vscode.l10n.t('Question'))}</title>
</head>
<body>
  <main id="app" aria-label="${escapeAttribute(vscode.l10n.t('Agent question'))}"></main>
  <script type="application/json" id="${PANEL_STRINGS_ELEMENT_ID}" nonce="${nonce}">${panelStrings()}</script>
  <div id="announcer" class="visually-hidden" aria-live="polite"></div>
  <script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
  <script nonce="${nonce}" defer src="${asset('dist', 'markdown.js')}"></script>
  <script nonce="${nonce}" defer src="${asset('dist', 'webviewHighlight.js')}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * The panel's strings in VS Code's display language, from the extension's l10n bundle, as JSON
 * that is safe inside a <script> element: sent once with the page, so no message waits for them.
 */
function panelStrings(): string {
  // With no bundle (English) the panel's own messages are the text; nothing to send.
  if (!vscode.l10n.bundle) return '{}';
  const table = Object.fromEntries(PANEL_MESSAGES.map((message) => [message, vscode.l10n.t(message)]));
  return JSON.stringify(table).replace(/</g, '\\u003c');
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
