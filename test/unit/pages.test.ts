/** The table's local pages over the rows fetched, and what the figures cover (src/analytics/model/pages.ts). */
import * as assert from 'node:assert/strict';

import { coverageOf, coverageTag, coverageText, pageWindow } from '../../src/analytics/model/pages';

describe('analytics pages and coverage', () => {
  it('pages over the whole query, as the service would have', () => {
    const w = pageWindow(2, 20, 1020, 1020);
    assert.deepEqual(
      [w.page, w.pages, w.start, w.end, w.canPrev, w.canNext, w.canLast],
      [2, 51, 20, 40, true, true, true],
    );
    assert.equal(w.label, 'Rows 21–40 of 1,020 · Page 2 of 51');
    const last = pageWindow(51, 20, 1020, 1020);
    assert.deepEqual([last.start, last.end, last.canNext, last.canLast], [1000, 1020, false, false]);
    assert.equal(last.label, 'Rows 1,001–1,020 of 1,020 · Page 51 of 51');
  });

  it('while rows are still arriving, offers only the pages whose rows are here', () => {
    const w = pageWindow(5, 20, 100, 1020);
    assert.deepEqual([w.page, w.pages, w.canNext, w.canLast], [5, 51, false, false]);
    assert.equal(pageWindow(9, 20, 100, 1020).page, 5, 'a page past the rows fetched comes back to the last one here');
    assert.equal(pageWindow(1, 20, 100, 1020).canLast, false);
  });

  it('copes with an empty result and odd input', () => {
    const w = pageWindow(0, 0, 0, 0);
    assert.deepEqual(
      [w.page, w.pages, w.start, w.end, w.canPrev, w.canNext, w.canLast],
      [1, 1, 0, 0, false, false, false],
    );
    assert.match(w.label, /^No rows on this page/);
  });

  it('says what the figures cover: all rows, or the first N of M', () => {
    assert.equal(coverageText(coverageOf(1020, 1020)), 'Figures for all 1,020 rows of this query.');
    assert.equal(coverageText(coverageOf(1000, 25_300)), 'Figures for the first 1,000 of 25,300 rows only.');
    assert.equal(coverageTag(coverageOf(1000, 25_300)), 'first 1,000 of 25,300 rows');
    assert.equal(coverageTag(coverageOf(5, 5)), '');
    assert.equal(coverageText(coverageOf(1, 1)), 'Figures for the one row of this query.');
  });
});
