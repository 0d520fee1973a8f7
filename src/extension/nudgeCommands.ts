// Nudges in VS Code: the channel (an ntfy topic URL or a webhook) is a credential, kept in
// SecretStorage and set by a command (a URL passed to it only once the user confirms its host),
// never in settings or logs; a request counts as seen while the Question panel is visible in a
// focused window. The timing, the message and which settings count are the broker's.
import * as vscode from 'vscode';
import type { QuestionBroker } from '../broker/broker';
import { Nudger, nudgeSettingsFrom, type NudgeMessage, type NudgeSettings } from '../broker/nudges';
import type { QuestionPanelView } from './questionPanelView';

const CHANNEL_KEY = 'agentQuestions.nudgeChannel';
const SEND_TIMEOUT_MS = 5_000;

export type ChannelKind = 'ntfy' | 'webhook';
interface Channel {
  kind: ChannelKind;
  url: string;
}

/** Why a URL cannot be a channel, or undefined when it can. */
export function channelUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return vscode.l10n.t('Enter a full URL, such as https://ntfy.sh/your-topic.');
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? undefined : vscode.l10n.t('The URL must start with https:// (or http://).');
}

/** Read when used, from the user's settings only (see nudgeSettingsFrom). */
function readNudgeSettings(): NudgeSettings {
  const config = vscode.workspace.getConfiguration('agentQuestions.nudge');
  return nudgeSettingsFrom((key) => config.inspect(key));
}

/** Slack reads <, > and & as markup (links, mentions): the text is escaped for it. */
const slackEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function post(channel: Channel, message: NudgeMessage): Promise<void> {
  // With the answer page on: tapping the notification (or its Answer button) opens the request's page.
  const answerHeaders: Record<string, string> = message.answerUrl ? { Click: message.answerUrl, Actions: `view, Answer, ${message.answerUrl}` } : {};
  const init: RequestInit =
    channel.kind === 'ntfy'
      ? { method: 'POST', headers: { Title: 'Agent Questions', Tags: 'question', 'Content-Type': 'text/plain; charset=utf-8', ...answerHeaders }, body: message.text }
      : {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          // `text`: Slack-style webhooks; `content` and no mentions: Discord-style.
          body: JSON.stringify({
            text: slackEscaped(message.text),
            content: message.text,
            allowed_mentions: { parse: [] },
            agent: message.agent,
            kind: message.kind,
            waiting: message.waiting,
            workspace: message.workspace,
            answerUrl: message.answerUrl,
          }),
        };
  const response = await fetch(channel.url, { ...init, redirect: 'error', signal: AbortSignal.timeout(SEND_TIMEOUT_MS) });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw Object.assign(new Error('not delivered'), { status: response.status });
}

export function registerNudges(
  context: vscode.ExtensionContext,
  broker: QuestionBroker,
  panel: QuestionPanelView,
  log: vscode.LogOutputChannel,
  answerUrl?: (requestId: string) => Promise<string | undefined>,
): Nudger {
  const channel = async (): Promise<Channel | undefined> => {
    const stored = await context.secrets.get(CHANNEL_KEY);
    if (!stored) return undefined;
    try {
      const parsed = JSON.parse(stored) as Partial<Channel>;
      return (parsed.kind === 'ntfy' || parsed.kind === 'webhook') && typeof parsed.url === 'string' ? { kind: parsed.kind, url: parsed.url } : undefined;
    } catch {
      return undefined;
    }
  };
  const isSeen = () => panel.isVisible && vscode.window.state.focused;
  const nudger = new Nudger({
    settings: readNudgeSettings,
    pending: () => broker.list(),
    isSeen,
    workspace: () => vscode.workspace.name ?? '',
    send: async (message) => {
      const to = await channel();
      if (!to) return false;
      await post(to, message);
      log.info(`Nudge sent (${message.kind}, ${message.waiting} waiting).`);
      return true;
    },
    log: (message) => log.warn(message),
    answerUrl,
  });
  const lookedAt = () => {
    if (isSeen()) nudger.seen();
  };
  context.subscriptions.push(
    { dispose: () => nudger.dispose() },
    broker.onDidChange((change) => {
      if (change.type === 'added') nudger.added(change.request);
      else nudger.settled(change.request.id);
    }),
    panel.onDidChangeVisibility(lookedAt),
    panel.onDidShowRequest(lookedAt),
    vscode.window.onDidChangeWindowState(lookedAt),
    // `{ kind, url }` as an argument (automation, another extension, a command link) is stored only
    // once the user confirms where it goes; never logged.
    vscode.commands.registerCommand('agentQuestions.setNudgeChannel', async (given?: Partial<Channel>) => {
      const kind = given?.kind ?? (await pickKind());
      if (kind !== 'ntfy' && kind !== 'webhook') return false;
      const url =
        given?.url ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t('Where nudges go'),
          prompt:
            kind === 'ntfy'
              ? vscode.l10n.t('The ntfy topic URL, such as https://ntfy.sh/a-long-random-topic. Anyone who knows it can read your nudges.')
              : vscode.l10n.t('The incoming webhook URL (Slack, Discord with /slack at the end, or any service that takes a JSON POST with a "text" field).'),
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => channelUrlProblem(value),
        }));
      if (typeof url !== 'string' || channelUrlProblem(url)) return false;
      if (given?.url !== undefined && !(await confirmChannel(url.trim()))) return false;
      await context.secrets.store(CHANNEL_KEY, JSON.stringify({ kind, url: url.trim() }));
      log.info(`Nudges go to the ${kind} channel you set (kept in VS Code's secret storage).`);
      if (!given)
        void vscode.window.showInformationMessage(
          vscode.l10n.t('Agent Questions will nudge you there when a request waits unseen for {0} s. Run "Send a Test Nudge" to check.', readNudgeSettings().afterMs / 1000),
        );
      return true;
    }),
    vscode.commands.registerCommand('agentQuestions.clearNudgeChannel', async () => {
      await context.secrets.delete(CHANNEL_KEY);
      log.info('Nudges are off: the channel was forgotten.');
      return true;
    }),
    vscode.commands.registerCommand('agentQuestions.sendTestNudge', async () => {
      const to = await channel();
      if (!to) {
        void vscode.window.showWarningMessage(vscode.l10n.t('No nudge channel is set. Run "Agent Questions: Set Where Nudges Go" first.'));
        return false;
      }
      try {
        await post(to, { text: 'Agent Questions: a test nudge from VS Code.', agent: 'Agent Questions', kind: 'question', waiting: 0, workspace: vscode.workspace.name ?? '' });
        void vscode.window.showInformationMessage(vscode.l10n.t('The test nudge was delivered.'));
        return true;
      } catch (error) {
        const status = (error as { status?: number }).status;
        void vscode.window.showErrorMessage(
          status
            ? vscode.l10n.t('The test nudge was refused (HTTP {0}). Check the URL and set it again.', status)
            : vscode.l10n.t('The test nudge could not be sent. Check the URL and your connection.'),
        );
        return false;
      }
    }),
  );
  return nudger;
}

/**
 * A URL the user did not type: whoever passed it would receive every nudge (which agent asks and
 * when, the question text if allowed). The user says yes to its host first.
 */
async function confirmChannel(url: string): Promise<boolean> {
  const send = vscode.l10n.t('Send Nudges There');
  const choice = await vscode.window.showWarningMessage(
    vscode.l10n.t('Send nudges to {0}?', new URL(url).host),
    { modal: true, detail: vscode.l10n.t('Something other than you (an extension or a link) set where Agent Questions sends nudges. Only confirm if you set this up yourself.') },
    send,
  );
  return choice === send;
}

async function pickKind(): Promise<ChannelKind | undefined> {
  const items: Array<vscode.QuickPickItem & { value: ChannelKind }> = [
    { label: vscode.l10n.t('ntfy topic'), detail: vscode.l10n.t('A push notification on your phone through ntfy.sh or your own ntfy server.'), value: 'ntfy' },
    { label: vscode.l10n.t('Webhook'), detail: vscode.l10n.t('A JSON POST with a "text" field: Slack, Discord (/slack), Teams workflows, your own service.'), value: 'webhook' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Where nudges go') });
  return picked?.value;
}
