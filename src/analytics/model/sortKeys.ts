/**
 * The two stable sorts behind the table's row orders, both linear in the row count: numbers by a
 * radix sort of their IEEE-754 bits (four 16-bit passes), text by a counting sort of collation
 * ranks (each distinct value collated once). Neither calls a comparator per pair, which is what
 * made 100,000 rows take 100-200 ms. Pure: no DOM.
 */

/** A row order and what decides ties in it. */
export interface KeyedOrder {
  /** Row indexes, ascending by key, ties in index order, then the rows without a key in index order. */
  order: Uint32Array;
  /** Per row: equal keys are ties (numbers: the value, -0 as 0; text: the collation rank). */
  keys: Float64Array;
  /** How many rows have a key: order[0, known) are they. */
  known: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = LITTLE_ENDIAN ? 0 : 1;
const SIGN = 0x80000000;

/** Rows with a finite-or-infinite number (`numbers[i]` not NaN) ascending; NaN rows last. */
export function numberOrder(numbers: Float64Array): KeyedOrder {
  const n = numbers.length;
  const keys = new Float64Array(n);
  const bits = new Uint32Array(keys.buffer);
  let known = 0;
  for (let i = 0; i < n; i++) {
    const v = numbers[i] as number;
    keys[i] = v === 0 ? 0 : v; // -0 and 0 tie, as `a - b` made them
    if (v === v) known++;
  }
  const rows = new Uint32Array(known);
  const hi = new Uint32Array(known);
  const lo = new Uint32Array(known);
  const order = new Uint32Array(n);
  let k = 0;
  let rest = known;
  for (let i = 0; i < n; i++) {
    const v = keys[i] as number;
    if (v !== v) {
      order[rest++] = i;
      continue;
    }
    // Bits that sort as unsigned integers in the numbers' order: negatives flipped whole, positives' sign set.
    let h = bits[2 * i + HI] as number;
    let l = bits[2 * i + LO] as number;
    if (h & SIGN) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else {
      h = (h | SIGN) >>> 0;
    }
    rows[k] = i;
    hi[k] = h;
    lo[k] = l;
    k++;
  }
  const sorted = radix(hi, lo);
  for (let j = 0; j < known; j++) order[j] = rows[sorted[j] as number] as number;
  return { order, keys, known };
}

/** Positions 0..m-1 ordered by (hi, lo) as unsigned 64-bit numbers, ties by position (LSD radix, stable). */
function radix(hi: Uint32Array, lo: Uint32Array): Uint32Array {
  const m = hi.length;
  let from = new Uint32Array(m);
  let to = new Uint32Array(m);
  for (let j = 0; j < m; j++) from[j] = j;
  const count = new Uint32Array(0x10001);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let j = 0; j < m; j++) (count[(((word[from[j] as number] as number) >>> shift) & 0xffff) + 1] as number)++;
    // A digit every key shares (the high bits of small integers, often) changes nothing: skipped.
    if (m === 0 || count[(((word[from[0] as number] as number) >>> shift) & 0xffff) + 1] === m) continue;
    for (let d = 1; d <= 0x10000; d++) count[d] = (count[d] as number) + (count[d - 1] as number);
    for (let j = 0; j < m; j++) {
      const p = from[j] as number;
      const d = ((word[p] as number) >>> shift) & 0xffff;
      to[count[d] as number] = p;
      count[d] = (count[d] as number) + 1;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  return from;
}

/**
 * Rows by text: `ranks[i]` is the row's collation rank (0..levels-1), or `levels` for no text.
 * A counting sort: one pass to count, one to place, ties in index order.
 */
export function rankOrder(ranks: Float64Array, levels: number): KeyedOrder {
  const n = ranks.length;
  const count = new Uint32Array(levels + 2);
  for (let i = 0; i < n; i++) (count[(ranks[i] as number) + 1] as number)++;
  for (let r = 1; r < count.length; r++) count[r] = (count[r] as number) + (count[r - 1] as number);
  const known = count[levels] as number; // where the rows without text start
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const r = ranks[i] as number;
    order[count[r] as number] = i;
    count[r] = (count[r] as number) + 1;
  }
  return { order, keys: ranks, known };
}

/**
 * The descending order from an ascending one, in one pass: runs of equal key in reverse order,
 * each run keeping its original (index) order; the rows without a key stay last.
 */
export function reverseRuns({ order, keys, known }: KeyedOrder): Uint32Array {
  const out = new Uint32Array(order.length);
  out.set(order.subarray(known), known);
  let write = 0;
  let end = known;
  while (end > 0) {
    const key = keys[order[end - 1] as number];
    let start = end - 1;
    while (start > 0 && keys[order[start - 1] as number] === key) start--;
    out.set(order.subarray(start, end), write);
    write += end - start;
    end = start;
  }
  return out;
}
