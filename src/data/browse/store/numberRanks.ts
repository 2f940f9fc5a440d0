/**
 * Each row's rank among a number column's distinct values (dates as milliseconds), from a radix
 * sort of the rows by their values' bits: eight passes of 8 bits, no comparisons, no search.
 * The bits are made to order as the numbers do (a positive number's sign bit set, a negative
 * one's every bit flipped); -0 is read as 0 (one value, as `===` says).
 */
import type { ColumnKind } from './cells';
import type { ColumnKeys } from './keyRanks';

/** `values`: one a row, NaN for an empty cell (ranked after every value). */
export function numberRanks(values: Float64Array, kind: ColumnKind): ColumnKeys {
  const count = values.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, count * 2);
  let filled = 0;
  for (let i = 0; i < count; i++) if (!Number.isNaN(values[i] as number)) filled++;
  // Each value's bits made to order, carried with its row through the passes (read in order, never looked up).
  let rows = new Uint32Array(filled);
  let low = new Uint32Array(filled);
  let high = new Uint32Array(filled);
  for (let i = 0, k = 0; i < count; i++) {
    const v = values[i] as number;
    if (Number.isNaN(v)) continue;
    const hi = v === 0 ? 0 : (words[2 * i + 1] as number);
    const lo = v === 0 ? 0 : (words[2 * i] as number);
    const negative = (hi & 0x80000000) !== 0;
    rows[k] = i;
    high[k] = negative ? ~hi : hi | 0x80000000;
    low[k] = negative ? ~lo : lo;
    k++;
  }
  let rows2 = new Uint32Array(filled);
  let low2 = new Uint32Array(filled);
  let high2 = new Uint32Array(filled);
  const counts = new Uint32Array(256);
  // Eight passes of 8 bits, least significant first (a byte every value shares is skipped).
  for (let pass = 0; pass < 8; pass++) {
    const shift = (pass % 4) * 8;
    const key = pass < 4 ? low : high;
    counts.fill(0);
    for (let i = 0; i < filled; i++) {
      const d = ((key[i] as number) >>> shift) & 0xff;
      counts[d] = (counts[d] as number) + 1;
    }
    if (filled === 0 || counts[((key[0] as number) >>> shift) & 0xff] === filled) continue;
    for (let d = 0, sum = 0; d < 256; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < filled; i++) {
      const d = ((key[i] as number) >>> shift) & 0xff;
      const to = counts[d] as number;
      counts[d] = to + 1;
      rows2[to] = rows[i] as number;
      low2[to] = low[i] as number;
      high2[to] = high[i] as number;
    }
    [rows, rows2, low, low2, high, high2] = [rows2, rows, low2, low, high2, high];
  }
  const ranks = new Uint32Array(count);
  let groups = 0;
  for (let i = 0; i < filled; i++) {
    if (i === 0 || low[i] !== low[i - 1] || high[i] !== high[i - 1]) groups++;
    ranks[rows[i] as number] = groups - 1;
  }
  for (let i = 0; i < count; i++) if (Number.isNaN(values[i] as number)) ranks[i] = groups;
  return { ranks, groups, kind };
}
