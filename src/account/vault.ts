/**
 * The credentials vault: one record per service address in SecretStorage, the secrets and the
 * non-secret account metadata (label, method, username) together. No UI and no `vscode` import
 * (the storages are passed in), so it runs and is tested in plain Node.
 *
 * The metadata is not kept in globalState any more (only read from there for a record an older
 * version wrote): VS Code hands an extension's globalState back to it as a whole after each write,
 * and the echo of another feature's earlier write could land between our update and its flush and
 * put the previous account's label and method back, beside the new account's secret.
 *
 * It tells listeners about changes made elsewhere (another window) and ignores the change events
 * its own writes cause: one sign-in is one write and one read, not one write and two reads.
 */
import type { Credentials } from '../api/auth/auth';
import { type Disposable, Emitter, type Event } from '../platform/emitter';
import { english, type Translate } from '../platform/errorText';
import {
  type AccountMeta,
  accountMetaKey,
  credentialsKey,
  fallbackMeta,
  normalizeBaseUrl,
  parseAccountMeta,
  parseStoredCredentials,
  serializeCredentials,
} from './credentials';

/** The part of `vscode.SecretStorage` the vault uses. */
export interface SecretStorageLike {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
  onDidChange(listener: (e: { key: string }) => unknown): Disposable;
}

/** The part of `vscode.Memento` the vault uses. */
export interface MementoLike {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

export interface StoredAccount {
  credentials: Credentials;
  meta: AccountMeta;
}

/** Counted for tests (and the log): reads and writes of SecretStorage, own change events ignored. */
export interface VaultStats {
  reads: number;
  writes: number;
  ignoredOwnEvents: number;
}

export class CredentialsVault implements Disposable {
  private readonly changed = new Emitter<string>();
  /** A secret was changed by someone else (another window); the argument is its key (`credentialsKey`). */
  readonly onDidChangeElsewhere: Event<string> = this.changed.event;
  /** Own writes whose change event has not arrived yet, per SecretStorage key. */
  private readonly pending = new Map<string, number>();
  /**
   * What this vault last read or wrote per key (undefined = nothing stored), so a write that
   * changes nothing is skipped: VS Code sends no change event for it, and a counted write that
   * never gets its event would swallow another window's event later.
   */
  private readonly known = new Map<string, string | undefined>();
  private readonly subscription: Disposable;
  readonly stats: VaultStats = { reads: 0, writes: 0, ignoredOwnEvents: 0 };

  constructor(
    private readonly secrets: SecretStorageLike,
    private readonly globalState: MementoLike,
    private readonly log: { warn(message: string): void },
    /** Words for a label the metadata lacks (vscode.l10n.t in the extension). */
    private readonly t: Translate = english,
  ) {
    this.subscription = secrets.onDidChange((e) => this.onSecretChanged(e.key));
  }

  /** The stored account of one address, or undefined (nothing stored, or unreadable: logged). */
  async read(baseUrl: string): Promise<StoredAccount | undefined> {
    const key = this.keyOf(baseUrl);
    const text = await this.secrets.get(key);
    this.stats.reads++;
    this.known.set(key, text);
    const parsed = parseStoredCredentials(text);
    if (!parsed.ok) {
      this.log.warn(`Ignoring the stored sign-in for ${normalizeBaseUrl(baseUrl)}: ${parsed.reason}. Sign in again.`);
      return undefined;
    }
    if (parsed.credentials === undefined) return undefined;
    const meta =
      parsed.meta ??
      parseAccountMeta(this.globalState.get(accountMetaKey(baseUrl))) ??
      fallbackMeta(parsed.credentials, this.t);
    return { credentials: parsed.credentials, meta };
  }

  /**
   * Stores the credentials of one address and who they are for, in one write: a window that follows
   * the change reads both at once, and nothing can pair one account's secret with another's name.
   */
  async write(baseUrl: string, credentials: Credentials, meta: AccountMeta): Promise<void> {
    const key = this.keyOf(baseUrl);
    const text = serializeCredentials(credentials, meta);
    if (this.known.has(key) && this.known.get(key) === text) return;
    await this.own(key, () => this.secrets.store(key, text));
    this.known.set(key, text);
  }

  /** Deletes the secrets (session, API key, hub key) and the metadata of one address. */
  async clear(baseUrl: string): Promise<void> {
    // What an older version kept there goes too (written only when there is something to remove).
    if (this.globalState.get(accountMetaKey(baseUrl)) !== undefined)
      await this.globalState.update(accountMetaKey(baseUrl), undefined);
    const key = this.keyOf(baseUrl);
    if (this.known.has(key) && this.known.get(key) === undefined) return;
    await this.own(key, () => this.secrets.delete(key));
    this.known.set(key, undefined);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }

  private keyOf(baseUrl: string): string {
    return credentialsKey(baseUrl);
  }

  private async own(key: string, write: () => PromiseLike<void>): Promise<void> {
    // Counted before the call: VS Code may deliver the event before the write's promise settles.
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    try {
      await write();
    } catch (e) {
      this.settle(key);
      throw e;
    }
    this.stats.writes++;
  }

  private settle(key: string): void {
    const left = (this.pending.get(key) ?? 0) - 1;
    if (left > 0) this.pending.set(key, left);
    else this.pending.delete(key);
  }

  private onSecretChanged(key: string): void {
    if ((this.pending.get(key) ?? 0) > 0) {
      this.settle(key);
      this.stats.ignoredOwnEvents++;
      return;
    }
    // Someone else wrote: what this vault knew of the key is stale.
    this.known.delete(key);
    this.changed.fire(key);
  }
}
