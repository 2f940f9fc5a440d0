/**
 * The run state of the signed-in account's tasks, without `vscode`: the last status the service
 * sent for each task, our own pending start or stop, and which runs we saw extracting (so their end
 * can be announced). The tree reads it; the poller and the start/stop flows write it. `reset()`
 * forgets everything when the account changes, so nothing of one account shows under another.
 */
import type { TaskRunStatus } from '../api/ops/runs';
import { Emitter, type Event } from '../platform/emitter';
import { runKindOf, type PendingAction } from './runKinds';

/** How long a start or stop waits for the service to show it before the tree shows what it says. */
export const PENDING_LIMIT_MS = 120_000;

export interface Pending {
  readonly action: PendingAction;
  readonly since: number;
  /** `executedTimes` before a start: a larger count means the run began (even if it already ended). */
  readonly executedBefore: number | null;
}

export interface RunEntry {
  /** The last status the service sent; undefined until the first answer. */
  readonly status: TaskRunStatus | undefined;
  readonly pending: Pending | undefined;
}

/** A run we saw under way that has ended. */
export interface EndedRun {
  readonly taskId: string;
  readonly status: TaskRunStatus;
  /** Stopped from this window: the person who stopped it knows. */
  readonly stoppedHere: boolean;
}

export class RunStore {
  private readonly entries = new Map<string, RunEntry>();
  /** Tasks whose current run we saw extracting (or started ourselves). */
  private readonly watched = new Set<string>();
  private readonly changed = new Emitter<readonly string[]>();
  private readonly ended = new Emitter<readonly EndedRun[]>();
  /** The ids whose row must be drawn again. */
  readonly onDidChange: Event<readonly string[]> = this.changed.event;
  /** Runs that ended while we watched them, in one batch per answer. */
  readonly onDidEnd: Event<readonly EndedRun[]> = this.ended.event;

  constructor(private readonly now: () => number = Date.now) {}

  get(taskId: string): RunEntry | undefined {
    return this.entries.get(taskId);
  }

  /** Extracting, or our start/stop still on its way: worth polling for. */
  isActive(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return false;
    if (entry.pending !== undefined) return true;
    return entry.status !== undefined && runKindOf(entry.status.status) === 'extracting';
  }

  anyActive(taskIds: Iterable<string>): boolean {
    for (const id of taskIds) if (this.isActive(id)) return true;
    return false;
  }

  /** Marks tasks as being started or stopped (the tree shows it at once); `undefined` undoes it after a failure. */
  setPending(taskIds: readonly string[], action: PendingAction | undefined): void {
    const at = this.now();
    for (const id of taskIds) {
      const entry = this.entries.get(id);
      const pending = action === undefined ? undefined : { action, since: at, executedBefore: entry?.status?.executedTimes ?? null };
      this.entries.set(id, { status: entry?.status, pending });
      if (action === 'starting') this.watched.add(id);
    }
    if (taskIds.length > 0) this.changed.fire([...taskIds]);
  }

  /** Takes in an answer of the status poll. Ids asked but missing from it (deleted tasks) are left as they were. */
  apply(statuses: readonly TaskRunStatus[]): void {
    const changedIds: string[] = [];
    const endedRuns: EndedRun[] = [];
    for (const status of statuses) {
      const before = this.entries.get(status.taskId);
      const expired = before?.pending !== undefined && this.now() - before.pending.since >= PENDING_LIMIT_MS;
      const pending = expired ? undefined : settlePending(before?.pending, status);
      const next: RunEntry = { status, pending };
      const kind = runKindOf(status.status);
      if (expired && kind !== 'extracting') this.watched.delete(status.taskId);
      if (pending === undefined) {
        if (kind === 'extracting') this.watched.add(status.taskId);
        else if (this.watched.delete(status.taskId) && ranSince(before, status)) {
          endedRuns.push({ taskId: status.taskId, status, stoppedHere: before?.pending?.action === 'stopping' });
        }
      }
      // An unchanged entry is kept as it was (the same object), so what was drawn from it stays valid.
      if (before !== undefined && sameEntry(before, next)) continue;
      changedIds.push(status.taskId);
      this.entries.set(status.taskId, next);
    }
    if (changedIds.length > 0) this.changed.fire(changedIds);
    if (endedRuns.length > 0) this.ended.fire(endedRuns);
  }

  /** Another account, or signed out: forget every task (their rows are drawn again, empty). */
  reset(): void {
    const ids = [...this.entries.keys()];
    this.entries.clear();
    this.watched.clear();
    if (ids.length > 0) this.changed.fire(ids);
  }

  dispose(): void {
    this.changed.dispose();
    this.ended.dispose();
  }

}

/** A pending start ends when the run shows (extracting, or counted); a stop when it no longer extracts. */
function settlePending(pending: Pending | undefined, status: TaskRunStatus): Pending | undefined {
  if (pending === undefined) return undefined;
  const kind = runKindOf(status.status);
  if (pending.action === 'stopping') return kind === 'extracting' ? pending : undefined;
  if (kind === 'extracting') return undefined;
  const counted = pending.executedBefore !== null && status.executedTimes !== null && status.executedTimes > pending.executedBefore;
  return counted ? undefined : pending;
}

/** Whether the answer is about the run we watched, not an older one. */
function ranSince(before: RunEntry | undefined, status: TaskRunStatus): boolean {
  const was = before?.status;
  if (was === undefined) return before?.pending !== undefined;
  return runKindOf(was.status) === 'extracting' || before?.pending !== undefined || status.executedTimes !== was.executedTimes;
}

function sameEntry(a: RunEntry | undefined, b: RunEntry): boolean {
  if (a === undefined) return false;
  if ((a.pending?.action ?? null) !== (b.pending?.action ?? null)) return false;
  if (a.status === undefined || b.status === undefined) return a.status === b.status;
  // Field by field: this runs for every visible task at every refresh.
  const x = a.status;
  const y = b.status;
  return (
    x.status === y.status &&
    x.currentTotalExtractCount === y.currentTotalExtractCount &&
    x.executedTimes === y.executedTimes &&
    x.subTaskCount === y.subTaskCount &&
    x.startExecuteTime === y.startExecuteTime &&
    x.endExecuteTime === y.endExecuteTime &&
    x.nextExecuteTime === y.nextExecuteTime &&
    x.taskName === y.taskName &&
    x.source === y.source
  );
}
