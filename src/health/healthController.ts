/**
 * Task health for the account signed in now: shows its stored health at once, refreshes it on
 * the schedule (only while the Tasks view is visible) and on demand, stores each result per
 * account and window, and tells the notifier what the user should hear — tasks that newly need
 * attention, a refused plan (once), a failure (once per run of failures, or when asked). Pure (no
 * `vscode`): the client, the task list, the clock and the timers are injected.
 *
 *   const health = new HealthController({ board, cache, getClient, listTasks, timers, clock, settings, notifier });
 *   health.setAccount(id); health.setVisible(true); await health.refresh();
 */
import { type ApiError, isApiError } from '../api/errors/errors';
import type { Timers } from '../api/http/limiter';
import { todayUtc } from '../api/schemas/dates';
import type { AttentionSeen } from './attentionSeen';
import type { HealthBoard, TaskHealthInfo } from './healthBoard';
import type { HealthCache } from './healthCache';
import { type AnalyticsSource, fetchWindowTotals } from './healthFetch';
import type { Totals } from './healthModel';
import type { HealthSettings } from './healthSettings';
import { type HealthWindows, healthWindows, sameRange } from './healthWindow';
import { RefreshSchedule } from './refreshSchedule';
import type { HealthSnapshot, SnapshotTask } from './snapshot';

export interface HealthTaskRow {
  readonly taskId: string;
  readonly taskName: string;
  readonly taskGroupId: string;
  readonly taskGroupName: string;
}

/** The tasks to judge, and whether they are every task of the account (the Tasks view lists every group). */
export interface HealthTaskListing {
  readonly rows: readonly HealthTaskRow[];
  readonly complete: boolean;
}

/** What the user is told; the vscode layer words it. */
export interface HealthNotifier {
  /** Tasks that crossed a threshold since the last health (only when `scrapedeck.health.notify` is on). */
  crossed(tasks: readonly TaskHealthInfo[], windowDays: number): void;
  /** Analytics refused for this account's plan: health is unavailable. Said once per account. */
  unavailable(error: ApiError): void;
  /** A refresh failed; `tasks` is how many it was for. */
  failed(error: unknown, tasks: number): void;
  /** The window asked for was clamped to the three-month limit. */
  clamped(windows: HealthWindows): void;
  /** A refresh ended: how many tasks need attention, and how many of them were announced as new (for the log). */
  settled?(attention: number, announced: number): void;
}

export interface HealthControllerDeps {
  board: HealthBoard;
  cache: HealthCache;
  getClient(): AnalyticsSource | undefined;
  listTasks(signal: AbortSignal): Promise<HealthTaskListing>;
  timers: Timers;
  /** Epoch ms (snapshots' times and today's UTC date). */
  clock(): number;
  settings(): HealthSettings;
  notifier: HealthNotifier;
  /** What each account last saw needing attention (kept across sign-out and windows): only what is new is announced. */
  seen?: Pick<AttentionSeen, 'read' | 'write'>;
}

export interface HealthStats {
  refreshes: number;
  /** Analytics queries' request ids of the last refresh (one per request). */
  lastRequestIds: string[];
}

export class HealthController {
  private account: string | undefined;
  private readonly schedule: RefreshSchedule;
  /** A failure already reported; cleared by a success, so a run of failures is said once. */
  private failing = false;
  private unavailableSaid: string | undefined;
  /** Records per task of the last current-window answer: how the next refresh cuts its batches. Per account. */
  private recordCounts: Map<string, number> | undefined;
  /** Records the last query for every task of the account answered: whether the next is cheaper than batches. */
  private accountRecords: number | undefined;
  readonly stats: HealthStats = { refreshes: 0, lastRequestIds: [] };

  constructor(private readonly deps: HealthControllerDeps) {
    this.schedule = new RefreshSchedule({
      timers: deps.timers,
      intervalMs: () => deps.settings().refreshMinutes * 60_000,
      run: (signal, onDemand) => this.run(signal, onDemand),
    });
    deps.board.setThresholds(deps.settings());
  }

  get accountId(): string | undefined {
    return this.account;
  }

  get refreshing(): boolean {
    return this.schedule.running;
  }

  /** Sign-in, sign-out, another account. Nothing of the previous account stays on the board. */
  setAccount(accountId: string | undefined): void {
    if (accountId === this.account) return;
    const previous = this.account;
    this.account = accountId;
    this.recordCounts = undefined;
    this.accountRecords = undefined;
    this.schedule.reset();
    this.failing = false;
    // Signing out forgets that account's stored health; switching keeps it under its own key.
    if (previous !== undefined && accountId === undefined) void this.deps.cache.drop(previous).catch(() => undefined);
    this.showStored();
    this.schedule.setEnabled(accountId !== undefined);
  }

  setVisible(visible: boolean): void {
    this.schedule.setVisible(visible);
  }

  /** Settings changed: new thresholds judge again (no request); a new window shows its own stored health. */
  settingsChanged(changed: readonly (keyof HealthSettings)[]): void {
    const s = this.deps.settings();
    if (changed.includes('failureRate') || changed.includes('slowdownFactor')) this.deps.board.setThresholds(s);
    if (changed.includes('windowDays')) {
      this.schedule.reset();
      this.showStored();
      this.schedule.setEnabled(this.account !== undefined && this.deps.board.status.kind !== 'unavailable');
    } else if (changed.includes('refreshMinutes')) {
      this.schedule.reschedule();
    }
  }

  /** On demand (the refresh command): also retries an account whose plan was refused. */
  refresh(): Promise<void> {
    if (this.account === undefined) return Promise.resolve();
    if (this.deps.board.status.kind === 'unavailable') {
      this.deps.board.show(undefined);
      this.unavailableSaid = undefined;
    }
    const run = this.schedule.runNow(); // first, so the run is the on-demand one
    this.schedule.setEnabled(true);
    return run;
  }

  dispose(): void {
    this.schedule.dispose();
  }

  private showStored(): void {
    const stored =
      this.account === undefined ? undefined : this.deps.cache.read(this.account, this.deps.settings().windowDays);
    this.deps.board.show(stored);
    this.schedule.markFresh(stored ? this.deps.clock() - stored.computedAt : undefined);
  }

  private async run(signal: AbortSignal, onDemand: boolean): Promise<void> {
    const account = this.account;
    const client = this.deps.getClient();
    if (account === undefined || client === undefined) return;
    let taskCount = 0;
    let listed = false;
    try {
      const listing = await this.deps.listTasks(signal);
      const tasks = dedupe(listing.rows);
      listed = true;
      taskCount = tasks.length;
      if (signal.aborted || account !== this.account) return;
      const windows = healthWindows(todayUtc(new Date(this.deps.clock())), this.deps.settings().windowDays);
      if (windows.clamped) this.deps.notifier.clamped(windows);

      const last = this.deps.board.snapshot;
      const ids = tasks.map((t) => t.taskId);
      // A complete listing is every task of the account: one query for all tasks answers just them.
      const current = await fetchWindowTotals(client, ids, windows.current, {
        signal,
        estimate: this.recordCounts,
        account: { records: this.accountRecords, idsAreAll: listing.complete },
      });
      if (signal.aborted || account !== this.account) return;
      this.recordCounts = current.records;
      this.accountRecords = current.accountRecords ?? this.accountRecords;
      // The previous window serves one figure: the average run time a slowdown is measured against,
      // which only a task with timed runs now has. Its days are past, so what was asked is reused
      // while its dates stay the same: a task's previous figures were asked when its current
      // window had timed runs.
      const sameDays =
        last !== undefined && last.windowDays === windows.days && sameRange(last.previous, windows.previous);
      const reuse = new Map(
        sameDays ? last.tasks.filter((t) => timed(t.current)).map((t) => [t.taskId, t.previous]) : [],
      );
      const missing = ids.filter((id) => timed(current.totals.get(id)) && !reuse.has(id));
      // Cut by the records each task answered now: a task runs by the same methods week to week.
      const previous = await fetchWindowTotals(client, missing, windows.previous, {
        signal,
        estimate: current.records,
        account: { records: this.accountRecords, idsAreAll: false },
      });
      if (signal.aborted || account !== this.account) return;

      const snapshot: HealthSnapshot = {
        windowDays: windows.days,
        current: windows.current,
        previous: windows.previous,
        computedAt: this.deps.clock(),
        tasks: tasks.map((t): SnapshotTask => ({
          ...pick(t),
          current: current.totals.get(t.taskId) ?? null,
          previous: previous.totals.get(t.taskId) ?? reuse.get(t.taskId) ?? null,
        })),
      };
      this.stats.refreshes++;
      this.stats.lastRequestIds = [...current.requestIds, ...previous.requestIds];
      const before = this.deps.board.attentionIds(last && last.windowDays === windows.days ? last : undefined);
      this.deps.board.show(snapshot);
      this.failing = false;
      await this.deps.cache.write(account, snapshot).catch(() => undefined);
      // New since the account last saw the list: not on the board before, nor in what it last saw
      // (a sign-out forgets the board's stored health, not what was already said).
      const attention = this.deps.board.attention();
      const seen = this.deps.seen?.read(account);
      const crossed = attention.filter((i) => !before.has(i.task.taskId) && seen?.has(i.task.taskId) !== true);
      const announce = crossed.length > 0 && this.deps.settings().notify;
      if (announce) this.deps.notifier.crossed(crossed, windows.days);
      await this.deps.seen
        ?.write(
          account,
          attention.map((i) => i.task.taskId),
        )
        .catch(() => undefined);
      this.deps.notifier.settled?.(attention.length, announce ? crossed.length : 0);
    } catch (error) {
      if (signal.aborted || account !== this.account) return;
      if (isApiError(error) && error.kind === 'cancelled') return;
      if (isApiError(error) && error.kind === 'forbidden') {
        // The plan: no request will succeed until it changes. Stop the schedule, and say it once
        // (a refused task list is already said by the Tasks view, which lists them).
        this.deps.board.unavailable(error.message, error.requestId);
        this.schedule.setEnabled(false);
        if (this.unavailableSaid !== account && (listed || onDemand)) this.deps.notifier.unavailable(error);
        this.unavailableSaid = account;
        return;
      }
      // Listing tasks is the Tasks view's request: it reports its own failures, unless asked here.
      if (!listed && !onDemand) return;
      if (!this.failing || onDemand) this.deps.notifier.failed(error, taskCount);
      this.failing = true;
    }
  }
}

/** Whether a window's totals include timed runs (an average run time). */
function timed(t: Totals | null | undefined): boolean {
  return t !== null && t !== undefined && t.timedRuns > 0;
}

function pick(t: HealthTaskRow): Pick<SnapshotTask, 'taskId' | 'taskName' | 'taskGroupId' | 'taskGroupName'> {
  return { taskId: t.taskId, taskName: t.taskName, taskGroupId: t.taskGroupId, taskGroupName: t.taskGroupName };
}

/** A task listed twice (in two groups) is judged once, under its first group. */
function dedupe(rows: readonly HealthTaskRow[]): HealthTaskRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.taskId) && seen.add(r.taskId) !== undefined);
}
