import * as assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { MAX_FETCH_ALL_ROWS, fetchAllPages } from '../../src/api/fetchAll';
import type { AnalyticsQuery } from '../../src/api/schemas';

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

  it('fetches up to the limit', async () => {
    const { fetchPage, pages } = claiming(MAX_FETCH_ALL_ROWS);
    const result = await fetchAllPages(fetchPage, query);
    assert.equal(result.total, MAX_FETCH_ALL_ROWS);
    assert.equal(pages.length, MAX_FETCH_ALL_ROWS / 100);
    assert.equal(new Set(pages).size, pages.length, 'each page once');
  });
});
