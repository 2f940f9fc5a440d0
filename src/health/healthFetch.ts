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
 *
 * Batches are cut by the records each task is expected to answer (`batchPlan.ts`), so pages come
 * back full: `estimate` gives them per task (the records it had in the caller's last answer); for
 * more than 100 tasks without one, a first batch of 100 is asked alone and its records per id
 * size the rest.
 */
import type { FetchAllResult } from '../api/fetchAll';
import { ANALYTICS_LIMITS, type AnalyticsQuery, type TimeGranularity } from '../api/schemas';
import { ApiError } from '../api/errors';
import { totalsByTask, type Totals } from './healthModel';
import type { DayRange } from './healthWindow';
import { planBatches, recordsPerId } from './batchPlan';

export const HEALTH_GRANULARITY: TimeGranularity = 'Month';
export const HEALTH_BATCH = ANALYTICS_LIMITS.maxTaskIds;

/** The part of the client this needs (ScrapedeckClient fits). */
export interface AnalyticsSource {
  queryAllTaskAnalytics(query: AnalyticsQuery, o?: { signal?: AbortSignal }): Promise<FetchAllResult>;
}

export interface WindowTotals {
  totals: Map<string, Totals>;
  /** Records answered per task (tasks with none are absent): the estimate for the next query of these tasks. */
  records: Map<string, number>;
  /** One per request, in the order they were answered. */
  requestIds: string[];
}

/** Distinct ids, in order, cut into batches of `size`. */
export function batches(ids: readonly string[], size: number = HEALTH_BATCH): string[][] {
  const unique = [...new Set(ids)];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += size) out.push(unique.slice(i, i + size));
  return out;
}

export interface FetchWindowOptions {
  signal?: AbortSignal;
  /** Records expected per task id (e.g. `records` of an earlier answer); tasks without one are guessed. */
  estimate?: ReadonlyMap<string, number>;
}

export async function fetchWindowTotals(source: AnalyticsSource, taskIds: readonly string[], range: DayRange, options: FetchWindowOptions | AbortSignal = {}): Promise<WindowTotals> {
  const { signal, estimate } = options instanceof AbortSignal ? { signal: options, estimate: undefined } : options;
  const ids = [...new Set(taskIds)];
  const out: WindowTotals = { totals: new Map(), records: new Map(), requestIds: [] };
  if (ids.length === 0) return out;
  // l10n-exempt: a cancelled request is never shown (reportError says nothing for it)
  if (signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'Refreshing task health was cancelled' });
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const ask = async (group: string[]): Promise<void> => {
    const query: AnalyticsQuery = { start: range.start, end: range.end, taskIds: group, timeGranularity: HEALTH_GRANULARITY };
    let answer: FetchAllResult;
    try {
      answer = await source.queryAllTaskAnalytics(query, { signal: stop.signal });
    } catch (error) {
      stop.abort(); // the first failure stops the other batches
      throw error;
    }
    out.requestIds.push(...answer.requestIds);
    // A batch answers for its own ids only; anything else in a reply is not trusted.
    const own = new Set(group);
    for (const [id, t] of totalsByTask(answer.records, own)) out.totals.set(id, t);
    for (const r of answer.records) if (own.has(r.taskId)) out.records.set(r.taskId, (out.records.get(r.taskId) ?? 0) + 1);
  };
  try {
    const known = ids.filter((id) => estimate?.has(id) === true);
    let rest = ids;
    let perId = known.length > 0 ? known.reduce((n, id) => n + (estimate?.get(id) ?? 0), 0) / known.length : 1;
    const unknown = ids.filter((id) => estimate?.has(id) !== true);
    if (known.length === 0 && unknown.length > HEALTH_BATCH) {
      // Nothing to go by: one batch alone tells how many records a task answers here.
      const probe = unknown.slice(0, HEALTH_BATCH);
      await ask(probe);
      perId = recordsPerId(probe.reduce((n, id) => n + (out.records.get(id) ?? 0), 0), probe.length);
      rest = unknown.slice(HEALTH_BATCH);
    }
    const groups = planBatches(rest, (id) => estimate?.get(id) ?? perId);
    const settled = await Promise.allSettled(groups.map(ask));
    const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
    if (failures.length > 0) throw failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    return out;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
