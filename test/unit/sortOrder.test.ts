/** The table's cached row orders (src/analytics/model/sortOrder.ts) against the comparator sort they replace. */
import * as assert from 'node:assert/strict';

import { SLICE_ROWS, SortOrders, sortOrdersFor, TABLE_COLLATOR } from '../../src/analytics/model/sortOrder';
import { type Column, type SortDirection, sortRecords } from '../../src/analytics/model/tableModel';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { col, rec } from './helpers/tableRecords';

const ids = (records: readonly AnalyticsRecord[], order: Uint32Array): string[] =>
  [...order].map((i) => (records[i] as AnalyticsRecord).taskId);

type Key = string | number | null;

const keyOf = (column: Column, r: AnalyticsRecord): Key => {
  const v = column.value(r);
  return typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v)) ? v : null;
};

/** The table's comparator before the cached orders: nulls last in both directions, else by value. */
function compare(a: Key, b: Key, sign: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return sign * (typeof a === 'number' && typeof b === 'number' ? a - b : TABLE_COLLATOR.compare(String(a), String(b)));
}

/** The table's sort before the cached orders: one comparator over every pair, stable. */
function reference(records: readonly AnalyticsRecord[], column: Column, direction: SortDirection): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  return records
    .map((r, i) => ({ r, i, v: keyOf(column, r) }))
    .sort((a, b) => compare(a.v, b.v, sign) || a.i - b.i)
    .map((x) => x.r.taskId);
}

/**
 * The same promise checked in one pass: every row once, and each neighbour pair in the
 * comparator's order (ties by original position). A stable sort has exactly one such result, so
 * this equals comparing with reference(), at n comparator calls instead of n log n: at 100,000
 * rows the reference sorts were most of a test that starved past its timeout beside the journey.
 */
function assertComparatorOrder(
  records: readonly AnalyticsRecord[],
  order: Uint32Array,
  column: Column,
  direction: SortDirection,
): void {
  const sign = direction === 'asc' ? 1 : -1;
  assert.equal(order.length, records.length, 'every row');
  const seen = new Uint8Array(records.length);
  let kind: 'number' | 'text' | undefined;
  let prevIndex = -1;
  let prevKey: Key = null;
  // Messages are built only on failure: this runs 800,000 times in the 100,000-row case.
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
    if (!(i < records.length && seen[i] === 0)) assert.fail(`row ${i} at ${k}: once, and a real row`);
    seen[i] = 1;
    const key = keyOf(column, records[i] as AnalyticsRecord);
    if (key !== null) {
      // One pass equals the reference only for a comparator that orders consistently: keys of
      // one kind, finite numbers (Infinity - Infinity is NaN) or text (a mixed column uses reference()).
      const keyKind = typeof key === 'number' ? 'number' : 'text';
      kind ??= keyKind;
      if (kind !== keyKind || (typeof key === 'number' && !Number.isFinite(key)))
        assert.fail(`${column.id}: one kind of key, finite (${kind}, then ${String(key)})`);
    }
    if (k > 0) {
      const c = compare(prevKey, key, sign);
      if (!(c < 0 || (c === 0 && prevIndex < i)))
        assert.fail(`${column.id} ${direction}: rows ${prevIndex} then ${i} at ${k - 1}, ${k}`);
    }
    prevIndex = i;
    prevKey = key;
  }
}

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * n);
  };
}

describe('table sort orders (cached permutations)', () => {
  it('orders numbers with many ties, nulls, NaN and -0 exactly as the comparator did, both directions', () => {
    const next = random(3);
    const values = [0, -0, 1, 1.5, -2, 1e9, -1e-9, Number.NaN, null, null];
    for (let round = 0; round < 30; round++) {
      const rows = Array.from({ length: 300 }, (_, i) => rec(`r${i}`, values[next(values.length)] as number | null));
      for (const direction of ['asc', 'desc'] as const) {
        assert.deepEqual(
          ids(rows, new SortOrders(rows).order(col('runCount'), direction)),
          reference(rows, col('runCount'), direction),
          `round ${round} ${direction}`,
        );
      }
    }
  });

  it('orders text (collator ties such as "Task 2" and "task 2", nulls) exactly as the comparator did', () => {
    const next = random(11);
    const words = ['task 2', 'Task 2', 'task 10', 'Zeta', 'zeta', 'éclair', 'eclair', 'Alpha 1', 'alpha 01', 'b', ''];
    for (let round = 0; round < 30; round++) {
      const rows = Array.from({ length: 200 }, (_, i) =>
        rec(`r${i}`, 1, {
          taskName: next(8) === 0 ? null : (words[next(words.length)] as string),
          weekStartDate: next(3) === 0 ? null : `2026-11-${10 + next(5)}`,
        }),
      );
      for (const id of ['task', 'weekStartDate']) {
        for (const direction of ['asc', 'desc'] as const) {
          assert.deepEqual(
            ids(rows, new SortOrders(rows).order(col(id), direction)),
            reference(rows, col(id), direction),
            `round ${round} ${id} ${direction}`,
          );
        }
      }
    }
  });

  it('derives the other direction from a cached one: descending first, then ascending, or the reverse', () => {
    const next = random(5);
    const rows = Array.from({ length: 500 }, (_, i) => rec(`r${i}`, next(6) === 0 ? null : next(20)));
    const a = new SortOrders(rows);
    const b = new SortOrders(rows);
    assert.deepEqual(ids(rows, a.order(col('runCount'), 'desc')), reference(rows, col('runCount'), 'desc'));
    assert.deepEqual(ids(rows, a.order(col('runCount'), 'asc')), reference(rows, col('runCount'), 'asc'));
    assert.deepEqual(ids(rows, b.order(col('runCount'), 'asc')), reference(rows, col('runCount'), 'asc'));
    assert.deepEqual(ids(rows, b.order(col('runCount'), 'desc')), reference(rows, col('runCount'), 'desc'));
  });

  it('keeps nulls last and ties in their original order in both directions', () => {
    const rows = [rec('a', 2), rec('n1', null), rec('b', 1), rec('c', 2), rec('n2', null), rec('d', 1)];
    const orders = new SortOrders(rows);
    assert.deepEqual(ids(rows, orders.order(col('runCount'), 'asc')), ['b', 'd', 'a', 'c', 'n1', 'n2']);
    assert.deepEqual(ids(rows, orders.order(col('runCount'), 'desc')), ['a', 'c', 'b', 'd', 'n1', 'n2']);
  });

  it('handles a column of nulls only, one row and no rows', () => {
    const nulls = [rec('a', null), rec('b', null), rec('c', null)];
    assert.deepEqual(ids(nulls, new SortOrders(nulls).order(col('runCount'), 'desc')), ['a', 'b', 'c']);
    assert.deepEqual(ids(nulls, new SortOrders(nulls).order(col('weekEndDate'), 'asc')), ['a', 'b', 'c']);
    const one = [rec('x', 3)];
    assert.deepEqual(ids(one, new SortOrders(one).order(col('runCount'), 'desc')), ['x']);
    assert.equal(new SortOrders([]).order(col('task'), 'asc').length, 0);
  });

  it('sorts a column that mixes text and numbers by the comparator it always had', () => {
    const mixed: Column = {
      ...col('task'),
      id: 'mixed',
      value: (r) => (r.taskId.startsWith('n') ? Number(r.taskId.slice(1)) : r.taskName),
    };
    const rows = [
      rec('n10', 1),
      rec('s1', 1, { taskName: 'b' }),
      rec('n9', 1),
      rec('s2', 1, { taskName: null }),
      rec('s3', 1, { taskName: 'a' }),
    ];
    for (const direction of ['asc', 'desc'] as const) {
      assert.deepEqual(
        ids(rows, new SortOrders(rows).order(mixed, direction)),
        reference(rows, mixed, direction),
        direction,
      );
    }
  });

  it('caches per result and column: the same order object comes back, a new result gets new orders', () => {
    const rows = [rec('b', 2), rec('a', 1), rec('c', 3)];
    const first = sortOrdersFor(rows).order(col('runCount'), 'asc');
    assert.equal(sortOrdersFor(rows).order(col('runCount'), 'asc'), first, 'same array: cached');
    const flipped = sortOrdersFor(rows).order(col('runCount'), 'desc');
    assert.equal(sortOrdersFor(rows).order(col('runCount'), 'desc'), flipped);
    // Another result (a new array, as every query and every fetched rest is) has its own orders.
    const other = [rec('z', 9), rec('y', 8)];
    assert.deepEqual(ids(other, sortOrdersFor(other).order(col('runCount'), 'asc')), ['y', 'z']);
    assert.deepEqual(ids(rows, sortOrdersFor(rows).order(col('runCount'), 'asc')), ['a', 'b', 'c']);
    // An array that grew is not trusted to be the same result.
    rows.push(rec('d', 0));
    assert.notEqual(sortOrdersFor(rows).order(col('runCount'), 'asc'), first);
    assert.deepEqual(
      sortRecords(rows, { column: 'runCount', direction: 'asc' }).map((r) => r.taskId),
      ['d', 'a', 'b', 'c'],
    );
  });

  it('sorts 100,000 rows to the same order as the comparator, every column kind', () => {
    const next = random(17);
    const rows = Array.from({ length: 100_000 }, (_, i) =>
      rec(`r${i}`, next(10) === 0 ? null : next(50), {
        taskName: next(13) === 0 ? null : `Task ${next(700)}`,
        executionMetrics: {
          runCount: next(10) === 0 ? null : next(20),
          successCount: null,
          failureCount: null,
          durationPerRunSeconds: next(20) === 0 ? null : 30 + next(600_000) / 1000,
          totalExecutionSeconds: null,
          successRate: next(5) === 0 ? null : next(21) / 20,
          failureRate: null,
        },
      }),
    );
    for (const id of ['task', 'runCount', 'durationPerRunSeconds', 'successRate']) {
      const orders = new SortOrders(rows);
      for (const direction of ['desc', 'asc'] as const) {
        assertComparatorOrder(rows, orders.order(col(id), direction), col(id), direction);
      }
    }
  });

  it('prepares an order in slices that stop when asked, and a sort meanwhile finishes the rest', () => {
    const next = random(5);
    const rows = Array.from({ length: 3 * SLICE_ROWS + 5 }, (_, i) =>
      rec(`r${i}`, next(10) === 0 ? null : next(50), { taskName: next(13) === 0 ? null : `Task ${next(700)}` }),
    );
    for (const id of ['task', 'runCount']) {
      const sliced = new SortOrders(rows);
      let slices = 1;
      while (!sliced.prepare(col(id), () => false)) slices++;
      assert.ok(slices >= 4, `${id}: one slice per ${SLICE_ROWS} rows at least, got ${slices}`);
      assertComparatorOrder(rows, sliced.order(col(id), 'asc'), col(id), 'asc');
      // Stopped after two slices, then sorted: the sort completes the same order.
      const half = new SortOrders(rows);
      let asked = 0;
      assert.equal(
        half.prepare(col(id), () => ++asked < 2),
        false,
      );
      assertComparatorOrder(rows, half.order(col(id), 'desc'), col(id), 'desc');
      assert.equal(
        half.prepare(col(id), () => false),
        true,
        'ready once sorted',
      );
    }
  });

  it('the one-pass check fails an order the comparator would not give', () => {
    const rows = [rec('a', 2), rec('b', null), rec('c', 1), rec('d', 1)];
    const good = new SortOrders(rows).order(col('runCount'), 'asc');
    assert.deepEqual([...good], [2, 3, 0, 1]);
    assertComparatorOrder(rows, good, col('runCount'), 'asc');
    for (const bad of [
      [3, 2, 0, 1],
      [2, 3, 1, 0],
      [2, 0, 3, 1],
      [2, 3, 0, 0],
      [2, 3, 0],
      [2, 3, 0, 4],
    ]) {
      assert.throws(
        () => assertComparatorOrder(rows, Uint32Array.from(bad), col('runCount'), 'asc'),
        assert.AssertionError,
        bad.join(),
      );
    }
    // A column it cannot judge in one pass is refused, not passed.
    const infinite = [rec('a', Number.POSITIVE_INFINITY), rec('b', 1)];
    assert.throws(
      () => assertComparatorOrder(infinite, Uint32Array.from([1, 0]), col('runCount'), 'asc'),
      /one kind of key, finite/,
    );
  });
});
