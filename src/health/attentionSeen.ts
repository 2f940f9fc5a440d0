/**
 * Which tasks each account last saw under "Needs attention", in globalState (ids only, never a
 * secret), so a sign-in, a reload or a new window announces only what newly needs attention, not
 * the same tasks every time. Kept across sign-out (the ids are not the account's data, and signing
 * out and in again must not repeat the announcement); a few accounts at most, newest first.
 */
import * as z from 'zod';

import type { MementoLike } from '../account/vault';

export const ATTENTION_SEEN_KEY = 'scrapedeck.health.attentionSeen.v1';
/** Accounts remembered (the oldest goes first). */
export const MAX_SEEN_ACCOUNTS = 8;
/** Ids kept per account: more than any Needs attention list shows. */
export const MAX_SEEN_IDS = 5_000;

const entriesSchema = z
  .array(z.object({ account: z.string().max(200), ids: z.array(z.string().max(200)).max(MAX_SEEN_IDS) }))
  .max(50);
type Entry = z.infer<typeof entriesSchema>[number];

export class AttentionSeen {
  constructor(private readonly memento: MementoLike) {}

  /** The ids this account last saw needing attention; undefined when it saw none yet (or they cannot be read). */
  read(account: string): ReadonlySet<string> | undefined {
    const entry = this.entries().find((e) => e.account === account);
    return entry === undefined ? undefined : new Set(entry.ids);
  }

  /** What the account sees needing attention now (a task that recovers leaves; failing again, it is new again). */
  async write(account: string, ids: Iterable<string>): Promise<void> {
    const rest = this.entries().filter((e) => e.account !== account);
    const next: Entry[] = [{ account, ids: [...ids].slice(0, MAX_SEEN_IDS) }, ...rest].slice(0, MAX_SEEN_ACCOUNTS);
    await this.memento.update(ATTENTION_SEEN_KEY, next);
  }

  private entries(): Entry[] {
    const parsed = entriesSchema.safeParse(this.memento.get(ATTENTION_SEEN_KEY));
    return parsed.success ? parsed.data : [];
  }
}
