/**
 * Week and Month buckets, and how daily metrics combine into them. Counts add up; a sum is null
 * only when every input is null (not measured), never 0; rates and per-run averages are recomputed
 * from the summed counts rather than averaged.
 */
import { isoWeek, monthKey } from '../../api/schemas/dates';
import type { TimeGranularity } from '../../api/schemas/schemas';
import { type Metrics, round } from '../seed/records';

export interface Bucket {
  dayKey: string;
  weekStartDate: string | null;
  weekEndDate: string | null;
}

/**
 * The bucket a day falls in. Week buckets name the whole ISO week (Monday..Sunday) in
 * weekStartDate/weekEndDate even when the query range cuts the week: the metrics inside only count
 * days within [start, end] (the range clips the data, not the label).
 */
export function bucketOf(date: string, granularity: TimeGranularity): Bucket {
  if (granularity === 'Week') {
    const w = isoWeek(date);
    return { dayKey: w.key, weekStartDate: w.weekStartDate, weekEndDate: w.weekEndDate };
  }
  if (granularity === 'Month') return { dayKey: monthKey(date), weekStartDate: null, weekEndDate: null };
  return { dayKey: date, weekStartDate: null, weekEndDate: null };
}

function sum(values: (number | null)[], digits = 2): number | null {
  let total: number | null = null;
  for (const v of values) if (v !== null) total = (total ?? 0) + v;
  return total === null ? null : round(total, digits);
}

function ratio(part: number | null, whole: number | null, digits: number): number | null {
  return part === null || whole === null || whole === 0 ? null : round(part / whole, digits);
}

export function combineMetrics(items: Metrics[]): Metrics {
  if (items.length === 1 && items[0]) return items[0];
  const pick = <K extends keyof Metrics>(k: K): (number | null)[] => items.map((m) => m[k]);
  const runCount = sum(pick('runCount'), 0);
  const successCount = sum(pick('successCount'), 0);
  const failureCount = sum(pick('failureCount'), 0);
  const totalExecutionSeconds = sum(pick('totalExecutionSeconds'));
  // The average per run only over the days whose duration was measured.
  const timedRuns = sum(
    items.map((m) => (m.totalExecutionSeconds === null ? null : m.runCount)),
    0,
  );
  return {
    totalCollected: sum(pick('totalCollected'), 0),
    deduplicatedVolume: sum(pick('deduplicatedVolume'), 0),
    runCount,
    successCount,
    failureCount,
    durationPerRunSeconds: ratio(totalExecutionSeconds, timedRuns, 2),
    totalExecutionSeconds,
    successRate: ratio(successCount, runCount, 4),
    failureRate: ratio(failureCount, runCount, 4),
    captchaCount: sum(pick('captchaCount'), 0),
    simpleTemplateCount: sum(pick('simpleTemplateCount'), 0),
    proxyIpCount: sum(pick('proxyIpCount')),
    balance: sum(pick('balance'), 4),
  };
}
