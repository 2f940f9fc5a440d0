/**
 * Sorting a long table (issue 21 item 6): every column kind sorts 20,000 rows under "Show all" in
 * the order the table always had (nulls last both ways, ties in their original order), the other
 * direction and a new result follow, and the state is saved after the frame that shows the
 * sorted rows, not in the click's own task (VS Code's setState serialises the whole state).
 */
import * as assert from 'node:assert/strict';

import { COLUMNS, formatCell, shownColumns, sortRecords, type SortState } from '../../src/analytics/model/tableModel';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { answerRest, assertClean, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

/** The first rows the table should show for `sort`, as the cells read. */
const expectedTop = (all: AnalyticsRecord[], sort: SortState, n: number): string[][] =>
  sortRecords(all, sort)
    .slice(0, n)
    .map((r) => COLUMNS.map((c) => formatCell(c, r)));

async function showAll(p: AnalyticsPage, all: AnalyticsRecord[]): Promise<void> {
  const q = await runAndAnswer(p, all.slice(0, 100), all.length);
  await answerRest(p, q, all);
  await p.page
    .locator('#coverage', { hasText: `Figures for all ${all.length.toLocaleString('en-US')} rows` })
    .waitFor();
  await p.page.click('#show-all');
  await p.page.locator('#rows-range', { hasText: `All ${all.length.toLocaleString('en-US')} rows` }).waitFor();
}

describe('analytics page: sorting a long table', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open({}, { width: 1400, height: 900 });
  });

  it('sorts 20,000 rows by each column kind, both directions, as the comparator ordered them', async () => {
    const all = grid(200, 100, '2026-11-22');
    await showAll(p, all);
    for (const column of ['task', 'dayKey', 'runCount', 'durationPerRunSeconds', 'successRate', 'balance']) {
      for (const direction of ['asc', 'desc'] as const) {
        await p.page.click(`th[data-column="${column}"] button`);
        await p.page
          .locator(`th[data-column="${column}"][aria-sort="${direction === 'asc' ? 'ascending' : 'descending'}"]`)
          .waitFor();
        const shown = await tableRows(p);
        assert.ok(shown.length > 10 && shown.length < 120, `a window of rows (${shown.length})`);
        assert.deepEqual(shown, expectedTop(all, { column, direction }, shown.length), `${column} ${direction}`);
      }
    }
    await assertClean(p);
  });

  it('keeps nulls last in both directions, down to the end of the table', async () => {
    const all = grid(50, 100, '2026-11-22'); // some rows report no duration
    const nulls = all.filter((r) => r.executionMetrics.durationPerRunSeconds === null).length;
    assert.ok(nulls > 0 && nulls < all.length);
    await showAll(p, all);
    for (const direction of ['asc', 'desc'] as const) {
      await p.page.click('th[data-column="durationPerRunSeconds"] button');
      await p.page
        .locator(
          `th[data-column="durationPerRunSeconds"][aria-sort="${direction === 'asc' ? 'ascending' : 'descending'}"]`,
        )
        .waitFor();
      await p.page.locator(':root').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await p.page.locator(`table.records tbody tr[aria-rowindex="${all.length + 1}"]`).waitFor();
      const last = await p.page.locator(`table.records tbody tr[aria-rowindex="${all.length + 1}"]`).innerText();
      const expected = sortRecords(all, { column: 'durationPerRunSeconds', direction }).at(-1) as AnalyticsRecord;
      assert.equal(expected.executionMetrics.durationPerRunSeconds, null, 'the reference puts a null last');
      // innerText leaves out the week columns a by-day result hides.
      assert.equal(
        last
          .split('\t')
          .map((c) => c.trim())
          .join('|'),
        shownColumns('Day')
          .map((c) => formatCell(c, expected))
          .join('|'),
        direction,
      );
      await p.page.locator(':root').evaluate((el) => {
        el.scrollTop = 0;
      });
    }
  });

  it('a new result is sorted afresh by the same column (no order of the previous result is reused)', async () => {
    const first = grid(30, 100, '2026-11-22');
    await showAll(p, first);
    await p.page.click('th[data-column="runCount"] button');
    await p.page.locator('th[data-column="runCount"][aria-sort="ascending"]').waitFor();
    // Another query with the same row count but other rows (another range of days).
    const second = grid(30, 100, '2026-10-01').map((r, i) => ({
      ...r,
      executionMetrics: { ...r.executionMetrics, runCount: (i * 7919) % 1000 },
    }));
    const q = await runAndAnswer(p, second.slice(0, 100), second.length);
    await answerRest(p, q, second);
    await p.page.locator('#coverage', { hasText: 'Figures for all 3,000 rows' }).waitFor();
    await p.page.locator('#rows-range', { hasText: 'All 3,000 rows' }).waitFor();
    const shown = await tableRows(p);
    assert.deepEqual(shown, expectedTop(second, { column: 'runCount', direction: 'asc' }, shown.length));
  });

  it("saves the sort with setState after the frame that shows it, not in the click's task", async () => {
    const all = grid(40, 100, '2026-11-22');
    await showAll(p, all);
    // Let the saves of loading the result happen first.
    await p.page.waitForFunction(
      () => (globalThis as unknown as { __vsState?: { showAll?: boolean } }).__vsState?.showAll === true,
    );
    const seen = await p.page.evaluate(async () => {
      type G = {
        __setStateCalls: number;
        __vsState?: { sort?: { column: string } };
        document: { querySelector(s: string): { click(): void } | null };
        requestAnimationFrame(cb: () => void): void;
      };
      const g = globalThis as unknown as G;
      const before = g.__setStateCalls;
      g.document.querySelector('th[data-column="balance"] button')?.click();
      const inTheClick = g.__setStateCalls - before;
      await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
      const atTheFrame = g.__setStateCalls - before;
      return { inTheClick, atTheFrame };
    });
    assert.deepEqual(seen, { inTheClick: 0, atTheFrame: 0 }, 'nothing saved before the frame');
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { __vsState?: { sort?: { column: string } } }).__vsState?.sort?.column === 'balance',
    );
    const saved = (await p.vsState()) as { sort?: unknown; result?: { records: unknown[] } };
    assert.deepEqual(saved.sort, { column: 'balance', direction: 'asc' });
    assert.equal(saved.result?.records.length, all.length, 'the kept result is saved with it');
  });

  it("saves a small result's sort in the next task, without waiting for a frame (a tab hidden at once keeps it)", async () => {
    const all = grid(5, 10, '2026-11-22');
    await runAndAnswer(p, all, all.length);
    await p.page.locator('#coverage', { hasText: `Figures for all ${all.length} rows` }).waitFor();
    const seen = await p.page.evaluate(async () => {
      type G = {
        __setStateCalls: number;
        __vsState?: { sort?: { column: string } };
        document: { querySelector(s: string): { click(): void } | null };
      };
      const g = globalThis as unknown as G;
      await new Promise((r) => setTimeout(r, 300)); // the saves of loading the result are done
      const before = g.__setStateCalls;
      g.document.querySelector('th[data-column="balance"] button')?.click();
      await new Promise((r) => setTimeout(r, 0));
      return { saved: g.__setStateCalls - before, column: g.__vsState?.sort?.column };
    });
    assert.deepEqual(seen, { saved: 1, column: 'balance' });
  });
});
