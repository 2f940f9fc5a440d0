/**
 * The rows of a query the panel does not have yet: pages `from`..`to` (of 100 rows) through the
 * client, so every request takes its turn in the client's shared limiter. A few pages are asked
 * for at once so the limiter, not the round trips, sets the pace; they are put back in page order.
 * The first failure stops the rest. Nothing is handed back once the signal fired. Pages are also
 * handed on in order as soon as they follow on from the ones before (`onRows`), so a caller can
 * pass the rows along while the later pages are still on their way.
 */
import type { ScrapedeckClient } from '../../api/client';
import { ApiError } from '../../api/errors/errors';
import { ANALYTICS_LIMITS, type AnalyticsQuery, type AnalyticsRecord } from '../../api/schemas/schemas';

export type PageClient = Pick<ScrapedeckClient, 'queryTaskAnalytics'>;

export const PAGE_ROWS = ANALYTICS_LIMITS.pageSizeMax;

/** Enough asks in flight to keep a 20 req/s limiter busy over a slow link; few enough to stop promptly. */
const IN_FLIGHT = 6;

export interface PageRun {
  client: PageClient;
  /** The query; its page and page size are set here. */
  query: AnalyticsQuery;
  /** First and last page to fetch (1-based, inclusive). */
  from: number;
  to: number;
  signal: AbortSignal;
  /**
   * After each page: the rows fetched so far by this run, and the rows that now follow on, in page
   * order, from those handed on before (empty while an earlier page is still on its way).
   */
  onRows?: (rows: number, inOrder: AnalyticsRecord[]) => void;
}

export interface PagesFetched {
  records: AnalyticsRecord[];
  requestIds: string[];
}

const cancelled = (): ApiError =>
  // l10n-exempt: a cancelled request is never shown (reportError says nothing for it)
  new ApiError({ kind: 'cancelled', message: 'Fetching the rest of the rows was cancelled.' });

export async function fetchPages(run: PageRun): Promise<PagesFetched> {
  if (run.signal.aborted) throw cancelled();
  const count = Math.max(0, run.to - run.from + 1);
  const pages: AnalyticsRecord[][] = new Array<AnalyticsRecord[]>(count);
  const requestIds: (string | undefined)[] = new Array<string | undefined>(count);
  // One controller for this run's requests: the caller's signal, or the first failure, stops them all.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  run.signal.addEventListener('abort', onAbort, { once: true });
  // Each request its own signal, all stopped by one listener: the transport listens on every
  // signal it is given, and six requests on one signal pass Node's warning limit of ten listeners.
  const live = new Set<AbortController>();
  stop.signal.addEventListener('abort', () => live.forEach((c) => c.abort()), { once: true });
  let nextIndex = 0;
  let rows = 0;
  let handedOn = 0;
  const followingOn = (): AnalyticsRecord[] => {
    const start = handedOn;
    while (handedOn < count && pages[handedOn] !== undefined) handedOn++;
    return pages.slice(start, handedOn).flat();
  };
  const ask = async (): Promise<void> => {
    for (let i = nextIndex++; i < count && !stop.signal.aborted; i = nextIndex++) {
      const own = new AbortController();
      live.add(own);
      const reply = await run.client
        .queryTaskAnalytics({ ...run.query, page: run.from + i, pageSize: PAGE_ROWS }, { signal: own.signal })
        .finally(() => live.delete(own));
      pages[i] = reply.data.data;
      requestIds[i] = reply.requestId;
      rows += reply.data.data.length;
      if (!stop.signal.aborted) run.onRows?.(rows, followingOn());
    }
  };
  try {
    const outcomes = await Promise.allSettled(
      Array.from({ length: Math.min(IN_FLIGHT, count) }, () =>
        ask().catch((e: unknown) => {
          stop.abort();
          throw e;
        }),
      ),
    );
    if (run.signal.aborted) throw cancelled();
    const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    // The failure that stopped the others, not the 'cancelled' it caused in them.
    const first = failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    if (first !== undefined) throw first;
    return { records: pages.flat(), requestIds: requestIds.filter((id): id is string => id !== undefined) };
  } finally {
    run.signal.removeEventListener('abort', onAbort);
  }
}
