/**
 * The data browser page's row cache (src/data/browse/page/rowCache.ts): it asks only for the
 * blocks around what the grid shows, never twice while one is on its way, drops answers to an
 * older view, asks again for a block that came short while rows were loading, and holds at most
 * 2,000 rows (the page never holds every row).
 */
import * as assert from 'node:assert/strict';

import { BLOCK, RowCache } from '../../src/data/browse/page/rowCache';
import type { BrowseRow } from '../../src/data/browse/protocol';

const rows = (from: number, n: number): BrowseRow[] =>
  Array.from({ length: n }, (_, i) => ({ n: from + i + 1, cells: [String(from + i)] }));

describe('data browser page: the row cache', () => {
  it('asks for the blocks in sight and one either side, once each', () => {
    const asked: Array<[number, number]> = [];
    const cache = new RowCache((from, count) => asked.push([from, count]));
    cache.want(250, 290, 1_000_000);
    assert.deepEqual(asked, [
      [100, BLOCK],
      [200, BLOCK],
      [300, BLOCK],
    ]);
    cache.want(250, 290, 1_000_000);
    assert.equal(asked.length, 3, 'not asked again while on its way');
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
    assert.equal(asked.length, 2);
    assert.equal(cache.put(0, rows(0, 50), cache.current), true);
    assert.equal(cache.get(49)?.n, 50);
  });

  it('asks again for a block that came short while rows were still loading', () => {
    const asked: number[] = [];
    const cache = new RowCache((from) => asked.push(from));
    cache.want(0, 10, 30);
    cache.put(0, rows(0, 30), cache.current);
    cache.want(0, 10, 30);
    assert.equal(asked.length, 1, 'the block is whole for 30 rows');
    cache.want(0, 10, 80);
    assert.equal(asked.length, 2, 'more rows loaded: the block is asked again');
  });

  it('holds at most 2,000 rows, dropping the farthest', () => {
    const cache = new RowCache(() => undefined);
    for (let b = 0; b < 30; b++) cache.put(b * BLOCK, rows(b * BLOCK, BLOCK), cache.current);
    cache.want(2950, 2960, 3000);
    assert.equal(cache.get(0), undefined, 'far rows dropped');
    assert.equal(cache.get(2950)?.n, 2951);
    let held = 0;
    for (let i = 0; i < 3000; i++) if (cache.get(i) !== undefined) held++;
    assert.equal(held, 2000);
  });
});
