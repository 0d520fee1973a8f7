// The Question webview view: shows the head of the queue and turns the panel's typed
// messages into broker calls. Everything the webview sends is validated and otherwise dropped.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import { PanelToHostSchema, type HostToPanel, type PanelToHost } from '../broker/protocol';
import { readSettings } from './settings';

export class QuestionPanelView implements vscode.WebviewViewProvider, vscode.Disposable {
  static readonly viewType = 'agentQuestions.panel';
  private view: vscode.WebviewView | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly broker: QuestionBroker,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      broker.onDidChange((change) => {
        this.postSnapshot();
        if (change.type === 'added' && readSettings().revealOnAsk) this.reveal();
      }),
    );
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
      view.onDidDispose(() => {
        if (this.view === view) this.view = undefined;
        for (const s of subscriptions) s.dispose();
      }),
    ];
  }

  private reveal(): void {
    if (this.view?.visible) return;
    void vscode.commands.executeCommand(`${QuestionPanelView.viewType}.focus`);
  }

  private receive(raw: unknown): void {
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
        return this.postSnapshot();
      case 'reply':
        this.broker.reply(message.requestId, message.answers);
        return;
      case 'reject':
        this.broker.reject(message.requestId, message.reason);
        return;
      case 'decide':
        this.broker.decide(message.requestId, message.decision);
        return;
    }
  }

  private postSnapshot(): void {
    const message: HostToPanel = { type: 'snapshot', pending: this.broker.list() };
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
      `img-src ${webview.cspSource}`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <meta http-equiv="Content-Security-Policy" content="${csp}">
  <meta property="csp-nonce" content="${nonce}">
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  <link rel="stylesheet" nonce="${nonce}" href="${asset('media', 'panel.css')}">
  <title>Question</title>
</head>
<body>
  <main id="app" aria-label="Agent question"></main>
  <div id="announcer" class="visually-hidden" aria-live="polite"></div>
  <script nonce="${nonce}" src="${asset('dist', 'webview.js')}"></script>
</body>
</html>`;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}
