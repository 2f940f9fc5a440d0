/**
 * The table under load and by keyboard, in headless Chromium: "Show all" keeps every row
 * scrollable while only the rows in view are in the DOM (aria-rowcount/aria-rowindex say where
 * they are), the header stays in view, sorting works with Enter and Space and leaves focus on the
 * header, and the pager keeps focus where the user acted.
 */
import * as assert from 'node:assert/strict';

import { answerRest, assertClean, columnIndex, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

/** Which element has focus: its id, or its column for a header's sort button. */
const focusOf = (p: AnalyticsPage): Promise<string> =>
  p.page.evaluate(() => {
    type El = { id: string; closest(s: string): { getAttribute(n: string): string | null } | null };
    const el = (globalThis as unknown as { document: { activeElement: El | null } }).document.activeElement;
    if (!el) return '';
    const th = el.closest('th[data-column]');
    return th ? `header:${th.getAttribute('data-column') ?? ''}` : el.id || 'other';
  });

/** The aria-rowindex of every body row in the DOM. */
const rowIndexes = (p: AnalyticsPage): Promise<number[]> =>
  p.page.$$eval('table.records tbody tr:not(.spacer)', (trs) =>
    trs.map((tr) => Number(tr.getAttribute('aria-rowindex'))),
  );

describe('analytics page: the table (virtualised rows, keyboard, focus)', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open({}, { width: 1400, height: 900 });
  });

  it('sorts with the keyboard only: Tab to a header, Enter then Space; order, aria-sort and focus follow', async () => {
    const all = grid(9, 5, '2026-11-22');
    await runAndAnswer(p, all);
    const runs = await columnIndex(p, 'runCount');
    // Tab from the top of the page until the run count's header button has focus.
    for (let i = 0; i < 80 && (await focusOf(p)) !== 'header:runCount'; i++) await p.page.keyboard.press('Tab');
    assert.equal(await focusOf(p), 'header:runCount', 'the header button is reachable with Tab');
    const header = p.page.locator('th[data-column="runCount"]');
    const expected = all
      .map((r) => r.executionMetrics.runCount ?? 0)
      .sort((a, b) => a - b)
      .map(String);

    await p.page.keyboard.press('Enter');
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[runs]),
      expected.slice(0, 20),
    );
    assert.equal(await focusOf(p), 'header:runCount', 'focus stays on the header after sorting');

    await p.page.keyboard.press('Space');
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[runs]),
      expected.slice().reverse().slice(0, 20),
    );
    assert.equal(await focusOf(p), 'header:runCount');
    assert.equal(await p.page.locator('th[aria-sort]').count(), 1);
    await assertClean(p);
  });

  it('keeps focus on Next/Prev after paging, or on the neighbour when that button became disabled', async () => {
    await runAndAnswer(p, grid(9, 5, '2026-11-22')); // 45 rows: pages of 20, 20, 5
    await p.page.focus('#page-next');
    await p.page.keyboard.press('Enter');
    await p.page.locator('#rows-range', { hasText: 'Page 2 of 3' }).waitFor();
    assert.equal(await focusOf(p), 'page-next');
    await p.page.keyboard.press('Enter');
    await p.page.locator('#rows-range', { hasText: 'Page 3 of 3' }).waitFor();
    assert.equal(await p.page.locator('#page-next').isDisabled(), true);
    assert.equal(await focusOf(p), 'page-prev', 'Next is disabled on the last page: its neighbour Prev has focus');
    await p.page.keyboard.press('Enter');
    await p.page.locator('#rows-range', { hasText: 'Page 2 of 3' }).waitFor();
    assert.equal(await focusOf(p), 'page-prev');
    await p.page.keyboard.press('Enter');
    await p.page.locator('#rows-range', { hasText: 'Page 1 of 3' }).waitFor();
    assert.equal(await focusOf(p), 'page-next', 'Prev is disabled on the first page: its neighbour Next has focus');
    await assertClean(p);
  });

  it('"Show all" keeps 5,700 rows scrollable with only the rows in view in the DOM; sorting and scrolling follow', async () => {
    const all = grid(57, 100, '2026-11-22');
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    await answerRest(p, q, all);
    await p.page.locator('#coverage', { hasText: 'Figures for all 5,700 rows' }).waitFor();
    assert.equal((await tableRows(p)).length, 20, 'paged: one page');

    await p.page.click('#show-all');
    await p.page.locator('#rows-range', { hasText: 'All 5,700 rows' }).waitFor();
    assert.equal(await p.page.locator('#show-all').getAttribute('aria-pressed'), 'true');
    assert.equal(await p.page.locator('#page-next').isDisabled(), true);
    assert.equal(await p.page.locator('table.records').getAttribute('aria-rowcount'), '5701');
    const first = await rowIndexes(p);
    assert.ok(first.length > 10 && first.length < 120, `only the rows in view are rendered (${first.length})`);
    assert.deepEqual(
      first,
      first.map((_, i) => i + 2),
      'rows count from 2 (the header is row 1)',
    );

    // Sort by run count, then scroll to the end: the last row is there, in sorted order.
    const runs = await columnIndex(p, 'runCount');
    await p.page.click('th[data-column="runCount"] button');
    const sorted = all
      .map((r) => r.executionMetrics.runCount ?? 0)
      .sort((a, b) => a - b)
      .map(String);
    const top = (await tableRows(p)).map((r) => r[runs]);
    assert.ok(top.length < 120, `still only a window (${top.length})`);
    assert.deepEqual(top, sorted.slice(0, top.length));
    assert.equal((await rowIndexes(p))[0], 2);
    // The page is the scroller (analytics.oneScroller.test.ts): its rows follow the page's scroll.
    const scroller = p.page.locator(':root');
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await p.page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      return d.querySelector('table.records tbody tr[aria-rowindex="5701"]') !== null;
    });
    const end = await rowIndexes(p);
    assert.ok(end.length < 120, `still only a window (${end.length})`);
    assert.equal(end[end.length - 1], 5701);
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[runs]),
      sorted.slice(sorted.length - end.length),
    );

    // The header row stays at the top of the window.
    const headTop = await p.page.locator('th[data-column="runCount"]').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(Math.abs(headTop) <= 2, `sticky header at the top (${headTop})`);

    // The middle: the rows in view are those the scroll position points at.
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight / 2;
    });
    await p.page.waitForFunction(() => {
      const d = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      return d.querySelector('table.records tbody tr[aria-rowindex="2850"]') !== null;
    });
    // Keyboard sort while scrolled: focus stays on the header, the direction flips.
    await p.page.focus('th[data-column="runCount"] button');
    await p.page.keyboard.press('Enter');
    assert.equal(await p.page.locator('th[data-column="runCount"]').getAttribute('aria-sort'), 'descending');
    assert.equal(await focusOf(p), 'header:runCount');

    // Back to pages: one page again, and the choice is kept with the page state.
    await p.page.waitForFunction(
      () => (globalThis as unknown as { __vsState?: { showAll?: boolean } }).__vsState?.showAll === true,
    );
    await p.page.click('#show-all');
    await p.page.locator('#rows-range', { hasText: 'Rows 1–20 of 5,700' }).waitFor();
    assert.equal((await tableRows(p)).length, 20);
    assert.equal(await focusOf(p), 'show-all');
    await assertClean(p);
  });
});
