import * as assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';

import { ApiError } from '../../src/api/errors/errors';
import { fetchAllPages, MAX_FETCH_ALL_ROWS } from '../../src/api/http/fetchAll';
import type { AnalyticsQuery } from '../../src/api/schemas/schemas';

const query: AnalyticsQuery = { start: '2026-11-01', end: '2026-11-22' };

/** A page source that claims `total` rows and returns no records; counts its calls. */
function claiming(total: number) {
  const pages: number[] = [];
  const fetchPage = (q: AnalyticsQuery) => {
    pages.push(q.page ?? 0);
    return Promise.resolve({ data: { total, data: [] }, requestId: `r${q.page ?? 0}` });
  };
  return { fetchPage, pages };
}

describe('api: fetch every page', () => {
  it('refuses an absurd total after page 1, as an ApiError with its request id', async () => {
    const { fetchPage, pages } = claiming(1e12);
    await assert.rejects(fetchAllPages(fetchPage, query), (e: unknown) => {
      assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
      assert.equal(e.kind, 'invalid-request');
      assert.equal(e.requestId, 'r1');
      assert.match(e.message, /1,000,000,000,000 rows; fetching all of them is limited to 100,000/);
      return true;
    });
    assert.deepEqual(pages, [1]);
  });

  it("asks the caller about page 1's total before any other page: false stops there, as cancelled", async () => {
    const seen: number[] = [];
    const { fetchPage, pages } = claiming(1_000);
    await assert.rejects(
      fetchAllPages(fetchPage, query, { onTotal: (total) => (seen.push(total), total <= 500) }),
      (e: unknown) => e instanceof ApiError && e.kind === 'cancelled' && e.requestId === 'r1',
    );
    assert.deepEqual(pages, [1]);
    assert.deepEqual(seen, [1_000]);
    const fine = claiming(300);
    assert.equal((await fetchAllPages(fine.fetchPage, query, { onTotal: (total) => total <= 500 })).total, 300);
    assert.equal(fine.pages.length, 3, 'true: every page');
  });

  it('fetches up to the limit', async () => {
    const { fetchPage, pages } = claiming(MAX_FETCH_ALL_ROWS);
    const result = await fetchAllPages(fetchPage, query);
    assert.equal(result.total, MAX_FETCH_ALL_ROWS);
    assert.equal(pages.length, MAX_FETCH_ALL_ROWS / 100);
    assert.equal(new Set(pages).size, pages.length, 'each page once');
  });

  it('adds one abort listener per fetch, not one per page request: no MaxListenersExceededWarning on 150 pages', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => {
      warnings.push(w.name);
    };
    process.on('warning', onWarning);
    const outer = new AbortController();
    let most = 0;
    const seen = new Set<AbortSignal>();
    const fetchPage = async (q: AnalyticsQuery, signal: AbortSignal) => {
      // What the transport does while a request is queued and in flight: listeners of its own.
      const listeners = [(): void => undefined, (): void => undefined];
      for (const l of listeners) signal.addEventListener('abort', l);
      seen.add(signal);
      most = Math.max(most, getEventListeners(signal, 'abort').length, getEventListeners(outer.signal, 'abort').length);
      await new Promise((r) => setTimeout(r, 2));
      for (const l of listeners) signal.removeEventListener('abort', l);
      return { data: { total: 15_000, data: [] }, requestId: `r${q.page ?? 0}` };
    };
    try {
      await fetchAllPages(fetchPage, query, { signal: outer.signal });
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    assert.deepEqual(warnings, []);
    assert.ok(most <= 3, `${most} abort listeners on one signal`);
    assert.ok(seen.size >= 150, 'each page request had a signal of its own');
    assert.equal(getEventListeners(outer.signal, 'abort').length, 0, "the caller's signal is left clean");
  });

  it('still stops every page in flight when the caller cancels', async () => {
    const outer = new AbortController();
    let aborted = 0;
    const fetchPage = (q: AnalyticsQuery, signal: AbortSignal) =>
      new Promise<{ data: { total: number; data: never[] }; requestId: string }>((resolve, reject) => {
        if (q.page === 1) return resolve({ data: { total: 5_000, data: [] }, requestId: 'r1' });
        signal.addEventListener('abort', () => {
          aborted++;
          reject(new ApiError({ kind: 'cancelled', message: 'cancelled' }));
        });
        if (q.page === 2) setTimeout(() => outer.abort(), 10);
      });
    await assert.rejects(
      fetchAllPages(fetchPage, query, { signal: outer.signal }),
      (e: unknown) => e instanceof ApiError && e.kind === 'cancelled',
    );
    assert.ok(aborted >= 2, `${aborted} page requests were stopped`);
  });
});
