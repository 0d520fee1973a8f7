// VS Code side of the MCP endpoint: starts and stops it with `agentQuestions.mcp.enabled`, keeps the
// token in SecretStorage, hands URL and token to new integrated terminals (never persisted), shows
// the state in the status bar tooltip and the log, and offers "Connect an External Agent…" and
// "Manage Connected Agents…".
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LaterAnswers } from '../broker/questions/laterAnswers';
import type { Policy } from '../broker/askWithPolicy';
import type { QuestionBroker } from '../broker/broker';
import { HOOK_VAR, MCP_TOKEN_VAR, MCP_URL_VAR } from '../broker/contract/wireNames';
import type { Attention } from './attention';
import type { McpEndpoint, SessionInfo } from '../mcp/mcpEndpoint';
import { readSettings } from './settings';
import type { EndpointDiscoveryFile } from '../mcp/endpointDiscoveryFile';

type McpModule = typeof import('../mcp/mcpModule');
// A computed path, so esbuild leaves the require alone: dist/mcp.js is its own bundle.
const loadMcpModule = (): McpModule => require(join(__dirname, 'mcp.js')) as McpModule;

const TOKEN_KEY = 'agentQuestions.mcp.token';
const workspaceFolders = () => (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);

export class ExternalAgents implements vscode.Disposable {
  private endpoint: McpEndpoint | undefined;
  private token = '';
  /** Serialises start/stop, so quick setting changes never race. */
  private queue: Promise<void> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  /** Where the hook VS Code's own agent runs finds the endpoint (it has no terminal's variables). */
  private discovery: EndpointDiscoveryFile | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly broker: QuestionBroker,
    private readonly policy: Policy,
    private readonly later: LaterAnswers,
    private readonly attention: Attention,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // The permission hooks in the handed-out configurations run this command; with the endpoint
    // off it says so on stderr and the agent asks in its own prompt.
    context.environmentVariableCollection.replace(HOOK_VAR, join(context.extensionPath, 'dist', 'approvalHook.js'));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        // The endpoint's settings and agentQuestions.vscodeAgent.hooks (its hook asks through the endpoint); apply() changes nothing else.
        if (event.affectsConfiguration('agentQuestions')) void this.apply();
        if (event.affectsConfiguration('agentQuestions.vscodeAgent.waitSeconds')) this.writeDiscovery();
      }),
      // The hook picks the window whose folder holds the agent's folder.
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.writeDiscovery()),
      vscode.commands.registerCommand('agentQuestions.connectExternalAgent', () => this.connect()),
      vscode.commands.registerCommand('agentQuestions.rotateMcpToken', (options?: { skipConfirmation?: boolean }) => this.rotateToken(options)),
      // Tests pass { disconnect: key } to disconnect a session without the UI.
      vscode.commands.registerCommand('agentQuestions.manageConnectedAgents', (options?: { disconnect?: number }) => this.manageConnected(options)),
      // Not in the palette: the endpoint's state, for tests and the benchmark. Never the token.
      vscode.commands.registerCommand('agentQuestions.internal.mcpState', () => ({
        url: this.endpoint?.url,
        clients: this.endpoint?.clients() ?? [],
        sessions: this.endpoint?.sessions() ?? [],
        tooltip: attention.tooltip(),
      })),
    );
  }

  /** Starts, restarts or stops the endpoint to match the settings. */
  apply(): Promise<void> {
    this.queue = this.queue.then(() => this.applyNow()).catch((error: unknown) => this.fail(error));
    return this.queue;
  }

  private async applyNow(): Promise<void> {
    const { mcpEnabled: external, mcpPort, vscodeAgentHooks } = readSettings();
    // The hook for VS Code's own agent asks through the endpoint too.
    const mcpEnabled = external || vscodeAgentHooks;
    if (this.endpoint && (!mcpEnabled || (mcpPort !== 0 && mcpPort !== this.endpoint.port))) await this.stop();
    if (!mcpEnabled || this.endpoint) return;
    this.token = await this.loadToken();
    const { McpEndpoint, approveDecider, createToolServer, EndpointDiscoveryFile } = loadMcpModule();
    this.discovery ??= new EndpointDiscoveryFile();
    const tools = {
      broker: this.broker,
      policy: this.policy,
      later: this.later,
      timeoutMs: () => readSettings().timeoutSeconds * 1000,
      log: (m: string) => this.log.info(m),
      workspaceFolders,
    };
    this.endpoint = await McpEndpoint.start({
      port: mcpPort,
      token: () => this.token,
      log: (message) => this.log.info(message),
      createServer: (scope) => createToolServer(tools, String(this.context.extension.packageJSON.version), scope),
      decide: approveDecider(tools),
    });
    this.publish();
    this.log.info(`External agents: MCP endpoint listening on ${this.endpoint.url}`);
  }

  private async stop(): Promise<void> {
    const endpoint = this.endpoint;
    this.endpoint = undefined;
    await endpoint?.close();
    this.publish();
    this.log.info('External agents: MCP endpoint stopped');
  }

  /** New terminals get the URL and token; the status bar tooltip says where we listen. */
  private publish(): void {
    const environment = this.context.environmentVariableCollection;
    if (this.endpoint) {
      environment.replace(MCP_URL_VAR, this.endpoint.url);
      environment.replace(MCP_TOKEN_VAR, this.token);
      this.writeDiscovery();
      this.attention.setExternalStatus(
        vscode.l10n.t('External agents: MCP endpoint on {0} (terminals opened from now on have ${1} and ${2}).', this.endpoint.url, MCP_URL_VAR, MCP_TOKEN_VAR),
      );
    } else {
      environment.delete(MCP_URL_VAR);
      environment.delete(MCP_TOKEN_VAR);
      this.discovery?.remove();
      this.attention.setExternalStatus(undefined);
    }
  }

  /** The discovery file for the hook VS Code's own agent runs, while the endpoint listens. */
  private writeDiscovery(): void {
    if (this.endpoint) this.discovery?.write(this.endpoint.url, this.token, workspaceFolders(), this.log, readSettings().vscodeAgentWaitSeconds);
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const port = readSettings().mcpPort;
    const text = /EADDRINUSE/.test(message)
      ? vscode.l10n.t(
          'Agent Questions: the endpoint for external agents could not start. Port {0} is in use: set agentQuestions.mcp.port to another port, or 0 for a free one.',
          port,
        )
      : vscode.l10n.t('Agent Questions: the endpoint for external agents could not start.');
    this.log.error(`External agents: the MCP endpoint could not start: ${message}`);
    void vscode.window.showErrorMessage(text, vscode.l10n.t('Open Settings')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', 'agentQuestions.mcp');
    });
  }

  private async loadToken(): Promise<string> {
    const stored = await this.context.secrets.get(TOKEN_KEY);
    if (stored) return stored;
    const fresh = randomBytes(32).toString('base64url');
    await this.context.secrets.store(TOKEN_KEY, fresh);
    return fresh;
  }

  private async rotateToken(options?: { skipConfirmation?: boolean }): Promise<void> {
    if (!options?.skipConfirmation) {
      const rotate = vscode.l10n.t('Rotate');
      const choice = await vscode.window.showWarningMessage(
        vscode.l10n.t('Rotate the token for external agents? Agents connected with the old token will be refused; terminals opened from now on get the new one.'),
        { modal: true },
        rotate,
      );
      if (choice !== rotate) return;
    }
    this.token = randomBytes(32).toString('base64url');
    await this.context.secrets.store(TOKEN_KEY, this.token);
    this.publish();
    this.log.info('External agents: token rotated');
    if (!options?.skipConfirmation)
      void vscode.window.showInformationMessage(vscode.l10n.t('Agent Questions: the token was rotated. Open a new terminal for agents to pick it up.'));
  }

  /** A quick pick of open sessions; the one picked is disconnected after a confirmation. */
  private async manageConnected(options?: { disconnect?: number }): Promise<boolean | void> {
    if (options?.disconnect !== undefined) return this.endpoint?.disconnect(options.disconnect) ?? false;
    const sessions = this.endpoint?.sessions() ?? [];
    if (!sessions.length) {
      void vscode.window.showInformationMessage(
        this.endpoint ? vscode.l10n.t('Agent Questions: no external agent is connected.') : vscode.l10n.t('Agent Questions: the endpoint for external agents is off.'),
      );
      return;
    }
    const time = (ms: number) => new Date(ms).toLocaleTimeString(vscode.env.language);
    const calls = (n: number) => (n === 1 ? vscode.l10n.t('1 call waiting') : vscode.l10n.t('{0} calls waiting', n));
    // Those with calls waiting first, then the most recently used.
    const ordered = [...sessions].sort((a, b) => b.waiting - a.waiting || b.lastUsedAt - a.lastUsedAt);
    const picked = await vscode.window.showQuickPick(
      ordered.map((session) => ({
        label: session.name,
        description: vscode.l10n.t('name self-reported · token {0}', session.tokenId),
        detail: vscode.l10n.t('Opened {0} · last used {1} · {2}', time(session.openedAt), time(session.lastUsedAt), calls(session.waiting)),
        session,
      })),
      { title: vscode.l10n.t('Agent Questions: Connected Agents'), placeHolder: vscode.l10n.t('Pick an agent to disconnect it. Names are what each agent says of itself.') },
    );
    if (!picked) return;
    const session: SessionInfo = picked.session;
    const disconnect = vscode.l10n.t('Disconnect');
    const reconnect = vscode.l10n.t('It can reconnect with the token; rotate the token to lock it out.');
    const cancelled =
      session.waiting === 0
        ? ''
        : session.waiting === 1
          ? vscode.l10n.t('Its 1 waiting call will be cancelled.')
          : vscode.l10n.t('Its {0} waiting calls will be cancelled.', session.waiting);
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Disconnect "{0}" (token {1})?', session.name, session.tokenId),
      { modal: true, detail: cancelled ? `${cancelled} ${reconnect}` : reconnect },
      disconnect,
    );
    if (choice !== disconnect) return;
    this.endpoint?.disconnect(session.key);
    const next = await vscode.window.showInformationMessage(
      vscode.l10n.t('Agent Questions: disconnected "{0}". It can reconnect with the token; rotate the token to lock it out.', session.name),
      vscode.l10n.t('Rotate Token…'),
    );
    if (next) await this.rotateToken();
  }

  private async connect(): Promise<void> {
    if (!this.endpoint) {
      const turnOn = vscode.l10n.t('Turn On');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('The endpoint for external agents (Claude Code, Codex CLI, OpenCode, …) is off. Turn it on? It listens on 127.0.0.1 only and requires a token.'),
        turnOn,
      );
      if (choice !== turnOn) return;
      await vscode.workspace.getConfiguration('agentQuestions').update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
      await this.apply();
      if (!this.endpoint) return;
    }
    const url = this.endpoint.url;
    const configs = loadMcpModule().agentConfigs(url, vscode.l10n);
    const items = [
      ...configs.map((config) => ({
        label: `$(copy) ${vscode.l10n.t('Copy configuration for {0}', config.agent)}`,
        detail: config.where,
        text: config.text,
        agent: config.agent as string,
      })),
      { label: `$(copy) ${vscode.l10n.t('Copy the endpoint URL')}`, detail: url, text: url, agent: 'URL' },
      { label: `$(key) ${vscode.l10n.t('Rotate the token…')}`, detail: vscode.l10n.t('Agents using the old token are refused'), text: '', agent: 'rotate' },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('External agents: {0}', url),
      placeHolder: vscode.l10n.t('Terminals opened from now on have ${0} and ${1}; the configurations read them.', MCP_URL_VAR, MCP_TOKEN_VAR),
    });
    if (!picked) return;
    if (picked.agent === 'rotate') return this.rotateToken();
    await vscode.env.clipboard.writeText(picked.text);
    void vscode.window.showInformationMessage(
      picked.agent === 'URL'
        ? vscode.l10n.t('Copied {0}.', url)
        : vscode.l10n.t('Copied the {0} configuration. Start {0} from a new VS Code terminal, where ${1} is set.', picked.agent, MCP_TOKEN_VAR),
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.endpoint?.close();
    this.endpoint = undefined;
    this.discovery?.remove();
  }
}
