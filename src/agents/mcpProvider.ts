/**
 * Offers the bundled MCP server (dist/mcp.js) to VS Code's MCP support, for the signed-in account.
 * `provideMcpServerDefinitions` runs eagerly and its result may be kept by VS Code, so it carries
 * the addresses only; the API key is added in `resolveMcpServerDefinition`, when VS Code is about
 * to start the server, and only to its environment (never its arguments). A password sign-in has
 * no API key to share (its refresh tokens are single-use, so a token session is never handed to
 * another process): the user is asked for one, and it is kept as the account's hub key.
 */
import * as vscode from 'vscode';
import { accountKey, accountsMenuLabel } from '../account/accountSession';
import type { Account, Endpoints } from '../account/clientHolder';
import type { Event } from '../platform/emitter';
import { MCP_ENV } from './mcpEnv';

const t = vscode.l10n.t;

export interface McpProviderDeps {
  account(): Account | undefined;
  endpoints(): Endpoints;
  idle(): Promise<void>;
  onDidChangeAccount: Event<unknown>;
  /** The account's API key: the key it signed in with, or the hub key of a password sign-in. */
  readApiKey(): Promise<string | undefined>;
  /** Asks the user for an API key (undefined: dismissed) and keeps it for this password sign-in. */
  askAndStoreApiKey(): Promise<string | undefined>;
  /** Absolute path of dist/mcp.js. */
  serverPath: string;
  /** The extension's version: part of the definition's version. */
  version: string;
  requestsPerSecond(): number;
  showMessage(message: string): void;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

export class ScrapedeckMcpProvider implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscription: { dispose(): void };

  constructor(private readonly deps: McpProviderDeps) {
    // A new account is a new server (its label and version change); signed out, there is none.
    this.subscription = deps.onDidChangeAccount(() => this.changed.fire());
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    const account = this.deps.account();
    return account === undefined ? [] : [this.definition(account)];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition | undefined> {
    await this.deps.idle();
    const account = this.deps.account();
    if (account === undefined) {
      this.deps.showMessage(t('Sign in to Scrapedeck to start its MCP server.'));
      return undefined;
    }
    if (server.label !== this.label(account)) {
      // Offered for an account that is no longer signed in: its key must not start it.
      this.deps.log.warn(`MCP server “${server.label}” belongs to an account that is no longer signed in; not started.`);
      this.changed.fire();
      return undefined;
    }
    let apiKey = await this.deps.readApiKey();
    if (apiKey === undefined) {
      apiKey = await this.deps.askAndStoreApiKey();
      if (apiKey === undefined) {
        this.deps.showMessage(t('The Scrapedeck MCP server needs an API key, so it was not started.'));
        return undefined;
      }
    }
    server.env = { ...server.env, [MCP_ENV.apiKey]: apiKey };
    this.deps.log.info(`Starting the Scrapedeck MCP server for ${accountsMenuLabel(account)} (the API key is in its environment).`);
    return server;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private label(account: Account): string {
    return t('Scrapedeck: {0}', accountsMenuLabel(account));
  }

  private definition(account: Account): vscode.McpStdioServerDefinition {
    const { baseUrl, datahubUrl } = this.deps.endpoints();
    const env: Record<string, string> = {
      [MCP_ENV.baseUrl]: baseUrl,
      [MCP_ENV.requestsPerSecond]: String(this.deps.requestsPerSecond()),
      // process.execPath is Electron in VS Code desktop: run it as plain Node (ignored by Node).
      ELECTRON_RUN_AS_NODE: '1',
      ...(datahubUrl === undefined ? {} : { [MCP_ENV.datahubUrl]: datahubUrl }),
    };
    return new vscode.McpStdioServerDefinition(this.label(account), process.execPath, [this.deps.serverPath], env, `${this.deps.version}+${accountKey(account).slice(0, 8)}`);
  }
}
