/**
 * Who is signed in, at which service address, and the one client that talks for them. No UI and
 * no `vscode` import: what the user must be told (a session that cannot be renewed, a client that
 * cannot be built) is an event the commands turn into messages.
 *
 * The holder follows other windows through the vault, follows settings by rebuilding the client,
 * and hands the client a CredentialsStore that writes renewed sessions back to the vault. Writes
 * and reloads run one at a time, so a burst of events cannot interleave reads of the vault.
 */
import { type Credentials, type CredentialsStore, MemoryCredentialsStore } from '../api/auth/auth';
import type { ScrapedeckClient } from '../api/client';
import { errorMessage } from '../api/errors/errors';
import { ServiceRoutes } from '../api/ops/serviceRoutes';
import { type Disposable, Emitter, type Event } from '../platform/emitter';
import type { Settings } from '../platform/settings';
import { type Account, accountOf, type Endpoints, type SettingsSource } from './account';
import { boundStore, type SignInSlot } from './boundStore';
import { CLIENT_SETTINGS, createClient } from './clientFactory';
import { type AccountMeta, credentialsKey, describeMethod, normalizeBaseUrl, sameAccount } from './credentials';
import type { CredentialsVault } from './vault';

export type { Account, Endpoints, SettingsSource } from './account';
export type { SignInMethod } from './credentials';

export interface ClientHolderOptions {
  vault: CredentialsVault;
  configuration: SettingsSource;
  log: { info(message: string): void; error(message: string): void };
  now?: () => number;
  /** Builds the clients (a test seam: tests keep the stores handed to them). */
  createClient?: typeof createClient;
}

export class ClientHolder implements Disposable {
  private readonly changed = new Emitter<Account | undefined>();
  /** Sign-in, sign-out, a settings change that rebuilt the client, another window's change. */
  readonly onDidChange: Event<Account | undefined> = this.changed.event;
  private readonly overrideDropped = new Emitter<void>();
  /** The sandbox override was dropped because the user set another service address. */
  readonly onDidDropOverride: Event<void> = this.overrideDropped.event;
  private readonly expired = new Emitter<void>();
  /** The session could not be renewed: the user has to sign in again. */
  readonly onDidExpire: Event<void> = this.expired.event;
  private readonly failed = new Emitter<string>();
  /** No client could be built (e.g. an unusable HTTPS_PROXY); fired once per cause, with the reason. */
  readonly onDidFailToConnect: Event<string> = this.failed.event;
  /** What each service address showed of uncertain routes, kept across sign-ins and switches. */
  private readonly routes = new ServiceRoutes();

  private override: Endpoints | undefined;
  private credentials: Credentials | undefined;
  /** Bumped with every client built or dropped: a sign-in's clients outlive it harmlessly (boundStore.ts). */
  private generation = 0;
  /** What the clients' stores see of this holder. */
  private readonly slot: SignInSlot;
  private meta: AccountMeta | undefined;
  private client: ScrapedeckClient | undefined;
  private lastBuildError: string | undefined;
  private current: Account | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly disposables: Disposable[];
  private readonly now: () => number;
  /** Resolves once the stored credentials of the current address have been read. */
  readonly ready: Promise<void>;

  constructor(private readonly options: ClientHolderOptions) {
    this.now = options.now ?? Date.now;
    this.slot = {
      generation: () => this.generation,
      credentials: () => this.credentials,
      persist: (next, gen) => this.persist(next, gen),
    };
    this.disposables = [
      this.changed,
      this.overrideDropped,
      this.expired,
      this.failed,
      options.vault.onDidChangeElsewhere((key) => {
        if (key === credentialsKey(this.endpoints.baseUrl)) void this.serially(() => this.reload());
      }),
      options.configuration.onDidChange((change) => void this.serially(() => this.onSettings(change.changed))),
    ];
    this.ready = this.serially(() => this.reload());
  }

  get account(): Account | undefined {
    return this.current;
  }

  /** The service address and hub address in use (the sandbox's while one is used). */
  get endpoints(): Endpoints {
    return this.override ?? this.configuredEndpoints;
  }

  /** The addresses the settings name, whether or not a sandbox overrides them now. */
  get configuredEndpoints(): Endpoints {
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
   * A short-lived client for checking credentials before they are stored (at `endpoints`, by
   * default the ones in use); the caller closes it. Its renewed sessions stay in memory.
   */
  createProbeClient(credentials?: Credentials, endpoints: Endpoints = this.endpoints): ScrapedeckClient {
    return this.buildClient(endpoints, new MemoryCredentialsStore(credentials));
  }

  /** Stores checked credentials for an address (the current one by default); there they become the account. */
  store(credentials: Credentials, meta: AccountMeta, baseUrl: string = this.endpoints.baseUrl): Promise<void> {
    return this.serially(async () => {
      await this.options.vault.write(baseUrl, credentials, meta);
      this.options.log.info(`Signed in to ${normalizeBaseUrl(baseUrl)} (${describeMethod(meta.method)}).`);
      if (this.isCurrent(baseUrl)) await this.reload();
    });
  }

  /** Clears every secret of an address (the current one by default) and its metadata. */
  clear(baseUrl: string = this.endpoints.baseUrl): Promise<void> {
    return this.serially(async () => {
      await this.options.vault.clear(baseUrl);
      this.options.log.info(`Signed out of ${normalizeBaseUrl(baseUrl)}.`);
      if (this.isCurrent(baseUrl)) await this.reload();
    });
  }

  /** Stores a hub API key next to the current password session; false if there is none. */
  setHubApiKey(hubApiKey: string): Promise<boolean> {
    return this.serially(async () => {
      const creds = this.credentials;
      if (creds?.kind !== 'session' || this.meta === undefined) return false;
      await this.options.vault.write(this.endpoints.baseUrl, { ...creds, hubApiKey }, this.meta);
      this.options.log.info('Data-app hub API key saved.');
      await this.reload(true);
      return true;
    });
  }

  /** Points this window at other endpoints (a sandbox) without touching settings; undefined = back to settings. */
  setOverride(endpoints: Endpoints | undefined): Promise<void> {
    return this.serially(async () => {
      this.override = endpoints;
      await this.reload(true);
    });
  }

  /** Resolves once the reloads and writes queued so far are done. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  dispose(): void {
    void this.client?.close();
    this.client = undefined;
    for (const d of this.disposables) d.dispose();
  }

  // ---- internals ----------------------------------------------------------------------------

  private isCurrent(baseUrl: string): boolean {
    return normalizeBaseUrl(baseUrl) === normalizeBaseUrl(this.endpoints.baseUrl);
  }

  private serially<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async onSettings(changed: readonly (keyof Settings)[]): Promise<void> {
    if (!changed.some((k) => CLIENT_SETTINGS.has(k))) return;
    // An explicit new service address means the user is leaving the sandbox.
    if (changed.includes('baseUrl') && this.override !== undefined) {
      this.override = undefined;
      this.overrideDropped.fire();
    }
    await this.reload(true);
  }

  /** Re-reads the current address's credentials; rebuilds the client when anything it depends on changed. */
  private async reload(forceRebuild = false): Promise<void> {
    const endpoints = this.endpoints;
    const stored = await this.options.vault.read(endpoints.baseUrl);
    const credentials = stored?.credentials;
    const meta = stored?.meta;
    const sameIdentity =
      sameAccount(this.credentials, credentials) &&
      this.meta?.label === meta?.label &&
      this.meta?.method === meta?.method;
    this.credentials = credentials;
    this.meta = meta;

    // A renewed session (same account) needs no new client: the store already hands it out.
    const needClient = credentials !== undefined && (forceRebuild || this.client === undefined || !sameIdentity);
    if (credentials === undefined || needClient) {
      const old = this.client;
      this.client = undefined;
      this.generation++;
      if (old !== undefined) void old.close();
    }
    if (needClient) this.client = this.tryBuild();

    const next =
      credentials === undefined || meta === undefined || this.client === undefined
        ? undefined
        : accountOf(credentials, meta, endpoints);
    const changed = JSON.stringify(next) !== JSON.stringify(this.current);
    this.current = next;
    if (changed || needClient || forceRebuild) this.changed.fire(next);
  }

  /** A renewed session of the client of `generation`: persisted so other windows and the next start use it too. */
  private async persist(next: Credentials, generation: number): Promise<void> {
    const meta = this.meta;
    if (generation !== this.generation || meta === undefined) return;
    // The vault ignores the change event of its own write, so a renewal costs no read.
    await this.options.vault.write(this.endpoints.baseUrl, next, meta);
    // A sign-in may have come in while it was written: then its credentials stay.
    if (generation === this.generation) this.credentials = next;
  }

  private tryBuild(): ScrapedeckClient | undefined {
    try {
      const client = this.buildClient(this.endpoints, boundStore(this.slot, this.generation));
      this.lastBuildError = undefined;
      return client;
    } catch (e) {
      // Settings are validated already; what is left is the environment (an unusable HTTPS_PROXY).
      // Said once per cause: the stored sign-in is kept and works again once the cause is fixed.
      const reason = errorMessage(e);
      this.options.log.error(`Scrapedeck cannot connect: ${reason}`);
      if (reason !== this.lastBuildError) this.failed.fire(reason);
      this.lastBuildError = reason;
      return undefined;
    }
  }

  private buildClient(endpoints: Endpoints, credentials: CredentialsStore): ScrapedeckClient {
    return (this.options.createClient ?? createClient)({
      endpoints,
      settings: this.options.configuration.settings,
      credentials,
      log: this.options.log,
      now: this.now,
      onSessionExpired: () => this.expired.fire(),
      routes: this.routes,
    });
  }
}
