/** State across reloads in headless Chromium: restore from init.state or getState, and what is kept. */
import * as assert from 'node:assert/strict';
import type { PageState } from '../../src/webview/protocol';
import type { AnalyticsPage } from './harness';
import { useStandIn } from './standIn';
import { assertClean, columnIndex, runAndAnswer, tableRows } from './flows';
import { grid, record } from './records';

describe('analytics page: state', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  const query = { start: '2026-11-01', end: '2026-11-20', page: 2, pageSize: 2, collectionMethod: 'Local' as const, timeGranularity: 'Day' as const };
  const records = [
    record({ taskId: 'a', taskName: 'Alpha', executionMetrics: { ...record().executionMetrics, runCount: 1 } }),
    record({ taskId: 'b', taskName: 'Beta', executionMetrics: { ...record().executionMetrics, runCount: 9 } }),
  ];
  const state: PageState = {
    version: 1,
    preset: { taskIds: ['a'], label: 'Alpha' },
    form: { start: '2026-11-01', end: '2026-11-20', timeGranularity: 'Day', collectionMethod: 'Local', taskIds: ['a'], taskLabels: ['Alpha'], memberNames: 'ann', pageSize: '2', page: 2 },
    result: { mode: 'page', query, total: 7, records, requestIds: ['r'], fetchedAt: '2026-11-20T10:00:00.000Z' },
    sort: { column: 'runCount', direction: 'desc' },
  };

  async function expectRestored(page: AnalyticsPage): Promise<void> {
    assert.equal(await page.page.inputValue('#f-start'), '2026-11-01');
    assert.equal(await page.page.inputValue('#f-method'), 'Local');
    assert.equal(await page.page.inputValue('#f-members'), 'ann');
    assert.equal(await page.page.inputValue('#f-pageSize'), '2');
    assert.deepEqual(await page.page.locator('#f-tasks li').allInnerTexts(), ['Alpha']);
    await page.page.locator('#results').waitFor({ state: 'visible' });
    assert.equal(await page.text('#rows-range'), 'Rows 3–4 of 7 · Page 2 of 4');
    assert.equal(await page.page.locator('th[data-column="runCount"]').getAttribute('aria-sort'), 'descending');
    const task = await columnIndex(page, 'task');
    assert.deepEqual((await tableRows(page)).map((r) => r[task]), ['Beta', 'Alpha']);
    assert.equal(await page.text('#subtitle'), 'For Alpha');
  }

  it('restores form, result and sort from init.state', async () => {
    p = await host.open({ state });
    await expectRestored(p);
    await assertClean(p);
  });

  it('prefers its own getState over the host copy (the freshest), and keeps paging from there', async () => {
    p = await host.open({ state: { version: 1 } }, { vsState: state });
    await expectRestored(p);
    await p.page.click('#page-next');
    const q = await p.waitForPosted('query');
    assert.deepEqual(q.query, { ...query, page: 3 });
  });

  it('ignores a restored state that does not parse and starts from defaults', async () => {
    p = await host.open({}, { vsState: { version: 1, result: { mode: 'nope' } } });
    assert.equal(await p.page.inputValue('#f-start'), '2026-11-16');
    assert.equal(await p.page.locator('#results').isHidden(), true);
  });

  it('applies a preset when there is no state', async () => {
    p = await host.open({ preset: { taskIds: ['t-7'], label: 'Seven' } });
    assert.deepEqual(await p.page.locator('#f-tasks li').allInnerTexts(), ['Seven']);
    await p.page.click('#run');
    assert.deepEqual(((await p.waitForPosted('query')).query as { taskIds: string[] }).taskIds, ['t-7']);
  });

  it('saves with setState after changes: the form as typed, the result and the sort', async () => {
    p = await host.open();
    await p.page.fill('#f-pageSize', '0');
    await p.page.waitForFunction(() => (globalThis as unknown as { __vsState?: { form?: { pageSize: string } } }).__vsState?.form?.pageSize === '0');
    await p.page.fill('#f-pageSize', '5');
    await runAndAnswer(p, records, 2);
    await p.page.click('th[data-column="task"] button');
    await p.page.waitForFunction(() => (globalThis as unknown as { __vsState?: { sort?: unknown } }).__vsState?.sort !== undefined);
    const saved = (await p.vsState()) as PageState;
    assert.equal(saved.version, 1);
    assert.equal(saved.form?.pageSize, '5');
    assert.equal(saved.result?.records.length, 2);
    assert.deepEqual(saved.sort, { column: 'task', direction: 'asc' });
  });

  it('does not keep a very large "all pages" result across reloads, and says so after one', async () => {
    p = await host.open();
    await p.page.click('#fetch-all');
    const f = await p.waitForPosted('fetchAll');
    const big = grid(60, 100, '2026-11-22');
    await p.send({ type: 'fetchAllResult', id: f.id, resultId: 'result-all', query: f.query, total: big.length, records: big, requestIds: [] });
    await p.page.locator('#rows-range', { hasText: 'All 6,000 rows' }).waitFor();
    await p.page.waitForFunction(() => (globalThis as unknown as { __vsState?: { result?: unknown } }).__vsState?.result !== undefined);
    const saved = (await p.vsState()) as PageState;
    assert.equal(saved.result?.records.length, 0);
    assert.equal(saved.result?.total, 6000);
    p = await host.open({ state: saved });
    await p.page.locator('#notice', { hasText: 'too many to keep' }).waitFor();
    assert.equal(await p.page.locator('#results').isHidden(), true);
  });
});
