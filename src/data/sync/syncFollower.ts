/**
 * Keep in sync, the follower: when runs end, each task that has a destination following it (for
 * the account signed in now) gets its new rows pulled there, without asking. No `vscode`: the
 * pull, the notification and the trust check are injected (`index.ts` wires them).
 *
 * - One pull per task at a time: a run that ends while its task is being pulled queues one more
 *   pull (however many end meanwhile), run when the current one is done: rows that arrived after
 *   the current pull read its count are taken by it.
 * - Restricted Mode: nothing is pulled (the tree row and the command say so).
 * - Account boundary: only the signed-in account's follows; a queued pull whose account is no
 *   longer signed in is dropped.
 * - Quiet: a pull that succeeds or finds nothing says nothing but the status line (the pull's own);
 *   a failure is one notification.
 */
import type { TaskRef } from '../../api/taskRef';
import type { Follow, SyncTargets } from './syncTargets';

export type SyncOutcome =
  | { kind: 'pulled'; rows: number }
  | { kind: 'nothing-new' }
  /** Another pull of the task, or into the destination, is running: it takes the rows. */
  | { kind: 'busy' }
  | { kind: 'cancelled' }
  /** `sentence`: what failed and what becomes of the rows, for the one notification. */
  | { kind: 'failed'; sentence: string };

export interface SyncFollowerDeps {
  /** The signed-in account's key, or undefined when signed out. */
  accountKey(): string | undefined;
  targets: Pick<SyncTargets, 'get'>;
  trusted(): boolean;
  /** The exactly-once pull into the follow's destination, with its quiet status line; never throws on purpose. */
  pull(task: TaskRef, follow: Follow): Promise<SyncOutcome>;
  /** The one notification of a failed sync. */
  failed(task: TaskRef, follow: Follow, sentence: string): void;
  log: { info(message: string): void; warn(message: string): void };
}

interface Lane {
  /** A run ended while this pull was under way: one more pull after it. */
  queued: boolean;
  done?: Promise<void>;
}

export class SyncFollower {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly deps: SyncFollowerDeps) {}

  /** Runs that ended (the finish notice's event): their tasks' follows are pulled. */
  runsEnded(taskIds: readonly string[]): void {
    const account = this.deps.accountKey();
    if (account === undefined) return;
    for (const taskId of new Set(taskIds)) {
      if (this.deps.targets.get(account, taskId) === undefined) continue;
      if (!this.deps.trusted()) {
        this.deps.log.info(
          `A run of task ${taskId} ended; its new rows were not pulled to the destination kept in sync: the workspace is in Restricted Mode`,
        );
        continue;
      }
      const key = `${account}\n${taskId}`;
      const lane = this.lanes.get(key);
      if (lane !== undefined) {
        lane.queued = true;
        continue;
      }
      const next: Lane = { queued: false };
      this.lanes.set(key, next);
      next.done = this.follow(account, taskId, next).finally(() => this.lanes.delete(key));
    }
  }

  /** Whether a sync of the task is under way (for the signed-in account). */
  isPulling(taskId: string): boolean {
    const account = this.deps.accountKey();
    return account !== undefined && this.lanes.has(`${account}\n${taskId}`);
  }

  /** Resolves once no sync is under way (tests; the window closing). */
  async idle(): Promise<void> {
    while (this.lanes.size > 0) await Promise.all([...this.lanes.values()].map((l) => l.done));
  }

  private async follow(account: string, taskId: string, lane: Lane): Promise<void> {
    for (;;) {
      lane.queued = false;
      // Read again each time: the follow may have been stopped or changed, the account switched.
      const follow = this.deps.accountKey() === account ? this.deps.targets.get(account, taskId) : undefined;
      if (follow === undefined || !this.deps.trusted()) return;
      const task = { taskId, taskName: follow.taskName };
      let outcome: SyncOutcome;
      try {
        outcome = await this.deps.pull(task, follow);
      } catch (error) {
        outcome = { kind: 'failed', sentence: error instanceof Error ? error.message : String(error) };
      }
      if (outcome.kind === 'failed') {
        this.deps.log.warn(`Keeping task ${taskId} in sync failed: ${outcome.sentence}`);
        this.deps.failed(task, follow, outcome.sentence);
      } else if (outcome.kind === 'busy') {
        this.deps.log.info(
          `A run of task ${taskId} ended while another pull of it was under way; that pull takes its rows`,
        );
      }
      if (!lane.queued) return;
    }
  }
}
