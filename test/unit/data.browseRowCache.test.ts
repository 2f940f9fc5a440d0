/**
 * The data browser page's row cache (src/data/browse/page/rowCache.ts): it asks for the rows in
 * sight and a margin, one window at a time (a jump of the scroll bar asks once, for where it is
 * when the last answer came, never for every place it passed), drops answers to an older view,
 * asks again for rows loaded since, and holds at most 2,000 rows (the page never holds every row).
 */
import * as assert from 'node:assert/strict';

import { MARGIN, RowCache } from '../../src/data/browse/page/rowCache';
import type { BrowseRow } from '../../src/data/browse/protocol';

const rows = (from: number, n: number): BrowseRow[] =>
  Array.from({ length: n }, (_, i) => ({ n: from + i + 1, cells: [String(from + i)] }));

describe('data browser page: the row cache', () => {
  it('asks for the rows in sight and a margin either side, in one window', () => {
    const asked: Array<[number, number]> = [];
    const cache = new RowCache((from, count) => asked.push([from, count]));
    cache.want(250, 290, 1_000_000);
    assert.deepEqual(asked, [[250 - MARGIN, 290 - 250 + 1 + 2 * MARGIN]]);
  });

  it('asks once while a window is on its way, however far the view jumps, then for where it is', () => {
    const asked: Array<[number, number, number]> = [];
    const cache = new RowCache((from, count, generation) => asked.push([from, count, generation]));
    cache.want(0, 40, 1_000_000);
    for (let at = 1_667; at < 1_000_000; at += 1_667) cache.want(at, at + 40, 1_000_000);
    assert.equal(asked.length, 1, 'a scroll through every row while the first window is on its way asks nothing more');
    cache.put(0, rows(0, 91), cache.current);
    cache.want(999_950, 999_990, 1_000_000);
    assert.deepEqual(asked[1]?.slice(0, 2), [999_950, 41], 'a view still jumping: the rows in sight, no margin');
    cache.put(999_950, rows(999_950, 41), cache.current);
    cache.want(999_950, 999_990, 1_000_000);
    assert.deepEqual(
      asked[2]?.slice(0, 2),
      [999_950 - MARGIN, 1_000_000 - (999_950 - MARGIN)],
      'the view at rest: with its margins (to the last row)',
    );
  });

  it('asks for the margins with the rows in sight while the view moves less than a screen and a margin a draw', () => {
    const asked: Array<[number, number]> = [];
    const cache = new RowCache((from, count) => asked.push([from, count]));
    cache.want(1000, 1040, 1_000_000);
    cache.put(asked[0]?.[0] ?? 0, rows(asked[0]?.[0] ?? 0, asked[0]?.[1] ?? 0), cache.current);
    cache.want(1090, 1130, 1_000_000);
    assert.deepEqual(asked[1], [1040 + MARGIN + 1, 1130 + MARGIN - (1040 + MARGIN)]);
  });

  it('asks for nothing while what is in sight and near it is held, and only for what is missing', () => {
    const asked: Array<[number, number]> = [];
    const cache = new RowCache((from, count) => asked.push([from, count]));
    cache.put(0, rows(0, 200), cache.current);
    cache.want(100, 140, 1_000_000);
    assert.equal(asked.length, 0, 'held, with half a margin beyond the sight');
    cache.want(150, 190, 1_000_000);
    assert.deepEqual(asked, [[200, 190 + MARGIN - 200 + 1]], 'the rows past those held, no more');
  });

  it('asks again after a window failed', () => {
    const asked: number[] = [];
    const cache = new RowCache((from) => asked.push(from));
    cache.want(0, 10, 100);
    cache.want(0, 10, 100);
    assert.equal(asked.length, 1);
    cache.failed(cache.current);
    cache.want(0, 10, 100);
    assert.equal(asked.length, 2);
  });

  it('keeps the rows of the current view only, and asks again after the view changes', () => {
    const asked: Array<[number, number, number]> = [];
    const cache = new RowCache((from, count, generation) => asked.push([from, count, generation]));
    cache.want(0, 10, 50);
    const [, , generation] = asked[0] as [number, number, number];
    cache.clear();
    assert.equal(cache.put(0, rows(0, 50), generation), false, 'an answer to the old view is dropped');
    assert.equal(cache.get(0), undefined);
    cache.want(0, 10, 50);
    assert.equal(asked.length, 2, 'the new view asks at once, though the old window never came');
    assert.equal(cache.put(0, rows(0, 50), cache.current), true);
    assert.equal(cache.get(49)?.n, 50);
  });

  it('asks again for rows loaded since a window came short', () => {
    const asked: number[] = [];
    const cache = new RowCache((from) => asked.push(from));
    cache.want(0, 10, 30);
    cache.put(0, rows(0, 30), cache.current);
    cache.want(0, 10, 30);
    assert.equal(asked.length, 1, 'every row there is, is held');
    cache.want(0, 10, 80);
    assert.deepEqual(asked, [0, 30], 'more rows loaded: the rows past those held are asked for');
  });

  it('holds at most 2,000 rows, dropping the farthest', () => {
    const cache = new RowCache(() => undefined);
    for (let b = 0; b < 30; b++) {
      cache.want(b * 100, b * 100 + 40, 3000);
      cache.put(b * 100, rows(b * 100, 100), cache.current);
    }
    assert.equal(cache.get(0), undefined, 'far rows dropped');
    assert.equal(cache.get(2950)?.n, 2951);
    let held = 0;
    for (let i = 0; i < 3000; i++) if (cache.get(i) !== undefined) held++;
    assert.ok(held <= 2000 && held >= 1000, `${held} rows held`);
  });
});
