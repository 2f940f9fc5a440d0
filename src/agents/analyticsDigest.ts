/**
 * Analytics records boiled down for a model: totals (the same figures as the analytics panel's
 * summary, `analytics/model/summary.ts`), one line per period, and the tasks ranked by a figure.
 * Pure. Unknown values stay null: a task without run counts is not a task with 0 failures.
 */
import { sumKnown, summarize } from '../analytics/model/summary';
import type { AnalyticsRecord } from '../api/schemas/schemas';

export const SORT_KEYS = ['failures', 'failureRate', 'runs', 'collected', 'avgDuration', 'cost'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface TaskFigures {
  taskId: string;
  taskName: string;
  runs: number | null;
  successes: number | null;
  failures: number | null;
  /** failures / runs over the rows where both are known; null without runs. */
  failureRate: number | null;
  collected: number | null;
  /** Seconds per run: total execution time / runs. */
  avgDurationSeconds: number | null;
  cost: number | null;
}

export interface PeriodFigures {
  period: string;
  runs: number | null;
  failures: number | null;
  successRate: number | null;
  collected: number | null;
}

/** Rounded for reading: rates to 4 places, seconds and costs to 2. */
const r4 = (v: number | null): number | null => (v === null ? null : Math.round(v * 10_000) / 10_000);
const r2 = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);

function ratio(part: number | null, whole: number | null): number | null {
  return part === null || whole === null || whole <= 0 ? null : part / whole;
}

export function totals(records: readonly AnalyticsRecord[]) {
  const s = summarize(records);
  return {
    records: s.rows,
    runs: s.runs,
    successes: s.successes,
    failures: s.failures,
    successRate: r4(s.successRate),
    collected: s.collected,
    deduplicated: s.deduplicated,
    totalExecutionSeconds: r2(s.totalExecutionSeconds),
    cost: r2(s.cost),
  };
}

function groupBy(
  records: readonly AnalyticsRecord[],
  key: (r: AnalyticsRecord) => string,
): Map<string, AnalyticsRecord[]> {
  const out = new Map<string, AnalyticsRecord[]>();
  for (const r of records) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function byTask(
  records: readonly AnalyticsRecord[],
  nameOf: (taskId: string) => string | undefined,
): TaskFigures[] {
  return [...groupBy(records, (r) => r.taskId)].map(([taskId, rows]) => {
    const runs = sumKnown(rows, (r) => r.executionMetrics.runCount);
    const failures = sumKnown(rows, (r) => r.executionMetrics.failureCount);
    const seconds = sumKnown(rows, (r) => r.executionMetrics.totalExecutionSeconds);
    return {
      taskId,
      taskName: rows.find((r) => r.taskName !== null)?.taskName ?? nameOf(taskId) ?? taskId,
      runs,
      successes: sumKnown(rows, (r) => r.executionMetrics.successCount),
      failures,
      failureRate: r4(ratio(failures, runs)),
      collected: sumKnown(rows, (r) => r.dataVolumeMetrics.totalCollected),
      avgDurationSeconds: r2(ratio(seconds, runs)),
      cost: r2(sumKnown(rows, (r) => r.resourceUsageMetrics.balance)),
    };
  });
}

export function byPeriod(records: readonly AnalyticsRecord[]): PeriodFigures[] {
  return [...groupBy(records, (r) => r.dayKey)]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([period, rows]) => {
      const s = summarize(rows);
      return { period, runs: s.runs, failures: s.failures, successRate: r4(s.successRate), collected: s.collected };
    });
}

const FIGURE: Record<SortKey, (f: TaskFigures) => number | null> = {
  failures: (f) => f.failures,
  failureRate: (f) => f.failureRate,
  runs: (f) => f.runs,
  collected: (f) => f.collected,
  avgDuration: (f) => f.avgDurationSeconds,
  cost: (f) => f.cost,
};

/** Highest first; unknown figures last; ties by name so the order is stable. */
export function rankTasks(tasks: readonly TaskFigures[], key: SortKey): TaskFigures[] {
  const figure = FIGURE[key];
  return [...tasks].sort((a, b) => {
    const x = figure(a);
    const y = figure(b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return a.taskName.localeCompare(b.taskName, 'en');
  });
}
