// The entry of dist/answerPage.js, loaded only while agentQuestions.answerPage.enabled is on (see
// answerPageAdapter.ts): the answer page server on 127.0.0.1 only, its words in the user's language,
// and its links through vscode.env.asExternalUri, VS Code's own forwarding (code-server's proxy, Remote
// Tunnels, Codespaces). Where that leaves a link on the loopback (desktop VS Code without a tunnel), it
// works on this machine only: the page is never served on another address.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import { clampSetting } from '../broker/settingRanges';
import { AnswerPageServer } from '../answerPage/answerPageServer';
import type { AnswerPageStrings } from '../answerPage/answerPageStrings';
import type { PortMemory } from '../answerPage/answerPageServer';
import { MarkdownRenderer } from './markdownRenderer';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
/** Whether a URL still points at this machine's loopback (no forwarding in between). */
export const isLoopbackUrl = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname.toLowerCase());

/**
 * Whether the forwarding serves the page under a path (code-server's /proxy/<port>/ or
 * /absproxy/<port>/) rather than at an origin's root: that origin is shared with whatever else it serves.
 */
export const isPathProxy = (base: URL): boolean => !isLoopbackUrl(base) && base.pathname !== '/';

export class AnswerPageHost {
  private readonly server: AnswerPageServer;

  constructor(
    broker: QuestionBroker,
    private readonly log: vscode.LogOutputChannel,
    private readonly linkMinutes: number,
    lastPort: PortMemory,
  ) {
    const markdown = new MarkdownRenderer((message) => log.warn(message));
    this.server = new AnswerPageServer(broker, {
      linkTtlMs: linkMinutes * 60_000,
      log: (message) => log.warn(message),
      strings: pageStrings(),
      lang: vscode.env.language,
      renderMarkdown: (source) => markdown.tree(source),
      lastPort,
    });
  }

  async start(): Promise<void> {
    await this.server.start();
    // Where the forwarding serves it (code-server's proxy, a tunnel), the page's POSTs come from there.
    const base = await this.externalBase();
    this.log.info(`The answer page is on (127.0.0.1 only; links work for ${this.linkMinutes} min).`);
    // code-server's /proxy/<port>/: the local apps it proxies share the page's origin, so the Origin check cannot tell them apart.
    if (isPathProxy(base))
      this.log.warn(`The answer page shares its origin (${base.origin}) with every app the forwarding serves there; code-server's --proxy-domain or a tunnel gives it its own.`);
  }

  /** Stopping voids every link handed out. */
  async stop(): Promise<void> {
    await this.server.stop();
    this.log.info('The answer page is off.');
  }

  /** The link for a request as the user's phone reaches it (asExternalUri); undefined if there is none. */
  async externalUrlFor(requestId: string): Promise<string | undefined> {
    const local = this.server.urlFor(requestId);
    if (!local) return undefined;
    try {
      return (await this.external(local)).toString();
    } catch (error) {
      // The nudge still goes out, without a link.
      this.log.warn(`No answer page link for the nudge (${error instanceof Error ? error.name : 'error'}).`);
      return undefined;
    }
  }

  /** Says where links will point, or that VS Code forwards nothing here. Resolves to the page's base URL. */
  async announce(): Promise<string> {
    const base = await this.externalBase();
    if (isPathProxy(base)) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          "The answer page is on. Links in nudges open it at {0}, under code-server's path proxy: every local app it proxies (a dev server an agent starts included) shares that origin, so the page cannot tell their requests from its own. Start code-server with --proxy-domain, or use a Remote Tunnel, to give the page an origin of its own.",
          base.toString(),
        ),
      );
    } else if (isLoopbackUrl(base)) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          "The answer page is on, but its links lead to this computer's loopback address ({0}), which a phone cannot open. To answer from your phone, open this folder through a Remote Tunnel, a Codespace or code-server on an address your phone reaches; the page is never served on another address.",
          base.origin,
        ),
      );
    } else {
      void vscode.window.showInformationMessage(vscode.l10n.t("The answer page is on. Links in nudges open it at {0}, through VS Code's forwarding.", base.origin));
    }
    return base.toString();
  }

  private externalBase(): Promise<URL> {
    return this.external(`http://127.0.0.1:${this.server.port}/`);
  }

  /** asExternalUri; a forwarder's origin it gives is one the page accepts POSTs from. */
  private async external(local: string): Promise<URL> {
    const uri = await vscode.env.asExternalUri(vscode.Uri.parse(local));
    const url = new URL(uri.toString(true));
    // Any origin the forwarding gave (a tunnel, code-server's proxy even on a loopback port), never a guess.
    if (url.origin !== new URL(local).origin) this.server.allowOrigin(url.origin);
    return url;
  }
}

/** From the user's settings only: a repository's settings must not open a page onto its requests. */
function readAnswerPageSettings(): { enabled: boolean; linkMinutes: number } {
  const config = vscode.workspace.getConfiguration('agentQuestions.answerPage');
  const user = (key: string) => {
    const values = config.inspect(key);
    return values?.globalValue ?? values?.defaultValue;
  };
  const minutes = user('linkMinutes');
  return {
    enabled: user('enabled') === true,
    linkMinutes: typeof minutes === 'number' && Number.isFinite(minutes) ? clampSetting('agentQuestions.answerPage.linkMinutes', minutes) : 30,
  };
}

/** Starts and stops the page as the settings say; made on first need by answerPageAdapter.ts. */
export class AnswerPageSwitch implements vscode.Disposable {
  private host: AnswerPageHost | undefined;
  private linkMinutes = 0;
  /** apply() runs one at a time: a quick off/on never leaves two servers. */
  private applying: Promise<void> = Promise.resolve();

  constructor(
    private readonly broker: QuestionBroker,
    private readonly log: vscode.LogOutputChannel,
    private readonly lastPort: PortMemory,
  ) {}

  /** Starts or stops the page to match the settings (a new link lifetime restarts it); resolves once done. */
  apply(): Promise<void> {
    this.applying = this.applying
      .then(async () => {
        const { enabled, linkMinutes } = readAnswerPageSettings();
        if (this.host && (!enabled || linkMinutes !== this.linkMinutes)) {
          const host = this.host;
          this.host = undefined;
          await host.stop();
        }
        if (!enabled || this.host) return;
        const host = new AnswerPageHost(this.broker, this.log, linkMinutes, this.lastPort);
        await host.start();
        this.host = host;
        this.linkMinutes = linkMinutes;
      })
      .catch((error) => this.log.error(`The answer page could not start (${error instanceof Error ? error.message : String(error)}).`));
    return this.applying;
  }

  /** The request's link for a nudge, or undefined while the page is off. */
  async externalUrlFor(requestId: string): Promise<string | undefined> {
    await this.applying;
    return this.host?.externalUrlFor(requestId);
  }

  /** Turns the setting on (user settings) and says where links lead; resolves to the page's base URL. */
  async turnOn(): Promise<string | undefined> {
    await vscode.workspace.getConfiguration('agentQuestions.answerPage').update('enabled', true, vscode.ConfigurationTarget.Global);
    await this.apply();
    if (this.host) return this.host.announce();
    void vscode.window.showErrorMessage(vscode.l10n.t('The answer page could not start. See the Agent Questions output for why.'));
    return undefined;
  }

  dispose(): void {
    void this.host?.stop();
    this.host = undefined;
  }
}

/** The page's words in the VS Code user's language. */
function pageStrings(): AnswerPageStrings {
  return {
    pageTitle: vscode.l10n.t('Agent Questions'),
    askedBy: vscode.l10n.t('Asked by {0}'),
    questionsHeading: vscode.l10n.t('The agent asks'),
    permissionHeading: vscode.l10n.t('The agent asks to run'),
    recommended: vscode.l10n.t('Recommended'),
    other: vscode.l10n.t('Other…'),
    otherAnswer: vscode.l10n.t('Your own answer'),
    textAnswer: vscode.l10n.t('Your answer'),
    addNote: vscode.l10n.t('Add a note'),
    note: vscode.l10n.t('Note for the agent (optional)'),
    unansweredSkipped: vscode.l10n.t('A question left without an answer is sent as skipped.'),
    send: vscode.l10n.t('Send answers'),
    command: vscode.l10n.t('Command'),
    noInput: vscode.l10n.t('{0} with no input.'),
    checkBeforeAllowing: vscode.l10n.t('Check before allowing:'),
    invisibleCharacters: vscode.l10n.t('Contains invisible characters ({0}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.'),
    invisibleCharactersCounted: vscode.l10n.t('Contains {0} invisible characters ({1}), shown as ⟨U+…⟩ markers: the text may not read the way it runs.'),
    imageNotLoaded: vscode.l10n.t('[image: {0}]'),
    allowOnce: vscode.l10n.t('Allow once'),
    deny: vscode.l10n.t('Deny'),
    denyMessage: vscode.l10n.t('Message for the agent, sent with Deny (optional)'),
    secretInVsCode: vscode.l10n.t('This request asks for a secret. Answer it in VS Code: a secret is never typed into this page.'),
    answered: vscode.l10n.t('Answered'),
    answeredDetail: vscode.l10n.t('Your answer was sent to the agent. You can close this page.'),
    noLongerWaiting: vscode.l10n.t('No longer waiting'),
    noLongerWaitingDetail: vscode.l10n.t(
      'This link does not work (any more): the request was answered elsewhere, cancelled or expired, or the link is not valid. VS Code shows what still waits.',
    ),
    doesNotFit: vscode.l10n.t('The answer does not fit the question ({0}). Go back and try again.'),
  };
}
