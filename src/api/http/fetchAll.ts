/**
 * Every page of an analytics query. Page 1 (at the maximum page size) tells the total; the
 * remaining pages are fetched by a few concurrent workers — the client's limiter paces them —
 * and assembled in page order. The first failure cancels the rest and is the one reported.
 */
import { ApiError } from '../errors/errors';
import { ANALYTICS_LIMITS, type AnalyticsPage, type AnalyticsQuery, type AnalyticsRecord } from '../schemas/schemas';

export interface FetchAllProgress {
  fetched: number;
  total: number;
  /** Pages done so far. */
  page: number;
  pages: number;
}

export interface FetchAllOptions {
  signal?: AbortSignal;
  onProgress?: (p: FetchAllProgress) => void;
  /**
   * Told page 1's total before any other page is asked; false stops the fetch there, which then
   * fails as cancelled (a caller that expected fewer rows asks another way).
   */
  onTotal?: (total: number) => boolean;
}

export interface FetchAllResult {
  total: number;
  records: AnalyticsRecord[];
  requestIds: string[];
}

type FetchPage = (
  query: AnalyticsQuery,
  signal: AbortSignal,
) => Promise<{ data: AnalyticsPage; requestId: string | undefined }>;

/** Enough in flight to keep a 20 req/s limiter busy over a slow link, few enough to stop promptly. */
const WORKERS = 8;

/**
 * The most rows one "fetch all" assembles: 1,000 pages, under a minute at 20 requests a second,
 * and a few hundred MB at most in memory. A larger (or absurd) `total` is refused after page 1.
 */
export const MAX_FETCH_ALL_ROWS = 100_000;

export async function fetchAllPages(
  fetchPage: FetchPage,
  query: AnalyticsQuery,
  o: FetchAllOptions = {},
): Promise<FetchAllResult> {
  const pageSize = ANALYTICS_LIMITS.pageSizeMax;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  if (o.signal?.aborted)
    throw new ApiError({ kind: 'cancelled', message: 'Fetching the analytics pages was cancelled' });
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const first = await fetchPage({ ...query, page: 1, pageSize }, stop.signal);
    const total = first.data.total;
    if (o.onTotal !== undefined && !o.onTotal(total)) {
      throw new ApiError({
        kind: 'cancelled',
        requestId: first.requestId,
        message: 'Fetching the analytics pages was stopped after page 1',
      });
    }
    if (total > MAX_FETCH_ALL_ROWS) {
      throw new ApiError({
        kind: 'invalid-request',
        requestId: first.requestId,
        message: `This query matches ${total.toLocaleString('en-US')} rows; fetching all of them is limited to ${MAX_FETCH_ALL_ROWS.toLocaleString('en-US')}. Narrow the dates or tasks, use Week or Month, or page through the results.`,
      });
    }
    const pages = Math.max(1, Math.ceil(total / pageSize));
    const results: (AnalyticsPage | undefined)[] = new Array<AnalyticsPage | undefined>(pages);
    const requestIds: (string | undefined)[] = new Array<string | undefined>(pages);
    results[0] = first.data;
    requestIds[0] = first.requestId;
    let fetched = first.data.data.length;
    let done = 1;
    report(o, { fetched, total, page: done, pages });

    // Each page request gets a signal of its own, all stopped by ONE listener on `stop`: the
    // transport adds listeners per request, and eight workers sharing one signal passed Node's
    // limit of ten (MaxListenersExceededWarning on large fetches).
    const inFlight = new Set<AbortController>();
    stop.signal.addEventListener('abort', () => inFlight.forEach((c) => c.abort()), { once: true });
    let next = 2;
    const worker = async (): Promise<void> => {
      while (next <= pages && !stop.signal.aborted) {
        const page = next++;
        const own = new AbortController();
        inFlight.add(own);
        const reply = await fetchPage({ ...query, page, pageSize }, own.signal).finally(() => inFlight.delete(own));
        results[page - 1] = reply.data;
        requestIds[page - 1] = reply.requestId;
        fetched += reply.data.data.length;
        done++;
        report(o, { fetched, total, page: done, pages });
      }
    };
    const workers = Array.from({ length: Math.min(WORKERS, pages - 1) }, () =>
      worker().catch((e: unknown) => {
        stop.abort(); // the first failure stops the others
        throw e;
      }),
    );
    const settled = await Promise.allSettled(workers);
    const failures = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => s.reason as unknown);
    if (failures.length > 0) {
      // Prefer the failure that caused the stop over the 'cancelled' it induced in the others.
      throw failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    }
    if (o.signal?.aborted)
      throw new ApiError({ kind: 'cancelled', message: 'Fetching the analytics pages was cancelled' });
    return {
      total,
      records: results.flatMap((r) => r?.data ?? []),
      requestIds: requestIds.filter((id): id is string => id !== undefined),
    };
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
  }
}

function report(o: FetchAllOptions, p: FetchAllProgress): void {
  try {
    o.onProgress?.(p);
  } catch {
    // A failing progress callback must not abort the download.
  }
}
