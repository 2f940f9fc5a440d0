/**
 * Summary figures over the rows fetched. A figure whose inputs are all null is null ("—"):
 * unknown is never counted as 0.
 */
import type { AnalyticsRecord } from '../../api/analyticsSchemas';

export interface Summary {
  rows: number;
  runs: number | null;
  successes: number | null;
  failures: number | null;
  /** successCount / runCount over the rows where both are known (see successRateRows). */
  successRate: number | null;
  /** How many rows the success rate is computed over. */
  successRateRows: number;
  collected: number | null;
  deduplicated: number | null;
  totalExecutionSeconds: number | null;
  proxyIps: number | null;
  captchas: number | null;
  cost: number | null;
}

/** Sum of the known values; null when every value is null. */
export function sumKnown<T>(items: readonly T[], pick: (item: T) => number | null): number | null {
  let total = 0;
  let any = false;
  for (const item of items) {
    const v = pick(item);
    if (v !== null && Number.isFinite(v)) {
      total += v;
      any = true;
    }
  }
  return any ? total : null;
}

export function summarize(records: readonly AnalyticsRecord[]): Summary {
  let rateRuns = 0;
  let rateSuccesses = 0;
  let rateRows = 0;
  for (const r of records) {
    const { runCount, successCount } = r.executionMetrics;
    if (runCount !== null && successCount !== null) {
      rateRuns += runCount;
      rateSuccesses += successCount;
      rateRows++;
    }
  }
  return {
    rows: records.length,
    runs: sumKnown(records, (r) => r.executionMetrics.runCount),
    successes: sumKnown(records, (r) => r.executionMetrics.successCount),
    failures: sumKnown(records, (r) => r.executionMetrics.failureCount),
    // No runs at all gives no rate (0/0), not 0%.
    successRate: rateRows > 0 && rateRuns > 0 ? rateSuccesses / rateRuns : null,
    successRateRows: rateRows,
    collected: sumKnown(records, (r) => r.dataVolumeMetrics.totalCollected),
    deduplicated: sumKnown(records, (r) => r.dataVolumeMetrics.deduplicatedVolume),
    totalExecutionSeconds: sumKnown(records, (r) => r.executionMetrics.totalExecutionSeconds),
    proxyIps: sumKnown(records, (r) => r.resourceUsageMetrics.proxyIpCount),
    captchas: sumKnown(records, (r) => r.resourceUsageMetrics.captchaCount),
    cost: sumKnown(records, (r) => r.resourceUsageMetrics.balance),
  };
}
