/** State across reloads in headless Chromium: restore from init.state or getState, and what is kept. */
import * as assert from 'node:assert/strict';

import type { PageState } from '../../src/analytics/protocol';
import { answerRest, assertClean, columnIndex, resultIdOf, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { grid, record } from './records';
import { useStandIn } from './standIn';

describe('analytics page: state', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  const query = {
    start: '2026-11-01',
    end: '2026-11-20',
    page: 1,
    pageSize: 100,
    collectionMethod: 'Local' as const,
    timeGranularity: 'Day' as const,
  };
  // Seven rows, run counts 1..7: sorted by runs, descending, page 2 of 2-row pages holds 5 and 4.
  const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta'];
  const records = names.map((taskName, i) =>
    record({ taskId: `t${i}`, taskName, executionMetrics: { ...record().executionMetrics, runCount: i + 1 } }),
  );
  const form = {
    start: '2026-11-01',
    end: '2026-11-20',
    timeGranularity: 'Day' as const,
    collectionMethod: 'Local' as const,
    taskIds: ['t0'],
    taskLabels: ['Alpha'],
    memberNames: 'ann',
    pageSize: '2',
    page: 2,
  };
  const state: PageState = {
    version: 2,
    preset: { taskIds: ['t0'], label: 'Alpha' },
    form,
    result: {
      query,
      total: 7,
      records,
      requestIds: ['r'],
      fetchedAt: '2026-11-20T10:00:00.000Z',
      resultId: 'result-3',
    },
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
    assert.deepEqual(
      (await tableRows(page)).map((r) => r[task]),
      ['Epsilon', 'Delta'],
    );
    // The header describes the query on screen: the restored result's (all tasks, Nov 1 – Nov 20).
    assert.equal(await page.text('#subtitle'), 'All tasks · Nov 1 – Nov 20, 2026 · by day');
  }

  it('restores form, result and sort from init.state', async () => {
    p = await host.open({ state });
    await expectRestored(p);
    await assertClean(p);
  });

  it('prefers its own getState over the host copy (the freshest), and keeps paging from there', async () => {
    p = await host.open({ state: { version: 2 } }, { vsState: state });
    await expectRestored(p);
    await p.page.click('#page-next');
    await p.page.locator('#rows-range', { hasText: 'Rows 5–6 of 7 · Page 3 of 4' }).waitFor();
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[1]),
      ['t2', 't1'],
    );
    assert.equal(
      (await p.postedOf('query')).length + (await p.postedOf('fetchAll')).length,
      0,
      'the rows are here: nothing asked',
    );
  });

  it('reads a state saved by the version before: its form and sort, not its one-page result', async () => {
    const old = { ...state, version: 1, result: { ...state.result, mode: 'page' } };
    p = await host.open({ state: old });
    assert.equal(await p.page.inputValue('#f-members'), 'ann');
    assert.equal(await p.page.locator('#results').isHidden(), true);
    await assertClean(p);
  });

  it('a restored result that was still being fetched asks for the rest', async () => {
    p = await host.open({ state: { ...state, result: { ...state.result, total: 1020 } } });
    const f = await p.waitForPosted('fetchAll');
    assert.deepEqual([f.resultId, f.scope], ['result-3', 'auto']);
    assert.equal(await p.text('#coverage-text'), 'Figures for the first 7 of 1,020 rows only. Fetching the rest…');
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
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { __vsState?: { form?: { pageSize: string } } }).__vsState?.form?.pageSize === '0',
    );
    await p.page.fill('#f-pageSize', '5');
    await runAndAnswer(p, records);
    await p.page.click('th[data-column="task"] button');
    await p.page.waitForFunction(
      () => (globalThis as unknown as { __vsState?: { sort?: unknown } }).__vsState?.sort !== undefined,
    );
    const saved = (await p.vsState()) as PageState;
    assert.equal(saved.version, 2);
    assert.equal(saved.form?.pageSize, '5');
    assert.equal(saved.result?.records.length, 7);
    assert.deepEqual(saved.sort, { column: 'task', direction: 'asc' });
  });

  it('does not keep a very large result across reloads; after one it asks the host for the rows again', async () => {
    p = await host.open();
    const big = grid(60, 100, '2026-11-22');
    const q = await runAndAnswer(p, big.slice(0, 100), big.length);
    await answerRest(p, q, big);
    await p.page.locator('#coverage', { hasText: 'Figures for all 6,000 rows' }).waitFor();
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { __vsState?: { result?: { records: unknown[] } } }).__vsState?.result?.records
          .length === 0,
    );
    const saved = (await p.vsState()) as PageState;
    assert.equal(saved.result?.records.length, 0);
    assert.equal(saved.result?.total, 6000);
    p = await host.open({ state: saved });
    await p.page.locator('#notice', { hasText: 'too many to keep across a reload; fetching them again' }).waitFor();
    assert.equal(await p.page.locator('#results').isHidden(), true);
    const f = await p.waitForPosted('fetchAll');
    assert.deepEqual([f.resultId, f.scope], [resultIdOf(q), 'auto']);
    await answerRest(p, f, big);
    await p.page.locator('#coverage', { hasText: 'Figures for all 6,000 rows' }).waitFor();
    await assertClean(p);
  });
});
