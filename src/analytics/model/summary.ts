/**
 * Summary figures over the rows fetched. A figure whose inputs are all null is null ("—"):
 * unknown is never counted as 0.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';

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

/** A running sum of known values: null until the first one (unknown is never 0). */
export class KnownSum {
  private total = 0;
  private any = false;

  add(v: number | null): void {
    if (v !== null && Number.isFinite(v)) {
      this.total += v;
      this.any = true;
    }
  }

  get value(): number | null {
    return this.any ? this.total : null;
  }
}

/** One pass over the rows (a 10,000-row result is read once, not once per figure). */
export function summarize(records: readonly AnalyticsRecord[]): Summary {
  let rateRuns = 0;
  let rateSuccesses = 0;
  let rateRows = 0;
  const runs = new KnownSum();
  const successes = new KnownSum();
  const failures = new KnownSum();
  const collected = new KnownSum();
  const deduplicated = new KnownSum();
  const seconds = new KnownSum();
  const proxyIps = new KnownSum();
  const captchas = new KnownSum();
  const cost = new KnownSum();
  for (const r of records) {
    const e = r.executionMetrics;
    const { runCount, successCount } = e;
    if (runCount !== null && successCount !== null) {
      rateRuns += runCount;
      rateSuccesses += successCount;
      rateRows++;
    }
    runs.add(runCount);
    successes.add(successCount);
    failures.add(e.failureCount);
    seconds.add(e.totalExecutionSeconds);
    collected.add(r.dataVolumeMetrics.totalCollected);
    deduplicated.add(r.dataVolumeMetrics.deduplicatedVolume);
    const u = r.resourceUsageMetrics;
    proxyIps.add(u.proxyIpCount);
    captchas.add(u.captchaCount);
    cost.add(u.balance);
  }
  return {
    rows: records.length,
    runs: runs.value,
    successes: successes.value,
    failures: failures.value,
    // No runs at all gives no rate (0/0), not 0%.
    successRate: rateRows > 0 && rateRuns > 0 ? rateSuccesses / rateRuns : null,
    successRateRows: rateRows,
    collected: collected.value,
    deduplicated: deduplicated.value,
    totalExecutionSeconds: seconds.value,
    proxyIps: proxyIps.value,
    captchas: captchas.value,
    cost: cost.value,
  };
}
