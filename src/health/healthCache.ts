/**
 * The last health per account and window, in globalState, so a new window (or VS Code reopened)
 * shows it at once. Keyed by a hash of the account's public facts (address, method, label: the
 * Accounts menu's session id) and the window's days; a few entries at most, newest first. Nothing
 * of one account is ever read under another's key; an account's entries go when it signs out.
 */
import * as z from 'zod';

import type { MementoLike } from '../account/vault';
import { decodeSnapshot, encodeSnapshot, type HealthSnapshot } from './snapshot';

export const HEALTH_CACHE_KEY = 'scrapedeck.health.v1';
/** Accounts x windows kept: enough to switch back and forth, bounded in size. */
export const MAX_CACHE_ENTRIES = 4;

const entriesSchema = z
  .array(z.object({ account: z.string().max(200), windowDays: z.number().int(), snapshot: z.unknown() }))
  .max(50);
type Entry = z.infer<typeof entriesSchema>[number];

export class HealthCache {
  constructor(
    private readonly memento: MementoLike,
    private readonly log: { warn(message: string): void },
  ) {}

  read(account: string, windowDays: number): HealthSnapshot | undefined {
    const entry = this.entries().find((e) => e.account === account && e.windowDays === windowDays);
    if (!entry) return undefined;
    const snapshot = decodeSnapshot(entry.snapshot);
    if (!snapshot) this.log.warn('The stored task health could not be read; it is ignored and will be replaced.');
    return snapshot;
  }

  async write(account: string, snapshot: HealthSnapshot): Promise<void> {
    const rest = this.entries().filter((e) => !(e.account === account && e.windowDays === snapshot.windowDays));
    const next: Entry[] = [
      { account, windowDays: snapshot.windowDays, snapshot: encodeSnapshot(snapshot) },
      ...rest,
    ].slice(0, MAX_CACHE_ENTRIES);
    await this.memento.update(HEALTH_CACHE_KEY, next);
  }

  /** Forgets every window of one account (sign-out). */
  async drop(account: string): Promise<void> {
    const all = this.entries();
    const rest = all.filter((e) => e.account !== account);
    if (rest.length !== all.length) await this.memento.update(HEALTH_CACHE_KEY, rest);
  }

  private entries(): Entry[] {
    const raw = this.memento.get(HEALTH_CACHE_KEY);
    if (raw === undefined) return [];
    const parsed = entriesSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.log.warn('The stored task health is not in a known shape; it is ignored.');
    return [];
  }
}
