/**
 * The health model: per-task totals from analytics records, and what they mean against the
 * thresholds. Pure (no `vscode`), so the rules are unit-tested in Node and reused by the bench.
 *
 * Records of any granularity add up: counts are summed and every average is recomputed from the
 * sums, weighted by the runs it covers (never an average of averages).
 */
import type { AnalyticsRecord } from '../api/schemas/schemas';

/** What one window's records of one task add up to. */
export interface Totals {
  /** Every run the records count. */
  runs: number;
  /** Runs whose outcome is known (the failure rate's denominator). */
  judgedRuns: number;
  failures: number;
  /** Runs whose duration is known (the average duration's denominator). */
  timedRuns: number;
  /** Execution seconds of those timed runs. */
  seconds: number;
}

export const EMPTY_TOTALS: Readonly<Totals> = Object.freeze({
  runs: 0,
  judgedRuns: 0,
  failures: 0,
  timedRuns: 0,
  seconds: 0,
});

export interface Thresholds {
  /** A task whose failure rate is above this (0..1) needs attention. */
  failureRate: number;
  /** A task whose average run time rose more than this factor against the previous window needs attention. */
  slowdownFactor: number;
}

export const DEFAULT_THRESHOLDS: Readonly<Thresholds> = Object.freeze({ failureRate: 0.2, slowdownFactor: 1.5 });

/** Worst first: a group shows the most severe level of its tasks. */
export type HealthLevel = 'failing' | 'slowing' | 'idle' | 'ok';
const SEVERITY: Record<HealthLevel, number> = { ok: 0, idle: 1, slowing: 2, failing: 3 };

export interface TaskHealth {
  level: HealthLevel;
  runs: number;
  failures: number;
  /** failures / judged runs; null when no run's outcome is known. */
  failureRate: number | null;
  /** Average seconds per run in the window; null when no run was timed. */
  averageSeconds: number | null;
  /** The same in the previous window. */
  previousAverageSeconds: number | null;
  /** averageSeconds / previousAverageSeconds; null when either is unknown (or the previous is 0). */
  slowdown: number | null;
  /** Over the failure-rate threshold. */
  failing: boolean;
  /** Over the slowdown threshold. */
  slowing: boolean;
}

const isCount = (v: number | null): v is number => v !== null && Number.isFinite(v) && v >= 0;

/** Adds one record's execution metrics to `into`. Missing (null) figures count as unknown, never as 0. */
export function addRecord(into: Totals, record: AnalyticsRecord): void {
  const m = record.executionMetrics;
  const success = isCount(m.successCount) ? m.successCount : null;
  const failure = isCount(m.failureCount) ? m.failureCount : null;
  const runs = isCount(m.runCount) ? m.runCount : success !== null && failure !== null ? success + failure : null;
  if (runs === null) return;
  into.runs += runs;
  if (runs === 0) return;

  // Outcome: the failure count, else runs minus successes, else the rate times the runs.
  let failed: number | null = null;
  if (failure !== null) failed = failure;
  else if (success !== null) failed = Math.max(0, runs - success);
  else if (m.failureRate !== null && Number.isFinite(m.failureRate))
    failed = Math.round(Math.min(1, Math.max(0, m.failureRate)) * runs);
  if (failed !== null) {
    into.failures += Math.min(failed, runs);
    into.judgedRuns += runs;
  }

  // Duration. The average covers only the runs that were timed, so with both figures the timed
  // runs are total / average (an aggregated record may count untimed days' runs in runCount but
  // not in its total); with one of them, every run is taken as timed.
  const total = isCount(m.totalExecutionSeconds) ? m.totalExecutionSeconds : null;
  const perRun = isCount(m.durationPerRunSeconds) ? m.durationPerRunSeconds : null;
  if (total !== null || perRun !== null) {
    into.seconds += total ?? (perRun as number) * runs;
    // The average is rounded (2 decimals): the quotient is a whole number of runs give or take a hair.
    into.timedRuns +=
      total !== null && perRun !== null && perRun > 0
        ? Math.min(runs, Math.max(total > 0 ? 1 : 0, Math.round(total / perRun)))
        : runs;
  }
}

/** Totals per task id of a window's records; tasks not in `only` (when given) are ignored. */
export function totalsByTask(records: Iterable<AnalyticsRecord>, only?: ReadonlySet<string>): Map<string, Totals> {
  const out = new Map<string, Totals>();
  for (const r of records) {
    if (only && !only.has(r.taskId)) continue;
    let t = out.get(r.taskId);
    if (!t) out.set(r.taskId, (t = { ...EMPTY_TOTALS }));
    addRecord(t, r);
  }
  return out;
}

/** Adds `b` into `a` (the same task in two answers, e.g. two pages). */
export function addTotals(a: Totals, b: Readonly<Totals>): void {
  a.runs += b.runs;
  a.judgedRuns += b.judgedRuns;
  a.failures += b.failures;
  a.timedRuns += b.timedRuns;
  a.seconds += b.seconds;
}

const average = (t: Readonly<Totals> | undefined): number | null =>
  t && t.timedRuns > 0 ? t.seconds / t.timedRuns : null;

/**
 * A task's health from its window and the window before. No runs in the window is `idle`: it
 * says so instead of looking healthy. Above a threshold means strictly above.
 */
export function assess(
  current: Readonly<Totals> | undefined,
  previous: Readonly<Totals> | undefined,
  thresholds: Readonly<Thresholds>,
): TaskHealth {
  const now = current ?? EMPTY_TOTALS;
  const failureRate = now.judgedRuns > 0 ? now.failures / now.judgedRuns : null;
  const averageSeconds = average(now);
  const previousAverageSeconds = average(previous);
  const slowdown =
    averageSeconds !== null && previousAverageSeconds !== null && previousAverageSeconds > 0
      ? averageSeconds / previousAverageSeconds
      : null;
  const failing = failureRate !== null && failureRate > thresholds.failureRate;
  const slowing = slowdown !== null && slowdown > thresholds.slowdownFactor;
  const level: HealthLevel = now.runs === 0 ? 'idle' : failing ? 'failing' : slowing ? 'slowing' : 'ok';
  return {
    level,
    runs: now.runs,
    failures: now.failures,
    failureRate,
    averageSeconds,
    previousAverageSeconds,
    slowdown,
    failing,
    slowing,
  };
}

/** Whether the task belongs in "Needs attention". */
export function needsAttention(h: Pick<TaskHealth, 'failing' | 'slowing'>): boolean {
  return h.failing || h.slowing;
}

/** The most severe level, or undefined for none. */
export function worstOf(levels: Iterable<HealthLevel>): HealthLevel | undefined {
  let worst: HealthLevel | undefined;
  for (const level of levels) if (worst === undefined || SEVERITY[level] > SEVERITY[worst]) worst = level;
  return worst;
}

/** Orders tasks that need attention: failing before slowing, then the larger figure first. */
export function attentionOrder(a: TaskHealth, b: TaskHealth): number {
  return (
    SEVERITY[b.level] - SEVERITY[a.level] ||
    (b.failureRate ?? 0) - (a.failureRate ?? 0) ||
    (b.slowdown ?? 0) - (a.slowdown ?? 0)
  );
}
