/** Paging and "Fetch all pages" in headless Chromium: controls, disabled ends, progress, cancel. */
import * as assert from 'node:assert/strict';
import type { AnalyticsPage } from './harness';
import { useStandIn } from './standIn';
import { answer, assertClean, runAndAnswer, tableRows } from './flows';
import { grid } from './records';
import { encodeForPage } from '../../src/webview/protocol/hostMessage';
import { analyticsQuerySchema } from '../../src/api/schemas';

describe('analytics page: paging and fetch all', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => { p = await host.open(); });

  const all = grid(9, 5, '2026-11-22'); // 45 rows: pages of 20, 20, 5
  const disabled = async (id: string): Promise<boolean> => p.page.locator(`#${id}`).isDisabled();

  it('shows "Rows x–y of total", pages with Next/Prev/First/Last and disables them at the ends', async () => {
    await runAndAnswer(p, all.slice(0, 20), 45);
    assert.equal(await p.text('#rows-range'), 'Rows 1–20 of 45 · Page 1 of 3');
    assert.deepEqual([await disabled('page-first'), await disabled('page-prev'), await disabled('page-next'), await disabled('page-last')], [true, true, false, false]);

    await p.page.click('#page-next');
    const q2 = await p.waitForPosted('query', 2);
    assert.equal((q2.query as { page: number }).page, 2);
    assert.equal(await disabled('page-next'), true, 'paging buttons wait while a page is loading');
    await answer(p, q2, all.slice(20, 40), 45);
    await p.page.locator('#rows-range', { hasText: 'Rows 21–40 of 45' }).waitFor();
    assert.deepEqual([await disabled('page-first'), await disabled('page-prev'), await disabled('page-next'), await disabled('page-last')], [false, false, false, false]);

    await p.page.click('#page-last');
    const q3 = await p.waitForPosted('query', 3);
    assert.equal((q3.query as { page: number }).page, 3);
    await answer(p, q3, all.slice(40), 45);
    await p.page.locator('#rows-range', { hasText: 'Rows 41–45 of 45 · Page 3 of 3' }).waitFor();
    assert.deepEqual([await disabled('page-first'), await disabled('page-prev'), await disabled('page-next'), await disabled('page-last')], [false, false, true, true]);
    assert.equal((await tableRows(p)).length, 5);

    await p.page.click('#page-prev');
    assert.equal(((await p.waitForPosted('query', 4)).query as { page: number }).page, 2);
    await assertClean(p);
  });

  it('pages the query that produced the result, not later edits of the form', async () => {
    await runAndAnswer(p, all.slice(0, 20), 45);
    await p.page.fill('#f-pageSize', '5');
    await p.page.click('#page-next');
    const q = await p.waitForPosted('query', 2);
    assert.deepEqual([(q.query as { pageSize: number }).pageSize, (q.query as { page: number }).page], [20, 2]);
  });

  it('fetches all pages with progress, and Cancel sends cancel with the same id', async () => {
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    assert.equal((f.query as { pageSize: number }).pageSize, 100);
    assert.ok(!('page' in (f.query as object)));
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 100, total: 250 });
    await p.page.locator('#busy-text', { hasText: 'Fetched 100 of 250 rows' }).waitFor();
    const progress = p.page.locator('#fetch-progress');
    assert.deepEqual([await progress.getAttribute('value'), await progress.getAttribute('max')].map(Number), [100, 250]);
    assert.equal(await progress.isVisible(), true);
    await p.page.click('#cancel');
    assert.deepEqual(await p.waitForPosted('cancel'), { type: 'cancel', id: f.id });
    await p.page.locator('#busy').waitFor({ state: 'hidden' });
    await p.page.locator('#notice', { hasText: 'cancelled' }).waitFor();
    // Late messages for the cancelled request change nothing.
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 200, total: 250 });
    await p.send({ type: 'fetchAllResult', id: f.id, resultId: 'result-all', query: f.query, total: 45, records: all, requestIds: ['a'] });
    await p.page.waitForTimeout(100);
    assert.equal(await p.page.locator('#busy').isHidden(), true);
    assert.equal(await p.page.locator('#results').isHidden(), true);
    await assertClean(p);
  });

  it('a cancel the host sends for the running fetch (the account changed) ends the wait and says why', async () => {
    await runAndAnswer(p, all.slice(0, 20), 45);
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 100, total: 250 });
    await p.page.locator('#busy-text', { hasText: 'Fetched 100 of 250 rows' }).waitFor();
    await p.send({ type: 'error', id: f.id, error: { kind: 'cancelled', message: 'The client is closed' } });
    await p.page.locator('#busy').waitFor({ state: 'hidden' });
    await p.page.locator('#notice', { hasText: 'Fetching all pages was stopped: The client is closed' }).waitFor();
    assert.equal(await disabled('page-next'), false, 'paging works again');
    assert.equal((await tableRows(p)).length, 20, 'the last result is kept');
    await assertClean(p);
  });

  it('replaces the table and charts with every page, and the pager says "All N rows"', async () => {
    await runAndAnswer(p, all.slice(0, 20), 45);
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 20, total: 45 });
    await p.send({ type: 'fetchAllResult', id: f.id, resultId: 'result-all', query: f.query, total: 45, records: all, requestIds: ['r1', 'r2', 'r3'] });
    await p.page.locator('#rows-range', { hasText: 'All 45 rows' }).waitFor();
    assert.equal(await p.page.locator('nav.pager').isHidden(), true);
    assert.equal((await tableRows(p)).length, 45);
    assert.equal(await p.page.locator('#busy').isHidden(), true);
    assert.match((await p.page.locator('#chart-runs').getAttribute('aria-label')) ?? '', /5 date buckets/);
  });

  it('shows the first rows of a large result and the rest on "Show more" / "Show all"', async () => {
    const big = grid(20, 60, '2026-11-22'); // 1,200 rows
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    // As the panel sends it: records packed as rows (src/webview/protocol/hostMessage.ts).
    await p.send(encodeForPage({ type: 'fetchAllResult', id: String(f.id), resultId: 'result-all', query: analyticsQuerySchema.parse(f.query), total: big.length, records: big, requestIds: [] }));
    await p.page.locator('#rows-range', { hasText: 'All 1,200 rows' }).waitFor();
    assert.equal((await tableRows(p)).length, 100);
    assert.match(await p.text('.table-more'), /Showing 100 of 1,200 rows/);
    await p.page.click('#show-more');
    assert.equal((await tableRows(p)).length, 200);
    await p.page.click('#show-all');
    assert.equal((await tableRows(p)).length, 1200);
    assert.equal(await p.page.locator('.table-more').isHidden(), true);
  });
});
