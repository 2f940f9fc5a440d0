/**
 * The rows of a whole query, kept on the host under the result's id. "Run query" fetches page 1
 * (100 rows); the page then asks for the rest: up to `scrapedeck.analytics.autoFetchRows` by itself
 * ('auto'), or every row ('all', "Fetch all pages"). A result the host still holds is continued
 * from the rows it has; otherwise the query starts again from page 1.
 */
import { ApiError } from '../../api/errors/errors';
import { MAX_FETCH_ALL_ROWS } from '../../api/http/fetchAll';
import type { AnalyticsQuery, AnalyticsRecord } from '../../api/schemas/schemas';
import { english, type Translate } from '../../platform/errorText';
import { formatInt } from '../model/format';
import { fetchPages, PAGE_ROWS, type PageClient } from './fetchRows';
import type { HeldResult, ResultStore } from './results';

export interface RowsAsk {
  query: AnalyticsQuery;
  /** The result to continue, when the page has one. */
  resultId?: string;
  scope: 'auto' | 'all';
}

export interface RowsProgress {
  fetched: number;
  total: number;
  /** Where this fetch stops: below `total` when capped by the setting. */
  target: number;
  /**
   * The result's rows that follow on from those reported before, in order: first the rows held
   * when the fetch starts, then each page as soon as the pages before it are in. Together they are
   * the result's rows once the fetch completes, so the page can take them in along the way.
   */
  added: AnalyticsRecord[];
}

/** The query as the service is asked it here: from page 1, at the largest page size. */
export function firstPageOf(query: AnalyticsQuery): AnalyticsQuery {
  return { ...query, page: 1, pageSize: PAGE_ROWS };
}

/** Same rows asked for (page and page size aside). */
function sameQuery(a: AnalyticsQuery, b: AnalyticsQuery): boolean {
  const key = (q: AnalyticsQuery): string => JSON.stringify(firstPageOf(q), Object.keys(firstPageOf(q)).sort());
  return key(a) === key(b);
}

/** Rows held so far are whole pages of 100 from page 1, so the next page follows on from them. */
function continuable(held: HeldResult): boolean {
  return (
    held.query.pageSize === PAGE_ROWS &&
    (held.query.page ?? 1) === 1 &&
    (held.records.length % PAGE_ROWS === 0 || held.records.length >= held.total)
  );
}

export class WholeQuery {
  /** One fetch per result at a time: a second waits for the first to end (it is being cancelled). */
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(
    private readonly results: ResultStore,
    private readonly autoFetchRows: () => number,
    private readonly t: Translate = english,
  ) {}

  async fetch(
    client: PageClient,
    ask: RowsAsk,
    signal: AbortSignal,
    progress: (p: RowsProgress) => void,
  ): Promise<{ resultId: string; held: HeldResult }> {
    let resultId = ask.resultId;
    let held = resultId === undefined ? undefined : this.results.get(resultId);
    if (held && resultId !== undefined) await this.running.get(resultId)?.catch(() => undefined);
    if (!held || !sameQuery(held.query, ask.query) || !continuable(held)) {
      const query = firstPageOf(ask.query);
      const first = await client.queryTaskAnalytics(query, { signal });
      held = {
        query,
        total: first.data.total,
        records: first.data.data,
        requestIds: first.requestId === undefined ? [] : [first.requestId],
      };
      resultId = this.results.add(held);
    }
    const id = resultId as string;
    const run = this.extend(client, held, ask.scope, signal, progress);
    this.running.set(id, run);
    try {
      await run;
    } finally {
      if (this.running.get(id) === run) this.running.delete(id);
    }
    return { resultId: id, held };
  }

  /** Fetches `held`'s missing pages up to the scope's target and adds them, unless cancelled. */
  private async extend(
    client: PageClient,
    held: HeldResult,
    scope: RowsAsk['scope'],
    signal: AbortSignal,
    progress: (p: RowsProgress) => void,
  ): Promise<void> {
    const { total } = held;
    if (scope === 'all' && total > MAX_FETCH_ALL_ROWS) {
      throw new ApiError({
        kind: 'invalid-request',
        message: this.t(
          'This query matches {0} rows; fetching all of them is limited to {1}. Narrow the dates or tasks, or use Week or Month.',
          formatInt(total),
          formatInt(MAX_FETCH_ALL_ROWS),
        ),
      });
    }
    const have = held.records.length;
    const target = scope === 'all' ? total : Math.min(total, Math.max(have, this.autoFetchRows()));
    progress({ fetched: have, total, target, added: held.records });
    if (have >= target) return;
    const got = await fetchPages({
      client,
      query: held.query,
      from: have / PAGE_ROWS + 1,
      to: Math.ceil(target / PAGE_ROWS),
      signal,
      onRows: (rows, inOrder) => progress({ fetched: have + rows, total, target, added: inOrder }),
    });
    // Added in one step, and only by a fetch that was not cancelled: nothing arrives late.
    held.records = held.records.concat(got.records);
    held.requestIds = held.requestIds.concat(got.requestIds);
  }
}
