// VS Code side of the MCP endpoint: starts and stops it with `agentQuestions.mcp.enabled`, keeps the
// token in SecretStorage, hands URL and token to new integrated terminals (never persisted), shows
// the state in the status bar tooltip and the log, and offers "Connect an External Agent…" and
// "Manage Connected Agents…".
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Policy } from '../broker/askWithPolicy';
import type { QuestionBroker } from '../broker/broker';
import { agentConfigs, HOOK_VAR, MCP_TOKEN_VAR, MCP_URL_VAR } from './agentConfigs';
import type { Attention } from './attention';
import type { McpEndpoint, SessionInfo } from './mcpEndpoint';
import { readSettings } from './settings';

type McpModule = typeof import('./mcpModule');
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

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly broker: QuestionBroker,
    private readonly policy: Policy,
    private readonly attention: Attention,
    private readonly log: vscode.LogOutputChannel,
  ) {
    // The permission hooks in the handed-out configurations run this command; with the endpoint
    // off it says so on stderr and the agent asks in its own prompt.
    context.environmentVariableCollection.replace(HOOK_VAR, join(context.extensionPath, 'dist', 'approvalHook.js'));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('agentQuestions.mcp')) void this.apply();
      }),
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
    const { mcpEnabled, mcpPort } = readSettings();
    if (this.endpoint && (!mcpEnabled || (mcpPort !== 0 && mcpPort !== this.endpoint.port))) await this.stop();
    if (!mcpEnabled || this.endpoint) return;
    this.token = await this.loadToken();
    const { McpEndpoint, createToolServer } = loadMcpModule();
    this.endpoint = await McpEndpoint.start({
      port: mcpPort,
      token: () => this.token,
      log: (message) => this.log.info(message),
      createServer: (scope) =>
        createToolServer(
          { broker: this.broker, policy: this.policy, timeoutMs: () => readSettings().timeoutSeconds * 1000, log: (m) => this.log.info(m), workspaceFolders },
          String(this.context.extension.packageJSON.version),
          scope,
        ),
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
      this.attention.setExternalStatus(`External agents: MCP endpoint on ${this.endpoint.url} (terminals opened from now on have $${MCP_URL_VAR} and $${MCP_TOKEN_VAR}).`);
    } else {
      environment.delete(MCP_URL_VAR);
      environment.delete(MCP_TOKEN_VAR);
      this.attention.setExternalStatus(undefined);
    }
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const port = readSettings().mcpPort;
    const hint = /EADDRINUSE/.test(message) ? ` Port ${port} is in use: set agentQuestions.mcp.port to another port, or 0 for a free one.` : '';
    this.log.error(`External agents: the MCP endpoint could not start: ${message}`);
    void vscode.window.showErrorMessage(`Agent Questions: the endpoint for external agents could not start.${hint}`, 'Open Settings').then((choice) => {
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
      const choice = await vscode.window.showWarningMessage('Rotate the token for external agents? Agents connected with the old token will be refused; terminals opened from now on get the new one.', { modal: true }, 'Rotate');
      if (choice !== 'Rotate') return;
    }
    this.token = randomBytes(32).toString('base64url');
    await this.context.secrets.store(TOKEN_KEY, this.token);
    this.publish();
    this.log.info('External agents: token rotated');
    if (!options?.skipConfirmation) void vscode.window.showInformationMessage('Agent Questions: the token was rotated. Open a new terminal for agents to pick it up.');
  }

  /** A quick pick of open sessions; the one picked is disconnected after a confirmation. */
  private async manageConnected(options?: { disconnect?: number }): Promise<boolean | void> {
    if (options?.disconnect !== undefined) return this.endpoint?.disconnect(options.disconnect) ?? false;
    const sessions = this.endpoint?.sessions() ?? [];
    if (!sessions.length) {
      void vscode.window.showInformationMessage(this.endpoint ? 'Agent Questions: no external agent is connected.' : 'Agent Questions: the endpoint for external agents is off.');
      return;
    }
    const time = (ms: number) => new Date(ms).toLocaleTimeString();
    const calls = (n: number) => (n === 1 ? '1 call waiting' : `${n} calls waiting`);
    // Those with calls waiting first, then the most recently used.
    const ordered = [...sessions].sort((a, b) => b.waiting - a.waiting || b.lastUsedAt - a.lastUsedAt);
    const picked = await vscode.window.showQuickPick(
      ordered.map((session) => ({
        label: session.name,
        description: `name self-reported · token ${session.tokenId}`,
        detail: `Opened ${time(session.openedAt)} · last used ${time(session.lastUsedAt)} · ${calls(session.waiting)}`,
        session,
      })),
      { title: 'Agent Questions: Connected Agents', placeHolder: 'Pick an agent to disconnect it. Names are what each agent says of itself.' },
    );
    if (!picked) return;
    const session: SessionInfo = picked.session;
    const choice = await vscode.window.showWarningMessage(
      `Disconnect "${session.name}" (token ${session.tokenId})?`,
      { modal: true, detail: `${session.waiting ? `Its ${calls(session.waiting)} will be cancelled. ` : ''}It can reconnect with the token; rotate the token to lock it out.` },
      'Disconnect',
    );
    if (choice !== 'Disconnect') return;
    this.endpoint?.disconnect(session.key);
    const next = await vscode.window.showInformationMessage(`Agent Questions: disconnected "${session.name}". It can reconnect with the token; rotate the token to lock it out.`, 'Rotate Token…');
    if (next) await this.rotateToken();
  }

  private async connect(): Promise<void> {
    if (!this.endpoint) {
      const choice = await vscode.window.showInformationMessage(
        'The endpoint for external agents (Claude Code, Codex CLI, OpenCode, …) is off. Turn it on? It listens on 127.0.0.1 only and requires a token.',
        'Turn On',
      );
      if (choice !== 'Turn On') return;
      await vscode.workspace.getConfiguration('agentQuestions').update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
      await this.apply();
      if (!this.endpoint) return;
    }
    const url = this.endpoint.url;
    const configs = agentConfigs(url);
    const items = [
      ...configs.map((config) => ({ label: `$(copy) Copy configuration for ${config.agent}`, detail: config.where, text: config.text, agent: config.agent as string })),
      { label: '$(copy) Copy the endpoint URL', detail: url, text: url, agent: 'URL' },
      { label: '$(key) Rotate the token…', detail: 'Agents using the old token are refused', text: '', agent: 'rotate' },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: `External agents: ${url}`,
      placeHolder: `Terminals opened from now on have $${MCP_URL_VAR} and $${MCP_TOKEN_VAR}; the configurations read them.`,
    });
    if (!picked) return;
    if (picked.agent === 'rotate') return this.rotateToken();
    await vscode.env.clipboard.writeText(picked.text);
    void vscode.window.showInformationMessage(
      picked.agent === 'URL' ? `Copied ${url}.` : `Copied the ${picked.agent} configuration. Start ${picked.agent} from a new VS Code terminal, where $${MCP_TOKEN_VAR} is set.`,
    );
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    void this.endpoint?.close();
    this.endpoint = undefined;
  }
}
