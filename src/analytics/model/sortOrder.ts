/**
 * The table's row orders as permutations, computed once per result and column and cached, so
 * sorting 100,000 rows is a few linear passes (sortKeys.ts) instead of 1.7 million comparator
 * calls, and flipping the direction or coming back to a column costs one pass or nothing.
 * Order semantics are the table's: numbers by value, text by TABLE_COLLATOR (values it calls
 * equal are ties), nulls and NaN last in both directions, ties in their original order.
 * Pure: no DOM, unit-tested in Node.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import { type KeyedOrder, numberOrder, rankOrder, reverseRuns } from './sortKeys';

export type SortDirection = 'asc' | 'desc';

/** What a sort needs of a table column (tableModel.ts's Column is one). */
export interface SortColumn {
  readonly id: string;
  value(record: AnalyticsRecord): string | number | null;
}

/** The collation every text column sorts by (natural numbers, case- and accent-insensitive). */
export const TABLE_COLLATOR = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

type Key = string | number | null;

interface ColumnOrders {
  /** Undefined for a column that mixes text and numbers (it sorts by the comparator). */
  keyed: KeyedOrder | undefined;
  asc: Uint32Array | undefined;
  desc: Uint32Array | undefined;
}

/** Every row order of one result: one entry per column sorted so far. */
export class SortOrders {
  private readonly columns = new Map<string, ColumnOrders>();
  /** Columns whose order is part done (prepare() stopped at a deadline). */
  private readonly pending = new Map<string, Generator<void, ColumnOrders>>();

  /** The row count when the orders were made: an array that grew since is another result. */
  readonly length: number;

  constructor(readonly records: readonly AnalyticsRecord[]) {
    this.length = records.length;
  }

  /** Row indexes of `records` in the column's order. The returned array is shared: do not write to it. */
  order(column: SortColumn, direction: SortDirection): Uint32Array {
    if (!this.columns.has(column.id)) this.prepare(column, () => true);
    const entry = this.columns.get(column.id) as ColumnOrders;
    const cached = entry[direction];
    if (cached) return cached;
    // Only a mixed column has no keyed order; it sorts each direction as the comparator always did.
    const next = entry.keyed ? reverseRuns(entry.keyed) : comparatorOrder(this.records, column, direction);
    entry[direction] = next;
    return next;
  }

  /**
   * Computes the column's ascending order a slice at a time (about SLICE_ROWS rows each) while
   * `more()` says so, so idle-time work can stop at a deadline and go on later; true once ready.
   * A sort of the column meanwhile finishes the slices left.
   */
  prepare(column: SortColumn, more: () => boolean): boolean {
    if (this.columns.has(column.id)) return true;
    let steps = this.pending.get(column.id);
    if (!steps) {
      steps = build(this.records, column);
      this.pending.set(column.id, steps);
    }
    for (;;) {
      const step = steps.next();
      if (step.done) {
        this.columns.set(column.id, step.value);
        this.pending.delete(column.id);
        return true;
      }
      if (!more()) return false;
    }
  }
}

const cache = new WeakMap<readonly AnalyticsRecord[], SortOrders>();

/**
 * The orders of this result. A new result (another array) starts afresh; the old one's orders go
 * with it. An array that changed length since is treated as a new result too.
 */
export function sortOrdersFor(records: readonly AnalyticsRecord[]): SortOrders {
  const known = cache.get(records);
  if (known && known.length === records.length) return known;
  const fresh = new SortOrders(records);
  cache.set(records, fresh);
  return fresh;
}

function keyOf(column: SortColumn, record: AnalyticsRecord): Key {
  const v = column.value(record);
  return typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v)) ? v : null;
}

/** Rows per slice of a sliced pass: a few milliseconds of script each, even on a loaded machine. */
export const SLICE_ROWS = 8192;

/** The column's orders; it yields between slices of rows and between passes (see prepare()). */
function* build(records: readonly AnalyticsRecord[], column: SortColumn): Generator<void, ColumnOrders> {
  const n = records.length;
  const numbers = new Float64Array(n);
  const texts: (string | undefined)[] = new Array<string | undefined>(n);
  let hasNumber = false;
  let hasText = false;
  for (let start = 0; start < n; start += SLICE_ROWS) {
    const end = Math.min(n, start + SLICE_ROWS);
    for (let i = start; i < end; i++) {
      const k = keyOf(column, records[i] as AnalyticsRecord);
      if (typeof k === 'number') {
        numbers[i] = k;
        hasNumber = true;
      } else {
        numbers[i] = Number.NaN;
        if (k !== null) {
          texts[i] = k;
          hasText = true;
        }
      }
    }
    yield;
  }
  if (hasNumber && hasText) return { keyed: undefined, asc: comparatorOrder(records, column, 'asc'), desc: undefined };
  const keyed = hasNumber ? numberOrder(numbers) : yield* textOrder(texts);
  return { keyed, asc: keyed.order, desc: undefined };
}

/**
 * Text: each distinct value collated once; values the collator calls equal share a rank (so they
 * stay ties, in their original order). Rows without text rank after every value. One hash look-up
 * per row (first-seen ids), then ranks by id: no string is hashed twice. Yields between slices.
 */
function* textOrder(texts: readonly (string | undefined)[]): Generator<void, KeyedOrder> {
  const n = texts.length;
  const idOf = new Map<string, number>();
  const distinct: string[] = [];
  const ids = new Int32Array(n);
  for (let start = 0; start < n; start += SLICE_ROWS) {
    const end = Math.min(n, start + SLICE_ROWS);
    for (let i = start; i < end; i++) {
      const t = texts[i];
      if (t === undefined) {
        ids[i] = -1;
        continue;
      }
      let id = idOf.get(t);
      if (id === undefined) {
        id = distinct.length;
        idOf.set(t, id);
        distinct.push(t);
      }
      ids[i] = id;
    }
    yield;
  }
  const byText = distinct
    .map((_, id) => id)
    .sort((a, b) => TABLE_COLLATOR.compare(distinct[a] as string, distinct[b] as string));
  const rankOfId = new Float64Array(distinct.length);
  let r = 0;
  byText.forEach((id, i) => {
    if (i > 0 && TABLE_COLLATOR.compare(distinct[byText[i - 1] as number] as string, distinct[id] as string) !== 0) r++;
    rankOfId[id] = r;
  });
  yield;
  const levels = distinct.length === 0 ? 0 : r + 1;
  const ranks = new Float64Array(n);
  for (let start = 0; start < n; start += SLICE_ROWS) {
    const end = Math.min(n, start + SLICE_ROWS);
    for (let i = start; i < end; i++) {
      const id = ids[i] as number;
      ranks[i] = id < 0 ? levels : (rankOfId[id] as number);
    }
    yield;
  }
  return rankOrder(ranks, levels);
}

/**
 * A column mixing text and numbers (no field does; kept for safety): the comparator the table
 * always used, numbers by value, anything with text collated as text, nulls last, stable.
 */
function comparatorOrder(
  records: readonly AnalyticsRecord[],
  column: SortColumn,
  direction: SortDirection,
): Uint32Array {
  const sign = direction === 'asc' ? 1 : -1;
  const keys = records.map((r) => keyOf(column, r));
  const idx = Array.from({ length: records.length }, (_, i) => i);
  idx.sort((a, b) => {
    const x = keys[a] as Key;
    const y = keys[b] as Key;
    if (x === null || y === null) {
      if (x === y) return a - b;
      return x === null ? 1 : -1;
    }
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : TABLE_COLLATOR.compare(String(x), String(y));
    return c !== 0 ? sign * c : a - b;
  });
  return Uint32Array.from(idx);
}
