/**
 * Offers the bundled MCP server (dist/mcp.js) to VS Code's MCP support, for the signed-in account.
 * `provideMcpServerDefinitions` runs eagerly and its result may be kept by VS Code, so it carries
 * the addresses only; the API key is added in `resolveMcpServerDefinition`, when VS Code is about
 * to start the server, and only to its environment (never its arguments). Resolving never patches
 * the definition VS Code hands back: one offered for another account or other addresses (its
 * version carries a fingerprint of both) is refused, and the definition that starts is built
 * again from the account signed in at that moment, so the key goes only with that account's own
 * addresses. A password sign-in has no API key to share (its refresh tokens are single-use, so a
 * token session is never handed to another process): the user is asked for one, and it is kept as
 * the account's hub key.
 */
import { createHash } from 'node:crypto';

import * as vscode from 'vscode';

import { accountKey, accountsMenuLabel } from '../account/accountSession';
import type { Account } from '../account/clientHolder';
import type { Event } from '../platform/emitter';
import { MCP_ENV } from './mcpEnv';

const t = vscode.l10n.t;

export interface McpProviderDeps {
  account(): Account | undefined;
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
  /** Where the server tells this window of the runs it starts or stops (runNotices.ts), per account. */
  runNoticesFile?(account: Account): string | undefined;
  showMessage(message: string): void;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
}

export class ScrapedeckMcpProvider
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable
{
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

  async resolveMcpServerDefinition(
    server: vscode.McpStdioServerDefinition,
  ): Promise<vscode.McpStdioServerDefinition | undefined> {
    await this.deps.idle();
    const account = this.deps.account();
    if (account === undefined) {
      this.deps.showMessage(t('Sign in to Scrapedeck to start its MCP server.'));
      return undefined;
    }
    if (!this.isCurrent(server, account)) {
      // Offered for an account or addresses no longer in use: the current key must not start it.
      this.deps.log.warn(
        `MCP server “${server.label}” was offered for another account or other addresses than the ones in use; not started.`,
      );
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
    // The key was read (or asked for) over an await: it belongs to whoever is signed in now, so
    // it goes out only if that is still the account and the addresses this started for.
    const now = this.deps.account();
    if (now === undefined || this.fingerprint(now) !== this.fingerprint(account)) {
      this.deps.log.warn(
        'The Scrapedeck account or its addresses changed while the MCP server was starting; not started.',
      );
      this.changed.fire();
      return undefined;
    }
    const resolved = this.definition(account);
    resolved.env = { ...resolved.env, [MCP_ENV.apiKey]: apiKey };
    // The command, so a user can configure other MCP clients with the same file (README).
    this.deps.log.info(
      `Starting the Scrapedeck MCP server for ${accountsMenuLabel(account)}: ${resolved.command} ${resolved.args.join(' ')} (the API key is in its environment).`,
    );
    return resolved;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private label(account: Account): string {
    return t('Scrapedeck: {0}', accountsMenuLabel(account, t));
  }

  /** This account at these addresses (the service's and the hub's), as a short hash: no secret, no address in clear. */
  private fingerprint(account: Account): string {
    const { baseUrl, datahubUrl } = this.addresses(account);
    return createHash('sha256')
      .update(JSON.stringify([accountKey(account), baseUrl, datahubUrl ?? null]))
      .digest('hex')
      .slice(0, 16);
  }

  /** The account's own addresses: where it signed in, and its hub. */
  private addresses(account: Account): { baseUrl: string; datahubUrl: string | undefined } {
    return { baseUrl: account.baseUrl, datahubUrl: account.datahubUrl };
  }

  /** Whether VS Code handed back the definition that would be offered now: same name, same fingerprint, same addresses. */
  private isCurrent(server: vscode.McpStdioServerDefinition, account: Account): boolean {
    const current = this.definition(account);
    const keys = [MCP_ENV.baseUrl, MCP_ENV.datahubUrl] as const;
    return (
      server.label === current.label &&
      server.version === current.version &&
      keys.every((k) => (server.env[k] ?? undefined) === (current.env[k] ?? undefined))
    );
  }

  private definition(account: Account): vscode.McpStdioServerDefinition {
    const { baseUrl, datahubUrl } = this.addresses(account);
    const env: Record<string, string> = {
      [MCP_ENV.baseUrl]: baseUrl,
      [MCP_ENV.requestsPerSecond]: String(this.deps.requestsPerSecond()),
      // process.execPath is Electron in VS Code desktop: run it as plain Node (ignored by Node).
      ELECTRON_RUN_AS_NODE: '1',
      ...(datahubUrl === undefined ? {} : { [MCP_ENV.datahubUrl]: datahubUrl }),
    };
    const notices = this.deps.runNoticesFile?.(account);
    if (notices !== undefined) env[MCP_ENV.runNotices] = notices;
    return new vscode.McpStdioServerDefinition(
      this.label(account),
      process.execPath,
      [this.deps.serverPath],
      env,
      `${this.deps.version}+${this.fingerprint(account)}`,
    );
  }
}
