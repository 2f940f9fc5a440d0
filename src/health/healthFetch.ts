/**
 * One window's totals for many tasks, as cheaply as the spec allows: when the ids are every task
 * of the account and there are more than 100, one query for all tasks (no `taskIds`), paged at
 * 100 rows, so every page is full; otherwise the ids in batches of up to 100 (the spec's maximum),
 * each one query paged at 100 rows (the client's `queryAllTaskAnalytics`), all batches at once
 * through the client's shared rate limiter. The first failure cancels the rest.
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
import { ApiError } from '../api/errors/errors';
import { type FetchAllOptions, type FetchAllResult, MAX_FETCH_ALL_ROWS } from '../api/http/fetchAll';
import { ANALYTICS_LIMITS, type AnalyticsQuery, type TimeGranularity } from '../api/schemas/schemas';
import { type AccountQuery, planBatches, planWindow, recordsPerId } from './batchPlan';
import { type Totals, totalsByTask } from './healthModel';
import type { DayRange } from './healthWindow';

export const HEALTH_GRANULARITY: TimeGranularity = 'Month';

/** The most records one task answers for `range` at `HEALTH_GRANULARITY`: one per method and month the range touches. */
export function mostRecordsPerTask(range: DayRange): number {
  const month = (day: string): number => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  return 2 * Math.max(1, month(range.end) - month(range.start) + 1);
}
export const HEALTH_BATCH = ANALYTICS_LIMITS.maxTaskIds;

/** The part of the client this needs (ScrapedeckClient fits). */
export interface AnalyticsSource {
  queryAllTaskAnalytics(
    query: AnalyticsQuery,
    o?: Pick<FetchAllOptions, 'signal' | 'onTotal'>,
  ): Promise<FetchAllResult>;
}

export interface WindowTotals {
  totals: Map<string, Totals>;
  /** Records answered per task (tasks with none are absent): the estimate for the next query of these tasks. */
  records: Map<string, number>;
  /** One per request, in the order they were answered. */
  requestIds: string[];
  /**
   * Records a query for every task answered (tasks not asked included), when the window was asked
   * so, or would have answered when page 1 showed it was more than the ids can answer.
   */
  accountRecords?: number;
}

export interface FetchWindowOptions {
  signal?: AbortSignal;
  /** Records expected per task id (e.g. `records` of an earlier answer); tasks without one are guessed. */
  estimate?: ReadonlyMap<string, number>;
  /** Given: a query for every task may be asked instead of batches, when it is expected to take fewer pages. */
  account?: AccountQuery;
}

export async function fetchWindowTotals(
  source: AnalyticsSource,
  taskIds: readonly string[],
  range: DayRange,
  options: FetchWindowOptions | AbortSignal = {},
): Promise<WindowTotals> {
  const { signal, estimate, account } =
    options instanceof AbortSignal ? { signal: options, estimate: undefined, account: undefined } : options;
  const ids = [...new Set(taskIds)];
  const out: WindowTotals = { totals: new Map(), records: new Map(), requestIds: [] };
  if (ids.length === 0) return out;
  // l10n-exempt: a cancelled request is never shown (reportError says nothing for it)
  if (signal?.aborted) throw new ApiError({ kind: 'cancelled', message: 'Refreshing task health was cancelled' });
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  // Each batch gets a signal of its own, all stopped by one listener on `stop`: a dozen batches
  // sharing one signal passed Node's limit of ten listeners (MaxListenersExceededWarning).
  const inFlight = new Set<AbortController>();
  stop.signal.addEventListener('abort', () => inFlight.forEach((c) => c.abort()), { once: true });
  /**
   * `group`: the ids asked; undefined asks for every task, of which only `ids` are kept, and
   * `mostRecords` is the most it may answer (page 1's total above it: stopped, false returned).
   */
  const ask = async (group: string[] | undefined, mostRecords = Infinity): Promise<boolean> => {
    const query: AnalyticsQuery = {
      start: range.start,
      end: range.end,
      timeGranularity: HEALTH_GRANULARITY,
      ...(group ? { taskIds: group } : {}),
    };
    const own = new AbortController();
    if (stop.signal.aborted) own.abort();
    inFlight.add(own);
    let tooMany: number | undefined;
    const onTotal = (total: number): boolean => {
      if (total <= mostRecords) return true;
      tooMany = total;
      return false;
    };
    let answer: FetchAllResult;
    try {
      answer = await source.queryAllTaskAnalytics(query, { signal: own.signal, ...(group ? {} : { onTotal }) });
    } catch (error) {
      if (tooMany !== undefined && !stop.signal.aborted) {
        out.accountRecords = tooMany;
        if (error instanceof ApiError && error.requestId !== undefined) out.requestIds.push(error.requestId); // it was sent
        return false;
      }
      stop.abort(); // the first failure stops the other batches
      throw error;
    } finally {
      inFlight.delete(own);
    }
    out.requestIds.push(...answer.requestIds);
    if (!group) out.accountRecords = answer.records.length;
    // A query answers for the ids it was asked for only; anything else in a reply is not kept.
    const kept = new Set(group ?? ids);
    for (const [id, t] of totalsByTask(answer.records, kept)) out.totals.set(id, t);
    for (const r of answer.records)
      if (kept.has(r.taskId)) out.records.set(r.taskId, (out.records.get(r.taskId) ?? 0) + 1);
    return true;
  };
  try {
    const known = ids.filter((id) => estimate?.has(id) === true);
    let rest = ids;
    let perId = known.length > 0 ? known.reduce((n, id) => n + (estimate?.get(id) ?? 0), 0) / known.length : 1;
    const plan = planWindow(ids, (id) => estimate?.get(id) ?? perId, account, {
      maxRecords: MAX_FETCH_ALL_ROWS,
      perTask: mostRecordsPerTask(range),
    });
    // A query for every task that answers more than these ids can (the list was not every task,
    // or the account grew past what was planned) stops after page 1 and the batches take over.
    if (plan.kind === 'account' && (await ask(undefined, plan.mostRecords))) return out;
    const unknown = ids.filter((id) => estimate?.has(id) !== true);
    if (known.length === 0 && unknown.length > HEALTH_BATCH) {
      // Nothing to go by: one batch alone tells how many records a task answers here.
      const probe = unknown.slice(0, HEALTH_BATCH);
      await ask(probe);
      perId = recordsPerId(
        probe.reduce((n, id) => n + (out.records.get(id) ?? 0), 0),
        probe.length,
      );
      rest = unknown.slice(HEALTH_BATCH);
    }
    const groups =
      rest === ids && plan.kind === 'batches' ? plan.groups : planBatches(rest, (id) => estimate?.get(id) ?? perId);
    const settled = await Promise.allSettled(groups.map((group) => ask(group)));
    const failures = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => s.reason as unknown);
    if (failures.length > 0)
      throw failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    return out;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
