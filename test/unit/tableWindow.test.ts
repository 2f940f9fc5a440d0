/** Which rows of a long table are rendered (src/analytics/page/table/rowWindow.ts), and "Show all"'s window (pages.ts). */
import * as assert from 'node:assert/strict';

import { allRowsWindow } from '../../src/analytics/model/pages';
import { OVERSCAN_ROWS, rowWindow, VIRTUAL_MIN_ROWS } from '../../src/analytics/page/table/rowWindow';

const at = (count: number, scrollTop: number) =>
  rowWindow({ count, rowHeight: 25, scrollTop, viewport: 500, headerHeight: 40 });

describe('analytics table: the rendered window', () => {
  it('renders a short table whole (a page of the pager is at most 100 rows)', () => {
    assert.deepEqual(at(VIRTUAL_MIN_ROWS, 1000), {
      first: 0,
      last: VIRTUAL_MIN_ROWS,
      count: VIRTUAL_MIN_ROWS,
      virtual: false,
    });
    assert.deepEqual(at(0, 0), { first: 0, last: 0, count: 0, virtual: false });
  });

  it('renders the rows in view plus the overscan, wherever the table is scrolled', () => {
    const top = at(100_000, 0);
    assert.deepEqual([top.first, top.last], [0, 20 + OVERSCAN_ROWS]);
    // 40 px of header, then rows of 25 px: scrollTop 25,040 shows rows 1,000 to 1,020.
    const mid = at(100_000, 25_040);
    assert.deepEqual([mid.first, mid.last], [1000 - OVERSCAN_ROWS, 1020 + OVERSCAN_ROWS]);
    const end = at(100_000, 100_000 * 25 + 40 - 500);
    assert.equal(end.last, 100_000);
    assert.ok(end.first >= 100_000 - 20 - OVERSCAN_ROWS - 1);
    for (const w of [top, mid, end])
      assert.ok(w.last - w.first <= 20 + 2 * OVERSCAN_ROWS + 1, 'a few dozen rows, whatever the count');
  });

  it('stays inside the rows when scrolled past the end or given nonsense', () => {
    const past = at(1000, 10_000_000);
    assert.equal(past.last, 1000);
    assert.ok(past.first < past.last);
    const odd = rowWindow({ count: 1000, rowHeight: 0, scrollTop: -50, viewport: 0, headerHeight: 0 });
    assert.ok(odd.first === 0 && odd.last > 0 && odd.last <= 1000);
  });

  it('"Show all" holds every row fetched and says whether that is the whole query', () => {
    const whole = allRowsWindow(5700, 5700);
    assert.deepEqual(
      [whole.start, whole.end, whole.canPrev, whole.canNext, whole.canLast],
      [0, 5700, false, false, false],
    );
    assert.equal(whole.label, 'All 5,700 rows');
    assert.equal(allRowsWindow(100, 5700).label, 'All 100 rows fetched so far (of 5,700)');
    assert.equal(allRowsWindow(1, 1).label, 'The one row');
  });
});
