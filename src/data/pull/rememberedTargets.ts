/**
 * The file each task's new rows go to, remembered per account and per task, in the workspace's
 * state (the files are workspace files). No `vscode`: the Memento is injected.
 *
 * Account boundary: entries are keyed by the account's key (a hash of address, sign-in method and
 * name: nothing secret), so one account's files are never offered under another.
 */
import * as z from 'zod';

import { accountsMenuSession, type SessionAccount } from '../../account/accountSession';

export const PULL_TARGETS_KEY = 'scrapedeck.data.pullFiles';

export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void>;
}

/** A stable, short key per account (the Accounts menu's session id): reveals neither the address nor the name. */
export function accountKey(account: SessionAccount): string {
  return accountsMenuSession(account).id;
}

// Account key -> task id -> file (a file: URI string). Parsed on read: the state is outside input.
const storedSchema = z.record(z.string(), z.record(z.string(), z.string().min(1).max(4096)));
type Stored = z.infer<typeof storedSchema>;

export class PullTargets {
  constructor(
    private readonly memento: MementoLike,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  get(account: string, taskId: string): string | undefined {
    return this.read()[account]?.[taskId];
  }

  async set(account: string, taskId: string, file: string): Promise<void> {
    const all = this.read();
    await this.memento.update(PULL_TARGETS_KEY, { ...all, [account]: { ...all[account], [taskId]: file } });
  }

  async forget(account: string, taskId: string): Promise<void> {
    const all = this.read();
    const { [taskId]: _dropped, ...rest } = all[account] ?? {};
    await this.memento.update(PULL_TARGETS_KEY, { ...all, [account]: rest });
  }

  private read(): Stored {
    const raw = this.memento.get<unknown>(PULL_TARGETS_KEY);
    if (raw === undefined) return {};
    const parsed = storedSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    this.warn('The remembered Pull New Rows files could not be read; choosing again.');
    return {};
  }
}
