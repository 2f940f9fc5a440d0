/**
 * Chart series over the date buckets: the rows grouped by dayKey, in time order.
 * Sums keep null when every input is null, so a chart shows a gap rather than a false 0.
 */
import type { AnalyticsRecord } from '../../api/analyticsSchemas';
import { bucketLabel, type DayRange } from './format';
import { sumKnown } from './summary';

export interface Bucket {
  dayKey: string;
  label: string;
  weekStartDate: string | null;
  weekEndDate: string | null;
  successes: number | null;
  failures: number | null;
  collected: number | null;
  deduplicated: number | null;
  /** Mean seconds per run, weighted by runCount where the rows know it. */
  avgDurationSeconds: number | null;
}

/** `range`: the query's days, so a bucket's label says which of its days the figures cover. */
export function buildSeries(records: readonly AnalyticsRecord[], range?: DayRange): Bucket[] {
  const groups = new Map<string, AnalyticsRecord[]>();
  for (const r of records) {
    const group = groups.get(r.dayKey);
    if (group) group.push(r);
    else groups.set(r.dayKey, [r]);
  }
  const buckets: Bucket[] = [];
  for (const [dayKey, rows] of groups) {
    const withWeek = rows.find((r) => r.weekStartDate !== null && r.weekEndDate !== null);
    const weekStartDate = withWeek?.weekStartDate ?? null;
    const weekEndDate = withWeek?.weekEndDate ?? null;
    buckets.push({
      dayKey,
      label: bucketLabel(dayKey, weekStartDate, weekEndDate, range),
      weekStartDate,
      weekEndDate,
      successes: sumKnown(rows, (r) => r.executionMetrics.successCount),
      failures: sumKnown(rows, (r) => r.executionMetrics.failureCount),
      collected: sumKnown(rows, (r) => r.dataVolumeMetrics.totalCollected),
      deduplicated: sumKnown(rows, (r) => r.dataVolumeMetrics.deduplicatedVolume),
      avgDurationSeconds: averageDuration(rows),
    });
  }
  // Week keys ("2026-W47") sort by their start date when known: a year-week label alone
  // would misorder around a year boundary only if unpadded, but the date is the truth.
  return buckets.sort((a, b) => compareText(a.weekStartDate ?? a.dayKey, b.weekStartDate ?? b.dayKey) || compareText(a.dayKey, b.dayKey));
}

/**
 * Average seconds per run of a bucket. Rows that know both their average and their run count
 * are weighted by runs (a task run 100 times counts more than one run once). When no row knows
 * its run count, the plain mean of the known averages is the best there is.
 */
export function averageDuration(rows: readonly AnalyticsRecord[]): number | null {
  let weighted = 0;
  let weight = 0;
  let plain = 0;
  let plainCount = 0;
  for (const r of rows) {
    const d = r.executionMetrics.durationPerRunSeconds;
    if (d === null || !Number.isFinite(d)) continue;
    plain += d;
    plainCount++;
    const runs = r.executionMetrics.runCount;
    if (runs !== null && runs > 0) {
      weighted += d * runs;
      weight += runs;
    }
  }
  if (weight > 0) return weighted / weight;
  return plainCount > 0 ? plain / plainCount : null;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
