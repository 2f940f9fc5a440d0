/**
 * Who is signed in, to which service address, and the one client that talks for them.
 *
 * Secrets live only in SecretStorage under a key per service address (see credentials.ts); the
 * label and method live in globalState. The service follows other windows through
 * `secrets.onDidChange`, follows settings by rebuilding the client, and hands the client a
 * CredentialsStore that writes renewed sessions back to SecretStorage.
 */
import * as vscode from 'vscode';
import type { Credentials, CredentialsStore } from '../api/auth';
import type { ScrapedeckClient } from '../api/client';
import type { Configuration, SettingsChange } from '../platform/configuration';
import type { Ui } from '../platform/ui';
import {
  accountMetaKey,
  apiKeyLabel,
  credentialsKey,
  fallbackMeta,
  hubKeyOf,
  normalizeBaseUrl,
  parseAccountMeta,
  parseStoredCredentials,
  describeMethod,
  sameAccount,
  serializeCredentials,
  type AccountMeta,
  type SignInMethod,
} from './credentials';
import { createClient } from './clientFactory';
import { promptHubApiKey } from './hubKeyPrompt';
import { SignInPrompt } from './signInPrompt';

export type { SignInMethod } from './credentials';

export interface Account {
  /** The username, or 'API key …abcd'. */
  label: string;
  method: SignInMethod;
  baseUrl: string;
  datahubUrl: string | undefined;
  hasHubKey: boolean;
}

/** Where the extension talks to. A sandbox override wins over the settings, for this window only. */
export interface Endpoints {
  baseUrl: string;
  datahubUrl: string | undefined;
}

export interface AccountServiceOptions {
  secrets: vscode.SecretStorage;
  globalState: vscode.Memento;
  configuration: Configuration;
  log: vscode.LogOutputChannel;
  ui: Ui;
  now?: () => number;
}

/** Which settings a client is built from; a change in any of them means a new client. */
const CLIENT_SETTINGS = new Set(['baseUrl', 'datahubUrl', 'requestsPerSecond', 'externalUserId', 'proxy']);

export class AccountService implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<Account | undefined>();
  /** Sign-in, sign-out, a settings change that rebuilt the client, another window's change. */
  readonly onDidChange = this.emitter.event;
  private readonly overrideDropped = new vscode.EventEmitter<void>();
  /** The sandbox override was dropped because the user set another service address. */
  readonly onDidDropOverride = this.overrideDropped.event;

  private override: Endpoints | undefined;
  private credentials: Credentials | undefined;
  private meta: AccountMeta | undefined;
  private client: ScrapedeckClient | undefined;
  /** The last reason a client could not be built, so the same cause is not reported on every change. */
  private lastBuildError: string | undefined;
  private current: Account | undefined;
  private readonly signInPrompt: SignInPrompt;
  /** Serialises reloads so a burst of events cannot interleave reads of SecretStorage. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly now: () => number;
  /** Resolves once the stored credentials of the current address have been read. */
  readonly ready: Promise<void>;

  constructor(private readonly options: AccountServiceOptions) {
    this.now = options.now ?? Date.now;
    this.signInPrompt = new SignInPrompt(options.ui);
    this.disposables.push(
      this.emitter,
      this.overrideDropped,
      options.secrets.onDidChange((e) => {
        if (e.key === credentialsKey(this.endpoints.baseUrl)) void this.serially(() => this.reload());
      }),
      options.configuration.onDidChange((change) => void this.serially(() => this.onSettings(change))),
    );
    this.ready = this.serially(() => this.reload());
  }

  get account(): Account | undefined {
    return this.current;
  }

  /** The service address and hub address in use (the sandbox's while one is used). */
  get endpoints(): Endpoints {
    if (this.override !== undefined) return this.override;
    const s = this.options.configuration.settings;
    return { baseUrl: s.baseUrl, datahubUrl: s.datahubUrl };
  }

  get usingSandboxOverride(): boolean {
    return this.override !== undefined;
  }

  /** undefined while signed out. */
  getClient(): ScrapedeckClient | undefined {
    return this.client;
  }

  /**
   * A short-lived client for checking credentials before they are stored; the caller closes it.
   * Its renewed sessions (there should be none) stay in memory.
   */
  createProbeClient(credentials?: Credentials): ScrapedeckClient {
    let held = credentials;
    return this.buildClient({
      get: () => Promise.resolve(held),
      set: (next) => {
        held = next;
        return Promise.resolve();
      },
    });
  }

  /** Stores checked credentials for the current address and makes them the signed-in account. */
  signIn(credentials: Credentials, meta: AccountMeta): Promise<void> {
    return this.serially(async () => {
      const { baseUrl } = this.endpoints;
      // Metadata first: a window that follows the secret change finds the label already there.
      await this.options.globalState.update(accountMetaKey(baseUrl), meta);
      await this.write(baseUrl, credentials);
      this.options.log.info(`Signed in to ${normalizeBaseUrl(baseUrl)} (${describeMethod(meta.method)}).`);
      await this.reload();
    });
  }

  /** Stores a hub API key next to a password session. */
  setHubApiKey(hubApiKey: string): Promise<void> {
    return this.serially(async () => {
      const creds = this.credentials;
      if (creds?.kind !== 'session') return;
      await this.write(this.endpoints.baseUrl, { ...creds, hubApiKey });
      this.options.log.info('Data-app hub API key saved.');
      await this.reload(true);
    });
  }

  /** Clears every secret for the current address (session, API key, hub key) and its metadata. */
  signOut(): Promise<void> {
    return this.serially(async () => {
      const { baseUrl } = this.endpoints;
      await this.options.secrets.delete(credentialsKey(baseUrl));
      await this.options.globalState.update(accountMetaKey(baseUrl), undefined);
      this.options.log.info(`Signed out of ${normalizeBaseUrl(baseUrl)}.`);
      await this.reload();
    });
  }

  /** Deletes the secrets and metadata of an address that is gone (an old sandbox port). */
  async forgetAddress(baseUrl: string): Promise<void> {
    await this.options.secrets.delete(credentialsKey(baseUrl));
    await this.options.globalState.update(accountMetaKey(baseUrl), undefined);
  }

  /** Points this window at other endpoints (a sandbox) without touching settings; undefined = back to settings. */
  setOverride(endpoints: Endpoints | undefined): Promise<void> {
    return this.serially(async () => {
      this.override = endpoints;
      await this.reload(true);
    });
  }

  /** The stored (not cached) credentials of the current address; for tests that check sign-out. */
  async readStoredCredentials(): Promise<Credentials | undefined> {
    const parsed = parseStoredCredentials(await this.options.secrets.get(credentialsKey(this.endpoints.baseUrl)));
    return parsed.ok ? parsed.credentials : undefined;
  }

  /**
   * True if the client can call the hub now. Asks for a hub key after a password sign-in, and
   * points at the hub setting when the address is missing.
   */
  async ensureHubApiKey(): Promise<boolean> {
    await this.queue;
    if (this.client === undefined || this.current === undefined) return false;
    if (this.endpoints.datahubUrl === undefined) {
      const open = 'Set Hub Address';
      const choice = await this.options.ui.showWarningMessage('The data-app hub address (scrapedeck.datahubUrl) is not set.', open);
      if (choice === open) await vscode.commands.executeCommand('scrapedeck.openHubSettings');
      return false;
    }
    if (hubKeyOf(this.credentials) !== undefined) return true;
    const key = await promptHubApiKey(this.options.ui);
    if (key === undefined) return false;
    await this.setHubApiKey(key);
    return hubKeyOf(this.credentials) !== undefined;
  }

  /** At most one "Sign In Again" notification at a time, however many calls fail. */
  notifySignInNeeded(message: string): Promise<void> {
    return this.signInPrompt.show(message, this.current?.method ?? 'apiKey', this.meta?.username);
  }

  dispose(): void {
    void this.client?.close();
    this.client = undefined;
    for (const d of this.disposables) d.dispose();
  }

  // ---- internals ----------------------------------------------------------------------------

  private serially<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async onSettings(change: SettingsChange): Promise<void> {
    if (!change.changed.some((k) => CLIENT_SETTINGS.has(k))) return;
    // An explicit new service address means the user is leaving the sandbox.
    if (change.changed.includes('baseUrl') && this.override !== undefined) {
      this.override = undefined;
      this.overrideDropped.fire();
    }
    await this.reload(true);
  }

  private async write(baseUrl: string, credentials: Credentials): Promise<void> {
    const text = serializeCredentials(credentials);
    await this.options.secrets.store(credentialsKey(baseUrl), text);
    if (normalizeBaseUrl(baseUrl) === normalizeBaseUrl(this.endpoints.baseUrl)) {
      this.credentials = credentials;
    }
  }

  /** Re-reads the current address's credentials; rebuilds the client when anything it depends on changed. */
  private async reload(forceRebuild = false): Promise<void> {
    const { baseUrl, datahubUrl } = this.endpoints;
    const text = await this.options.secrets.get(credentialsKey(baseUrl));
    const parsed = parseStoredCredentials(text);
    let credentials: Credentials | undefined;
    if (parsed.ok) credentials = parsed.credentials;
    else this.options.log.warn(`Ignoring the stored sign-in for ${normalizeBaseUrl(baseUrl)}: ${parsed.reason}. Sign in again.`);

    const meta =
      credentials === undefined
        ? undefined
        : (parseAccountMeta(this.options.globalState.get<unknown>(accountMetaKey(baseUrl))) ?? fallbackMeta(credentials));
    const sameIdentity =
      sameAccount(this.credentials, credentials) && this.meta?.label === meta?.label && this.meta?.method === meta?.method;
    this.credentials = credentials;
    this.meta = meta;

    // A renewed session (same account) needs no new client: the store already hands it out.
    const needClient = credentials !== undefined && (forceRebuild || this.client === undefined || !sameIdentity);
    if (credentials === undefined || needClient) {
      const old = this.client;
      this.client = undefined;
      if (old !== undefined) void old.close();
    }
    if (needClient) {
      try {
        this.client = this.buildClient(this.storeFor(baseUrl));
        this.lastBuildError = undefined;
      } catch (e) {
        // Settings are validated already; what is left is the environment (an unusable HTTPS_PROXY).
        // Say so once per cause: the stored sign-in is kept and works again once the cause is fixed.
        const message = `Scrapedeck cannot connect: ${e instanceof Error ? e.message : String(e)}`;
        this.options.log.error(message);
        if (message !== this.lastBuildError) void this.options.ui.showErrorMessage(message);
        this.lastBuildError = message;
      }
    }

    const next: Account | undefined =
      credentials === undefined || this.meta === undefined || this.client === undefined
        ? undefined
        : {
            label: this.meta.label,
            method: this.meta.method,
            baseUrl,
            datahubUrl,
            hasHubKey: hubKeyOf(credentials) !== undefined,
          };
    const changed = JSON.stringify(next) !== JSON.stringify(this.current);
    this.current = next;
    if (changed || needClient || forceRebuild) this.emitter.fire(next);
  }

  /** A CredentialsStore bound to one address: after a switch, an old client sees "signed out". */
  private storeFor(baseUrl: string): CredentialsStore {
    const key = normalizeBaseUrl(baseUrl);
    const active = (): boolean => normalizeBaseUrl(this.endpoints.baseUrl) === key;
    return {
      get: () => Promise.resolve(active() ? this.credentials : undefined),
      set: async (next) => {
        // Renewed session: persist it so other windows and the next start use it too.
        if (active()) await this.write(baseUrl, next);
      },
    };
  }

  private buildClient(credentials: CredentialsStore): ScrapedeckClient {
    return createClient({
      endpoints: this.endpoints,
      settings: this.options.configuration.settings,
      credentials,
      log: this.options.log,
      now: this.now,
      onSessionExpired: () => void this.notifySignInNeeded('Your Scrapedeck session has expired and could not be renewed.'),
    });
  }
}

export { apiKeyLabel, describeMethod, promptHubApiKey };
