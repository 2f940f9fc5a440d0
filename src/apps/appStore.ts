/**
 * Persistence of tracked apps and of deprecation outcomes, per data-app hub address, in a
 * Memento (globalState). No `vscode` import: the Memento is passed in, so it unit-tests with a Map.
 *
 * Why per hub: an app reference and its deprecation belong to one hub; a sandbox's apps must not
 * show up against the real hub. Switching the hub URL back brings the old list back.
 *
 * Never lost by an error: what is stored is parsed leniently (one bad entry drops that entry, not
 * the list), and only successful calls write.
 */
import * as z from 'zod';
import { parseAppRef } from './trackedApps';
import { DeprecationRecord, deprecationRecordSchema } from './deprecation';

export const APP_STORE_KEY = 'scrapedeck.dataApps';

/** The subset of `vscode.Memento` used here. */
export interface MementoLike {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/**
 * The hub answered 404 to a deprecation: no app of that name that this account authors. Kept per
 * account (a stable, non-secret key), since another account may be the author.
 */
const notFoundSchema = z.object({ at: z.number().int().nonnegative(), account: z.string().min(1), requestId: z.string().optional() });
export type NotFoundMark = z.infer<typeof notFoundSchema>;

interface HubEntry {
  apps: string[];
  deprecations: Record<string, DeprecationRecord>;
  notFound: Record<string, NotFoundMark>;
}
interface StoreShape {
  version: 1;
  hubs: Record<string, HubEntry>;
}

const looseHubSchema = z.object({
  apps: z.array(z.unknown()).catch([]),
  deprecations: z.record(z.string(), z.unknown()).catch({}),
  notFound: z.record(z.string(), z.unknown()).catch({}),
});
const looseStoreSchema = z.object({ hubs: z.record(z.string(), z.unknown()) });

/** Read what is stored, keeping every valid entry and dropping only the invalid ones. */
export function parseStore(raw: unknown): StoreShape {
  const top = looseStoreSchema.safeParse(raw);
  const out: StoreShape = { version: 1, hubs: {} };
  if (!top.success) return out;
  for (const [hub, value] of Object.entries(top.data.hubs)) {
    const entry = looseHubSchema.safeParse(value);
    if (!entry.success) continue;
    const apps: string[] = [];
    for (const item of entry.data.apps) {
      const ref = parseAppRef(item)?.ref;
      if (ref !== undefined && !apps.includes(ref)) apps.push(ref);
    }
    const deprecations: Record<string, DeprecationRecord> = {};
    for (const [ref, rec] of Object.entries(entry.data.deprecations)) {
      const parsed = deprecationRecordSchema.safeParse(rec);
      if (parsed.success && parseAppRef(ref)) deprecations[ref] = parsed.data;
    }
    const notFound: Record<string, NotFoundMark> = {};
    for (const [ref, mark] of Object.entries(entry.data.notFound ?? {})) {
      const parsed = notFoundSchema.safeParse(mark);
      if (parsed.success && parseAppRef(ref)) notFound[ref] = parsed.data;
    }
    out.hubs[hub] = { apps, deprecations, notFound };
  }
  return out;
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

  apps(datahubUrl: string): string[] {
    return [...(this.read().hubs[hubKey(datahubUrl)]?.apps ?? [])];
  }

  deprecation(datahubUrl: string, ref: string): DeprecationRecord | undefined {
    return this.read().hubs[hubKey(datahubUrl)]?.deprecations[ref];
  }

  /** The hub's 404 for this app, if one was recorded for this account. */
  notFound(datahubUrl: string, ref: string, account: string): NotFoundMark | undefined {
    const mark = this.read().hubs[hubKey(datahubUrl)]?.notFound[ref];
    return mark?.account === account ? mark : undefined;
  }

  /**
   * Returns false when the ref is invalid or already tracked. Adding an app again forgets a 404
   * recorded for it: that is how the user asks the hub again.
   */
  add(datahubUrl: string, ref: string): Promise<boolean> {
    const parsed = parseAppRef(ref);
    if (!parsed) return Promise.resolve(false);
    return this.mutate(datahubUrl, (hub) => {
      if (hub.apps.includes(parsed.ref)) return false;
      hub.apps.push(parsed.ref);
      delete hub.notFound[parsed.ref];
      return true;
    });
  }

  /**
   * Stops tracking. The deprecation outcome is kept: it is still true at the hub, so adding the
   * app again shows it deprecated rather than offering to deprecate it again.
   */
  remove(datahubUrl: string, ref: string): Promise<boolean> {
    return this.mutate(datahubUrl, (hub) => {
      const before = hub.apps.length;
      hub.apps = hub.apps.filter((r) => r !== ref);
      delete hub.notFound[ref];
      return hub.apps.length !== before;
    });
  }

  recordDeprecation(datahubUrl: string, ref: string, record: DeprecationRecord): Promise<boolean> {
    return this.mutate(datahubUrl, (hub) => {
      hub.deprecations[ref] = record;
      delete hub.notFound[ref];
      return true;
    });
  }

  /** The hub said (404) it has no such app that this account authors. */
  recordNotFound(datahubUrl: string, ref: string, mark: NotFoundMark): Promise<boolean> {
    return this.mutate(datahubUrl, (hub) => {
      hub.notFound[ref] = mark;
      return true;
    });
  }

  private read(): StoreShape {
    return parseStore(this.memento.get(APP_STORE_KEY));
  }

  private mutate(datahubUrl: string, change: (hub: HubEntry) => boolean): Promise<boolean> {
    const result = this.writes.then(async () => {
      const store = this.read();
      const key = hubKey(datahubUrl);
      const hub = store.hubs[key] ?? { apps: [], deprecations: {}, notFound: {} };
      if (!change(hub)) return false;
      store.hubs[key] = hub;
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
