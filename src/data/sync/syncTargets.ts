/**
 * Which destination follows which task ("Keep in Sync…"), per account and task. No `vscode`: the
 * Mementos are injected.
 *
 * Two places, chosen by the destination's kind (docs/contracts/data-sync.md):
 * - a PostgreSQL connection is the user's (global state): a workspace can neither name nor
 *   change the server its rows are written to, so it may not hold the follow either;
 * - a file (CSV, JSON Lines, SQLite) is the workspace's (workspace state): its path means
 *   something only in the folder it is in, as Pull New Rows' remembered files do.
 * A task follows one destination: setting one forgets the other place's entry for that task.
 *
 * Account boundary: entries are keyed by the account's key (`rememberedTargets.ts`), so one
 * account's syncs never run under another.
 */
import * as z from 'zod';

import type { MementoLike } from '../pull/rememberedTargets';

export const SYNC_USER_KEY = 'scrapedeck.data.syncServers';
export const SYNC_WORKSPACE_KEY = 'scrapedeck.data.syncFiles';

const followSchema = z.object({
  /** The destination as Pull New Rows names it: a `file:` URI, or a `scrapedeck-postgres:` URI holding a connection id. */
  target: z.string().min(1).max(4096),
  /** The task's name when the follow was set (the messages', and a new table's name). */
  taskName: z.string().max(1000),
});
export type Follow = z.infer<typeof followSchema>;
export type FollowPlace = 'user' | 'workspace';

// Account key -> task id -> follow. Parsed on read: the state is outside input.
const storedSchema = z.record(z.string(), z.record(z.string(), followSchema));
type Stored = z.infer<typeof storedSchema>;

class FollowMap {
  constructor(
    private readonly memento: MementoLike,
    private readonly key: string,
    private readonly warn: (message: string) => void,
  ) {}

  read(): Stored {
    const raw = this.memento.get<unknown>(this.key);
    if (raw === undefined) return {};
    const parsed = storedSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.warn('The destinations kept in sync could not be read; none is followed until one is set again.');
    return {};
  }

  async set(account: string, taskId: string, follow: Follow): Promise<void> {
    const all = this.read();
    await this.memento.update(this.key, { ...all, [account]: { ...all[account], [taskId]: follow } });
  }

  async forget(account: string, taskId: string): Promise<boolean> {
    const all = this.read();
    if (all[account]?.[taskId] === undefined) return false;
    const { [taskId]: _dropped, ...rest } = all[account] ?? {};
    await this.memento.update(this.key, { ...all, [account]: rest });
    return true;
  }
}

export class SyncTargets {
  private readonly user: FollowMap;
  private readonly workspace: FollowMap;

  constructor(
    places: { user: MementoLike; workspace: MementoLike },
    warn: (message: string) => void = () => undefined,
  ) {
    this.user = new FollowMap(places.user, SYNC_USER_KEY, warn);
    this.workspace = new FollowMap(places.workspace, SYNC_WORKSPACE_KEY, warn);
  }

  /** The task's follow: this workspace's file, else the user's server. */
  get(account: string, taskId: string): Follow | undefined {
    return this.workspace.read()[account]?.[taskId] ?? this.user.read()[account]?.[taskId];
  }

  /** Every follow of the account, by task id. */
  all(account: string): Map<string, Follow> {
    return new Map(Object.entries({ ...this.user.read()[account], ...this.workspace.read()[account] }));
  }

  async set(account: string, taskId: string, follow: Follow, place: FollowPlace): Promise<void> {
    await (place === 'user' ? this.workspace : this.user).forget(account, taskId);
    await (place === 'user' ? this.user : this.workspace).set(account, taskId, follow);
  }

  /** Resolves to whether the task was followed. */
  async forget(account: string, taskId: string): Promise<boolean> {
    const a = await this.workspace.forget(account, taskId);
    const b = await this.user.forget(account, taskId);
    return a || b;
  }
}
