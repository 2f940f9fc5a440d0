/**
 * One scroller: the page scrolls, and the records table does not scroll inside it (two scrollbars,
 * one in the other, made a user scroll the page to reach the table and then the table to reach its
 * rows). The rows in view follow the page's scroll, and only those are in the DOM.
 */
import * as assert from 'node:assert/strict';

import { answerRest, assertClean, runAndAnswer } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

/** Every element that scrolls vertically now: more content than height, and overflow that scrolls (the document always may). */
const verticalScrollers = (p: AnalyticsPage): Promise<string[]> =>
  p.page.evaluate(() => {
    type El = { tagName: string; className: string; scrollHeight: number; clientHeight: number };
    type D = { scrollingElement: El | null; querySelectorAll(s: string): ArrayLike<El> };
    const g = globalThis as unknown as { document: D; getComputedStyle(el: El): { overflowY: string } };
    const root = g.document.scrollingElement;
    return Array.from(g.document.querySelectorAll('*'))
      .filter(
        (el) =>
          el.scrollHeight > el.clientHeight &&
          (el === root || /^(auto|scroll)$/.test(g.getComputedStyle(el).overflowY)),
      )
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ''}`);
  });

/** The aria-rowindex of every body row in the DOM. */
const rowIndexes = (p: AnalyticsPage): Promise<number[]> =>
  p.page.$$eval('table.records tbody tr:not(.spacer)', (trs) =>
    trs.map((tr) => Number(tr.getAttribute('aria-rowindex'))),
  );

const scrollPageTo = (p: AnalyticsPage, where: 'end' | 'middle' | 'top'): Promise<void> =>
  p.page.evaluate((to) => {
    const g = globalThis as unknown as { document: { scrollingElement: { scrollTop: number; scrollHeight: number } } };
    const root = g.document.scrollingElement;
    root.scrollTop = to === 'end' ? root.scrollHeight : to === 'top' ? 0 : root.scrollHeight / 2;
  }, where);

describe("analytics page: one scroller (the page), the table's rows follow it", function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open({}, { width: 1280, height: 800 });
  });

  it('at 1280×800 only the page scrolls, with one page of rows and with "Show all" over 5,700 rows', async () => {
    const all = grid(57, 100, '2026-11-22');
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    await answerRest(p, q, all);
    await p.page.locator('#coverage', { hasText: 'Figures for all 5,700 rows' }).waitFor();
    assert.deepEqual(await verticalScrollers(p), ['html'], 'one page of rows: the page alone scrolls');

    await p.page.click('#show-all');
    await p.page.locator('#rows-range', { hasText: 'All 5,700 rows' }).waitFor();
    assert.deepEqual(await verticalScrollers(p), ['html'], 'every row: still the page alone scrolls');
    await assertClean(p);
  });

  it('scrolling the page brings other rows into the DOM, never more than a window of them, under a header kept in view', async () => {
    const all = grid(57, 100, '2026-11-22');
    const q = await runAndAnswer(p, all.slice(0, 100), all.length);
    await answerRest(p, q, all);
    await p.page.locator('#coverage', { hasText: 'Figures for all 5,700 rows' }).waitFor();
    await p.page.click('#show-all');
    await p.page.locator('#rows-range', { hasText: 'All 5,700 rows' }).waitFor();
    const first = await rowIndexes(p);
    assert.ok(first.length > 10 && first.length < 120, `a window of rows before scrolling (${first.length})`);
    assert.equal(first[0], 2);

    await scrollPageTo(p, 'end');
    await p.page.locator('table.records tbody tr[aria-rowindex="5701"]').waitFor({ state: 'attached' });
    const end = await rowIndexes(p);
    assert.ok(end.length > 10 && end.length < 120, `a window of rows at the end (${end.length})`);
    assert.equal(end[end.length - 1], 5701);
    // The last row is on screen, and the header sticks to the top of the window.
    const lastBottom = await p.page
      .locator('table.records tbody tr[aria-rowindex="5701"]')
      .evaluate((el) => el.getBoundingClientRect().bottom);
    assert.ok(lastBottom <= 800 && lastBottom > 700, `the last row at the bottom of the window (${lastBottom})`);
    const headTop = await p.page.locator('th[data-column="runCount"]').evaluate((el) => el.getBoundingClientRect().top);
    assert.ok(Math.abs(headTop) <= 2, `the header at the top of the window (${headTop})`);

    await scrollPageTo(p, 'middle');
    await p.page.waitForFunction(() => {
      const d = (
        globalThis as unknown as {
          document: {
            querySelectorAll(s: string): ArrayLike<{
              getAttribute(n: string): string | null;
              getBoundingClientRect(): { top: number; bottom: number };
            }>;
          };
        }
      ).document;
      // A row in the middle of the window is one of those around the middle of the table.
      return Array.from(d.querySelectorAll('table.records tbody tr:not(.spacer)')).some((tr) => {
        const r = tr.getBoundingClientRect();
        const i = Number(tr.getAttribute('aria-rowindex'));
        return r.top <= 400 && r.bottom >= 400 && i > 2700 && i < 3000;
      });
    });
    assert.ok((await rowIndexes(p)).length < 120, 'still a window in the middle');

    await scrollPageTo(p, 'top');
    await p.page.locator('table.records tbody tr[aria-rowindex="2"]').waitFor({ state: 'attached' });
    assert.ok((await rowIndexes(p)).length < 120);
    await assertClean(p);
  });
});
