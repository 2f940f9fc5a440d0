/**
 * One window's totals for many tasks, as cheaply as the spec allows: the task ids in batches of
 * 100 (the spec's maximum), each batch one analytics query paged at 100 rows (the client's
 * `queryAllTaskAnalytics`), all batches at once through the client's shared rate limiter. The
 * first failure cancels the rest.
 *
 * Granularity: `Month`. A month bucket that the date range cuts counts only the days inside the
 * range (the sandbox does so, and the spec's range is what the records cover), so a 7-day window
 * is one record per task and collection method, or two across a month's end — instead of seven
 * per method with `Day`. The model adds records of any granularity correctly; this constant is the
 * one place to change if a service counted whole months.
 */
import type { FetchAllResult } from '../api/fetchAll';
import { ANALYTICS_LIMITS, type AnalyticsQuery, type TimeGranularity } from '../api/schemas';
import { ApiError } from '../api/errors';
import { totalsByTask, type Totals } from './healthModel';
import type { DayRange } from './healthWindow';

export const HEALTH_GRANULARITY: TimeGranularity = 'Month';
export const HEALTH_BATCH = ANALYTICS_LIMITS.maxTaskIds;

/** The part of the client this needs (ScrapedeckClient fits). */
export interface AnalyticsSource {
  queryAllTaskAnalytics(query: AnalyticsQuery, o?: { signal?: AbortSignal }): Promise<FetchAllResult>;
}

export interface WindowTotals {
  totals: Map<string, Totals>;
  /** One per request, in order of the batches. */
  requestIds: string[];
}

/** Distinct ids, in order, cut into batches of `size`. */
export function batches(ids: readonly string[], size: number = HEALTH_BATCH): string[][] {
  const unique = [...new Set(ids)];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += size) out.push(unique.slice(i, i + size));
  return out;
}

export async function fetchWindowTotals(source: AnalyticsSource, taskIds: readonly string[], range: DayRange, signal?: AbortSignal): Promise<WindowTotals> {
  const groups = batches(taskIds);
  const totals = new Map<string, Totals>();
  if (groups.length === 0) return { totals, requestIds: [] };
  if (signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'Refreshing task health was cancelled' });
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const settled = await Promise.allSettled(
      groups.map(async (ids) => {
        const query: AnalyticsQuery = { start: range.start, end: range.end, taskIds: ids, timeGranularity: HEALTH_GRANULARITY };
        try {
          return await source.queryAllTaskAnalytics(query, { signal: stop.signal });
        } catch (error) {
          stop.abort(); // the first failure stops the other batches
          throw error;
        }
      }),
    );
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
    if (failures.length > 0) throw failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    const requestIds: string[] = [];
    settled.forEach((s, i) => {
      if (s.status !== 'fulfilled') return;
      requestIds.push(...s.value.requestIds);
      // A batch answers for its own ids only; anything else in a reply is not trusted.
      for (const [id, t] of totalsByTask(s.value.records, new Set(groups[i]))) totals.set(id, t);
    });
    return { totals, requestIds };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
