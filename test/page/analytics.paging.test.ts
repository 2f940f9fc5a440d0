/**
 * Paging in headless Chromium: the table pages through the rows on the page (no request), the
 * page size changes the table only, "Fetch all pages" with progress and Cancel.
 */
import * as assert from 'node:assert/strict';

import { answerRest, assertClean, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

describe('analytics page: paging and fetch all', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open();
  });

  const all = grid(9, 5, '2026-11-22'); // 45 rows: pages of 20, 20, 5
  const disabled = async (id: string): Promise<boolean> => p.page.locator(`#${id}`).isDisabled();
  const buttons = async (): Promise<boolean[]> => [
    await disabled('page-first'),
    await disabled('page-prev'),
    await disabled('page-next'),
    await disabled('page-last'),
  ];
  const taskIds = async (): Promise<string[]> => (await tableRows(p)).map((r) => r[1] ?? '');

  it('asks the service for 100 rows a page, whatever the page size, and pages the table itself', async () => {
    const q = await runAndAnswer(p, all);
    assert.deepEqual(q.query, {
      start: '2026-11-16',
      end: '2026-11-22',
      page: 1,
      pageSize: 100,
      collectionMethod: 'All',
      timeGranularity: 'Day',
    });
    assert.equal(await p.text('#rows-range'), 'Rows 1–20 of 45 · Page 1 of 3');
    assert.deepEqual(await buttons(), [true, true, false, false]);
    assert.deepEqual(
      await taskIds(),
      all.slice(0, 20).map((r) => r.taskId),
    );

    await p.page.click('#page-next');
    await p.page.locator('#rows-range', { hasText: 'Rows 21–40 of 45 · Page 2 of 3' }).waitFor();
    assert.deepEqual(
      await taskIds(),
      all.slice(20, 40).map((r) => r.taskId),
    );
    assert.deepEqual(await buttons(), [false, false, false, false]);

    await p.page.click('#page-last');
    await p.page.locator('#rows-range', { hasText: 'Rows 41–45 of 45 · Page 3 of 3' }).waitFor();
    assert.deepEqual(await buttons(), [false, false, true, true]);
    assert.equal((await tableRows(p)).length, 5);
    await p.page.click('#page-prev');
    await p.page.locator('#rows-range', { hasText: 'Page 2 of 3' }).waitFor();
    assert.equal((await p.postedOf('query')).length, 1, 'paging sent nothing');
    assert.equal((await p.postedOf('fetchAll')).length, 0, 'every row was here already');
    await assertClean(p);
  });

  it('a new page size changes the table only: same rows, same figures, no request', async () => {
    await runAndAnswer(p, all);
    const runs = await p.text('[data-figure="runs"]');
    await p.page.fill('#f-pageSize', '7');
    await p.page.locator('#rows-range', { hasText: 'Rows 1–7 of 45 · Page 1 of 7' }).waitFor();
    assert.equal((await tableRows(p)).length, 7);
    assert.equal(await p.text('[data-figure="runs"]'), runs);
    await p.page.fill('#f-pageSize', '0'); // invalid: the table keeps the last good size
    await p.page.locator('#err-pageSize').waitFor({ state: 'visible' });
    assert.equal((await tableRows(p)).length, 7);
    assert.equal((await p.postedOf('query')).length, 1);
    await assertClean(p);
  });

  it('pages over the whole sorted result, not one page at a time', async () => {
    await runAndAnswer(p, all);
    await p.page.click('th[data-column="runCount"] button');
    await p.page.click('#page-next');
    const runs = (await tableRows(p)).map((r) => Number(r[9]));
    const sorted = all.map((r) => r.executionMetrics.runCount ?? 0).sort((a, b) => a - b);
    assert.deepEqual(runs, sorted.slice(20, 40));
  });

  it('Fetch all pages of a query not on screen: progress, then every row; Cancel sends cancel with the same id', async () => {
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    assert.equal((f.query as { pageSize: number }).pageSize, 100);
    assert.equal(f.scope, 'all');
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 100, total: 250 });
    await p.page.locator('#busy-text', { hasText: 'Fetched 100 of 250 rows' }).waitFor();
    const progress = p.page.locator('#fetch-progress');
    assert.deepEqual(
      [await progress.getAttribute('value'), await progress.getAttribute('max')].map(Number),
      [100, 250],
    );
    await p.page.click('#cancel');
    assert.deepEqual(await p.waitForPosted('cancel'), { type: 'cancel', id: f.id });
    await p.page.locator('#busy').waitFor({ state: 'hidden' });
    await p.page.locator('#notice', { hasText: 'cancelled' }).waitFor();
    // Late messages for the cancelled request change nothing.
    await p.send({ type: 'fetchAllProgress', id: f.id, fetched: 200, total: 250 });
    await p.send({
      type: 'fetchAllResult',
      id: f.id,
      resultId: 'result-late',
      query: f.query,
      total: 45,
      records: all,
      requestIds: ['a'],
    });
    await p.page.waitForTimeout(100);
    assert.equal(await p.page.locator('#busy').isHidden(), true);
    assert.equal(await p.page.locator('#results').isHidden(), true);

    await p.page.click('#fetch-all');
    await answerRest(p, await p.waitForPosted('fetchAll', 2), all, 45);
    await p.page.locator('#rows-range', { hasText: 'Rows 1–20 of 45 · Page 1 of 3' }).waitFor();
    await p.page.locator('#coverage', { hasText: 'Figures for all 45 rows of this query.' }).waitFor();
    await assertClean(p);
  });
});
