/**
 * Chart series over the date buckets: the rows grouped by dayKey, in time order.
 * Sums keep null when every input is null, so a chart shows a gap rather than a false 0.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import { bucketLabel, type DayRange } from './format';
import { KnownSum } from './summary';

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

/** One bucket's figures as the rows are read. */
class BucketSums {
  weekStartDate: string | null = null;
  weekEndDate: string | null = null;
  readonly successes = new KnownSum();
  readonly failures = new KnownSum();
  readonly collected = new KnownSum();
  readonly deduplicated = new KnownSum();
  readonly duration = new DurationMean();
}

/**
 * `range`: the query's days, so a bucket's label says which of its days the figures cover.
 * One pass over the rows, each summed into its bucket as it is read.
 */
export function buildSeries(records: readonly AnalyticsRecord[], range?: DayRange): Bucket[] {
  const groups = new Map<string, BucketSums>();
  for (const r of records) {
    let sums = groups.get(r.dayKey);
    if (sums === undefined) {
      sums = new BucketSums();
      groups.set(r.dayKey, sums);
    }
    // The bucket's week is the first row's that knows both ends.
    if (sums.weekStartDate === null && r.weekStartDate !== null && r.weekEndDate !== null) {
      sums.weekStartDate = r.weekStartDate;
      sums.weekEndDate = r.weekEndDate;
    }
    const e = r.executionMetrics;
    sums.successes.add(e.successCount);
    sums.failures.add(e.failureCount);
    sums.collected.add(r.dataVolumeMetrics.totalCollected);
    sums.deduplicated.add(r.dataVolumeMetrics.deduplicatedVolume);
    sums.duration.add(e.durationPerRunSeconds, e.runCount);
  }
  const buckets: Bucket[] = [];
  for (const [dayKey, sums] of groups) {
    const { weekStartDate, weekEndDate } = sums;
    buckets.push({
      dayKey,
      label: bucketLabel(dayKey, weekStartDate, weekEndDate, range),
      weekStartDate,
      weekEndDate,
      successes: sums.successes.value,
      failures: sums.failures.value,
      collected: sums.collected.value,
      deduplicated: sums.deduplicated.value,
      avgDurationSeconds: sums.duration.value,
    });
  }
  // Week keys ("2026-W47") sort by their start date when known: a year-week label alone
  // would misorder around a year boundary only if unpadded, but the date is the truth.
  return buckets.sort(
    (a, b) => compareText(a.weekStartDate ?? a.dayKey, b.weekStartDate ?? b.dayKey) || compareText(a.dayKey, b.dayKey),
  );
}

/**
 * Average seconds per run of a bucket. Rows that know both their average and their run count
 * are weighted by runs (a task run 100 times counts more than one run once). When no row knows
 * its run count, the plain mean of the known averages is the best there is.
 */
export function averageDuration(rows: readonly AnalyticsRecord[]): number | null {
  const mean = new DurationMean();
  for (const r of rows) mean.add(r.executionMetrics.durationPerRunSeconds, r.executionMetrics.runCount);
  return mean.value;
}

/** averageDuration as the rows are read: weighted by runs where known, else the plain mean. */
class DurationMean {
  private weighted = 0;
  private weight = 0;
  private plain = 0;
  private plainCount = 0;

  add(d: number | null, runs: number | null): void {
    if (d === null || !Number.isFinite(d)) return;
    this.plain += d;
    this.plainCount++;
    if (runs !== null && runs > 0) {
      this.weighted += d * runs;
      this.weight += runs;
    }
  }

  get value(): number | null {
    if (this.weight > 0) return this.weighted / this.weight;
    return this.plainCount > 0 ? this.plain / this.plainCount : null;
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
