/**
 * Persistence of tracked apps and of what the hub said about them, per data-app hub address and
 * per account, in a Memento (globalState). No `vscode` import: the Memento is passed in, so it
 * unit-tests with a Map.
 *
 * Why per hub: an app reference and its deprecation belong to one hub; a sandbox's apps must not
 * show up against the real hub. Why per account: what one account added, and what the hub told
 * it (deprecated on, version, missing secrets, "not found"), is that account's; after Switch
 * Account another account sees none of it. (Apps from the `scrapedeck.trackedApps` setting are
 * shared by the view, their outcomes stay per account here.)
 *
 * Never lost by an error: what is stored is parsed leniently (one bad entry drops that entry, not
 * the list), and only successful calls write. Lists kept before accounts were told apart (the
 * older key, which older versions still write) are left as they are and adopted, per hub, by the
 * first account that opens that hub.
 */
import * as z from 'zod';

import { type DeprecationRecord, deprecationRecordSchema } from './deprecation';
import { parseAppRef } from './trackedApps';

export const APP_STORE_KEY = 'scrapedeck.dataApps.byAccount';
/** Where lists were kept before they were per account: read for adoption only, never written. */
export const LEGACY_APP_STORE_KEY = 'scrapedeck.dataApps';

/** The subset of `vscode.Memento` used here. */
export interface MementoLike {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** Whose lists: a hub address and an account's stable key (`accountKey`, no secret). */
export interface AppScope {
  hub: string;
  account: string;
}

/** The hub answered 404 to a deprecation: no app of that name that this account authors. */
const notFoundSchema = z.object({ at: z.number().int().nonnegative(), requestId: z.string().optional() });
export type NotFoundMark = z.infer<typeof notFoundSchema>;

export interface AccountApps {
  apps: string[];
  deprecations: Record<string, DeprecationRecord>;
  notFound: Record<string, NotFoundMark>;
}
interface StoreShape {
  version: 2;
  /** hubKey -> accountKey -> that account's lists. */
  hubs: Record<string, Record<string, AccountApps>>;
  /** Hubs whose lists from the older key were adopted already (by whichever account came first). */
  adopted: string[];
}

const looseEntrySchema = z.object({
  apps: z.array(z.unknown()).catch([]),
  deprecations: z.record(z.string(), z.unknown()).catch({}),
  notFound: z.record(z.string(), z.unknown()).catch({}),
});
const looseStoreSchema = z.object({
  hubs: z.record(z.string(), z.record(z.string(), z.unknown())).catch({}),
  adopted: z.array(z.string()).catch([]),
});
const legacyStoreSchema = z.object({ hubs: z.record(z.string(), z.unknown()) });

const empty = (): AccountApps => ({ apps: [], deprecations: {}, notFound: {} });

/** One account's lists, keeping every valid entry and dropping only the invalid ones. */
function parseEntry(raw: unknown): AccountApps | undefined {
  const entry = looseEntrySchema.safeParse(raw);
  if (!entry.success) return undefined;
  const out = empty();
  for (const item of entry.data.apps) {
    const ref = parseAppRef(item)?.ref;
    if (ref !== undefined && !out.apps.includes(ref)) out.apps.push(ref);
  }
  for (const [ref, rec] of Object.entries(entry.data.deprecations)) {
    const parsed = deprecationRecordSchema.safeParse(rec);
    if (parsed.success && parseAppRef(ref)) out.deprecations[ref] = parsed.data;
  }
  for (const [ref, mark] of Object.entries(entry.data.notFound)) {
    const parsed = notFoundSchema.safeParse(mark);
    if (parsed.success && parseAppRef(ref)) out.notFound[ref] = parsed.data;
  }
  return out;
}

/** Read what is stored, keeping every valid entry and dropping only the invalid ones. */
export function parseStore(raw: unknown): StoreShape {
  const out: StoreShape = { version: 2, hubs: {}, adopted: [] };
  const top = looseStoreSchema.safeParse(raw);
  if (!top.success) return out;
  out.adopted = top.data.adopted;
  for (const [hub, accounts] of Object.entries(top.data.hubs)) {
    const parsed: Record<string, AccountApps> = {};
    for (const [account, value] of Object.entries(accounts)) {
      const entry = parseEntry(value);
      if (entry !== undefined) parsed[account] = entry;
    }
    out.hubs[hub] = parsed;
  }
  return out;
}

/**
 * The older, shared lists of one hub, as the account that adopts them gets them: its apps and
 * deprecations; of the "not found" marks only those that were recorded for that account.
 */
export function parseLegacyHub(raw: unknown, hub: string, account: string): AccountApps | undefined {
  const top = legacyStoreSchema.safeParse(raw);
  if (!top.success) return undefined;
  const value = top.data.hubs[hub];
  const marks = z
    .object({ notFound: z.record(z.string(), z.object({ account: z.string() }).passthrough()).catch({}) })
    .safeParse(value);
  const entry = parseEntry(value);
  if (entry === undefined) return undefined;
  const own = marks.success ? marks.data.notFound : {};
  for (const ref of Object.keys(entry.notFound)) if (own[ref]?.account !== account) delete entry.notFound[ref];
  return entry;
}

/** One key per hub: scheme, host and path, without a trailing slash; the raw text if not a URL. */
export function hubKey(datahubUrl: string): string {
  try {
    const url = new URL(datahubUrl.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return datahubUrl.trim();
  }
}

export class AppStore {
  private readonly listeners = new Set<() => void>();
  /** Writes are chained so two quick changes (add, then deprecate) never overwrite each other. */
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly memento: MementoLike) {}

  /** Called after every change, so the view can refresh. Returns an unsubscribe function. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  apps(scope: AppScope): string[] {
    return [...(this.entry(scope)?.apps ?? [])];
  }

  deprecation(scope: AppScope, ref: string): DeprecationRecord | undefined {
    return this.entry(scope)?.deprecations[ref];
  }

  /** The hub's 404 for this app, if one was recorded for this account. */
  notFound(scope: AppScope, ref: string): NotFoundMark | undefined {
    return this.entry(scope)?.notFound[ref];
  }

  /**
   * Returns false when the ref is invalid or already tracked. Adding an app again forgets a 404
   * recorded for it: that is how the user asks the hub again.
   */
  add(scope: AppScope, ref: string): Promise<boolean> {
    const parsed = parseAppRef(ref);
    if (!parsed) return Promise.resolve(false);
    return this.mutate(scope, (own) => {
      if (own.apps.includes(parsed.ref)) return false;
      own.apps.push(parsed.ref);
      delete own.notFound[parsed.ref];
      return true;
    });
  }

  /**
   * Stops tracking. The deprecation outcome is kept: it is still true at the hub, so adding the
   * app again shows it deprecated rather than offering to deprecate it again.
   */
  remove(scope: AppScope, ref: string): Promise<boolean> {
    return this.mutate(scope, (own) => {
      const before = own.apps.length;
      own.apps = own.apps.filter((r) => r !== ref);
      delete own.notFound[ref];
      return own.apps.length !== before;
    });
  }

  recordDeprecation(scope: AppScope, ref: string, record: DeprecationRecord): Promise<boolean> {
    return this.mutate(scope, (own) => {
      own.deprecations[ref] = record;
      delete own.notFound[ref];
      return true;
    });
  }

  /** The hub said (404) it has no such app that this account authors. */
  recordNotFound(scope: AppScope, ref: string, mark: NotFoundMark): Promise<boolean> {
    return this.mutate(scope, (own) => {
      own.notFound[ref] = mark;
      return true;
    });
  }

  /**
   * The first account to open a hub takes over that hub's lists from the older, shared key (once
   * per hub; later accounts start empty). False when there was nothing to adopt.
   */
  adoptLegacy(scope: AppScope): Promise<boolean> {
    const hub = hubKey(scope.hub);
    if (this.read().adopted.includes(hub)) return Promise.resolve(false);
    const legacy = parseLegacyHub(this.memento.get(LEGACY_APP_STORE_KEY), hub, scope.account);
    return this.change((store) => {
      if (store.adopted.includes(hub)) return false;
      store.adopted.push(hub);
      if (legacy === undefined) return true;
      const accounts = (store.hubs[hub] ??= {});
      const own = (accounts[scope.account] ??= empty());
      for (const ref of legacy.apps) if (!own.apps.includes(ref)) own.apps.push(ref);
      own.deprecations = { ...legacy.deprecations, ...own.deprecations };
      own.notFound = { ...legacy.notFound, ...own.notFound };
      return true;
    });
  }

  private entry(scope: AppScope): AccountApps | undefined {
    return this.read().hubs[hubKey(scope.hub)]?.[scope.account];
  }

  private read(): StoreShape {
    return parseStore(this.memento.get(APP_STORE_KEY));
  }

  private mutate(scope: AppScope, change: (own: AccountApps) => boolean): Promise<boolean> {
    return this.change((store) => {
      const accounts = store.hubs[hubKey(scope.hub)] ?? {};
      const own = accounts[scope.account] ?? empty();
      if (!change(own)) return false;
      accounts[scope.account] = own;
      store.hubs[hubKey(scope.hub)] = accounts;
      return true;
    });
  }

  private change(change: (store: StoreShape) => boolean): Promise<boolean> {
    const result = this.writes.then(async () => {
      const store = this.read();
      if (!change(store)) return false;
      await this.memento.update(APP_STORE_KEY, store);
      for (const listener of [...this.listeners]) listener();
      return true;
    });
    // Keep the chain alive after a failed write; the caller still sees the failure.
    this.writes = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
