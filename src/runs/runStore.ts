/**
 * The run state of the signed-in account's tasks, without `vscode`: the last status the service
 * sent for each task (or that it never ran in the cloud), our own pending start or stop, the lot
 * of a run started here while it is the task's last run, and which runs we saw under way (queued
 * or extracting: their end is announced). The tree reads it; the poller and the start/stop flows
 * write it. `reset()` forgets everything when the account changes, so nothing of one account shows
 * under another.
 */
import type { TaskRunStatus } from '../api/ops/runs';
import { Emitter, type Event } from '../platform/emitter';
import { isUnderWay, type PendingAction, runKindOf } from './runKinds';

/** How long a start or stop waits for the service to show it before the tree shows what it says. */
export const PENDING_LIMIT_MS = 120_000;

export interface Pending {
  readonly action: PendingAction;
  readonly since: number;
  /** `executedTimes` before a start: a larger count means the run began (even if it already ended). */
  readonly executedBefore: number | null;
}

/** The lot of a run started from this window: its rows can be read alone (`GET /data/lotno/all`). */
export interface RunLot {
  readonly lotNo: string;
  /** Which run it is (`executedTimes` once it counted); null until known. A later run makes the lot stale. */
  readonly run: number | null;
}

export interface RunEntry {
  /** The last status the service sent; undefined until the first answer (or when it never ran). */
  readonly status: TaskRunStatus | undefined;
  readonly pending: Pending | undefined;
  /** Left out of a v2 answer: the task never ran in the cloud. */
  readonly neverRun?: true;
  /** The lot of the task's last run, when that run was started here. */
  readonly lot?: RunLot;
}

/** A run we saw under way that has ended. */
export interface EndedRun {
  readonly taskId: string;
  readonly status: TaskRunStatus;
  /** Stopped from this window: the person who stopped it knows. */
  readonly stoppedHere: boolean;
  /** Its lot, when it was started here (its rows can be exported alone). */
  readonly lot?: RunLot;
}

export class RunStore {
  private readonly entries = new Map<string, RunEntry>();
  /** Tasks whose current run we saw under way (or started ourselves). */
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

  /** Queued or extracting, or our start/stop still on its way: worth polling for. */
  isActive(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return false;
    if (entry.pending !== undefined) return true;
    return entry.status !== undefined && isUnderWay(runKindOf(entry.status.status));
  }

  /**
   * Something on screen is changing state (a start or stop on its way, a run queued, or one
   * extracting that has counted no rows yet): the poller follows it more closely for a while.
   */
  isSettling(taskId: string): boolean {
    const entry = this.entries.get(taskId);
    if (entry === undefined) return false;
    if (entry.pending !== undefined) return true;
    const status = entry.status;
    if (status === undefined) return false;
    const kind = runKindOf(status.status);
    return kind === 'queued' || (kind === 'extracting' && status.currentTotalExtractCount === 0);
  }

  anySettling(taskIds: Iterable<string>): boolean {
    for (const id of taskIds) if (this.isSettling(id)) return true;
    return false;
  }

  /** The lot of a run started here, while it is the task's last run. */
  lotOf(taskId: string): RunLot | undefined {
    return this.entries.get(taskId)?.lot;
  }

  /** A start from here answered its run's lot: the task's rows of that run can be read alone. */
  setLot(taskId: string, lotNo: string): void {
    const entry = this.entries.get(taskId);
    const before = entry?.pending?.action === 'starting' ? entry.pending.executedBefore : null;
    const lot: RunLot = { lotNo, run: before === null ? null : before + 1 };
    this.entries.set(taskId, { ...(entry ?? { status: undefined, pending: undefined }), lot });
    this.changed.fire([taskId]);
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
      // A task that never ran in the cloud has run 0 times: its first run is number 1.
      const executedBefore = entry?.status?.executedTimes ?? (entry?.neverRun === true ? 0 : null);
      const pending = action === undefined ? undefined : { action, since: at, executedBefore };
      // A new start makes the lot of the run before it stale.
      const lot = action === 'starting' ? undefined : entry?.lot;
      this.entries.set(id, {
        ...entry,
        status: entry?.status,
        pending,
        ...(lot === undefined ? { lot: undefined } : { lot }),
      });
      if (action === 'starting') this.watched.add(id);
    }
    if (taskIds.length > 0) this.changed.fire([...taskIds]);
  }

  /**
   * Takes in an answer of the status poll. `neverRan`: ids asked and left out of a v2 answer (the
   * service leaves out tasks that never ran in the cloud). Other ids asked but missing (deleted
   * tasks, or a v1 answer) are left as they were.
   */
  apply(statuses: readonly TaskRunStatus[], neverRan: readonly string[] = []): void {
    const changedIds: string[] = [];
    const endedRuns: EndedRun[] = [];
    for (const status of statuses) {
      const before = this.entries.get(status.taskId);
      const expired = before?.pending !== undefined && this.now() - before.pending.since >= PENDING_LIMIT_MS;
      const pending = expired ? undefined : settlePending(before?.pending, status);
      const next: RunEntry = { status, pending, ...lotAfter(before, status) };
      const kind = runKindOf(status.status);
      if (expired && !isUnderWay(kind)) this.watched.delete(status.taskId);
      if (pending === undefined) {
        if (isUnderWay(kind)) this.watched.add(status.taskId);
        else if (this.watched.delete(status.taskId) && ranSince(before, status)) {
          endedRuns.push({
            taskId: status.taskId,
            status,
            stoppedHere: before?.pending?.action === 'stopping',
            lot: next.lot,
          });
        }
      }
      // An unchanged entry is kept as it was (the same object), so what was drawn from it stays valid.
      if (before !== undefined && sameEntry(before, next)) continue;
      changedIds.push(status.taskId);
      this.entries.set(status.taskId, next);
    }
    for (const id of neverRan) {
      const before = this.entries.get(id);
      const fresh = before?.pending !== undefined && this.now() - before.pending.since < PENDING_LIMIT_MS;
      // A start on its way may not show yet; otherwise the task has not run in the cloud (any more).
      if (fresh || before?.neverRun === true) continue;
      this.watched.delete(id);
      this.entries.set(id, { status: undefined, pending: undefined, neverRun: true });
      changedIds.push(id);
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

/** A pending start ends when the run shows (queued, extracting, or counted); a stop when it is no longer under way. */
function settlePending(pending: Pending | undefined, status: TaskRunStatus): Pending | undefined {
  if (pending === undefined) return undefined;
  const kind = runKindOf(status.status);
  if (pending.action === 'stopping') return isUnderWay(kind) ? pending : undefined;
  if (isUnderWay(kind)) return undefined;
  const counted =
    pending.executedBefore !== null && status.executedTimes !== null && status.executedTimes > pending.executedBefore;
  return counted ? undefined : pending;
}

/** Whether the answer is about the run we watched, not an older one. */
function ranSince(before: RunEntry | undefined, status: TaskRunStatus): boolean {
  const was = before?.status;
  if (was === undefined) return before?.pending !== undefined;
  return (
    isUnderWay(runKindOf(was.status)) || before?.pending !== undefined || status.executedTimes !== was.executedTimes
  );
}

/**
 * The lot kept while its run is the task's last: once the run counts (`executedTimes`), its number
 * is learnt; a higher count means a later run (a schedule, another window), and the lot goes.
 */
function lotAfter(before: RunEntry | undefined, status: TaskRunStatus): { lot?: RunLot } {
  const lot = before?.lot;
  if (lot === undefined) return {};
  const count = status.executedTimes;
  if (count === null) return { lot };
  if (lot.run === null)
    return isUnderWay(runKindOf(status.status)) ? { lot: { lotNo: lot.lotNo, run: count } } : { lot };
  return count > lot.run ? {} : { lot };
}

function sameEntry(a: RunEntry | undefined, b: RunEntry): boolean {
  if (a === undefined) return false;
  if ((a.pending?.action ?? null) !== (b.pending?.action ?? null)) return false;
  if (a.neverRun !== b.neverRun || a.lot?.lotNo !== b.lot?.lotNo || a.lot?.run !== b.lot?.run) return false;
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
