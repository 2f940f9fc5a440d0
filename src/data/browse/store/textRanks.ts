/**
 * A text column's sort keys as bytes, and each row's rank among them from a radix sort: no
 * string a row, no comparison sort. A key orders as `<` orders its text (UTF-16 code units):
 * an ASCII unit is its byte, any other unit three bytes from 0x80 up (so it comes after every
 * ASCII one, and two such units order as their values). Keys lie in blocks of 4 MB, 4 bytes
 * of address and 1 of length a row: at a million rows, the keys' own bytes and 5 MB.
 */
import type { ColumnKind } from './cells';
import { type Cell, isEmpty, SORT_KEY_CHARS, textKey } from './cells';
import type { ColumnKeys } from './keyRanks';

const BLOCK_BITS = 22;
const BLOCK = 1 << BLOCK_BITS;
const MASK = BLOCK - 1;
/** Longest key in bytes (64 units of three bytes). */
const MAX_KEY = SORT_KEY_CHARS * 3;
/** Ranges this small are sorted by comparing keys. */
const SMALL = 24;

const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);

export class TextKeys {
  private readonly blocks: Uint8Array[] = [];
  private block = new Uint8Array(0);
  private used = BLOCK;
  /** Address of each row's key (block << BLOCK_BITS | offset). */
  readonly at: Uint32Array;
  /** Length of each row's key; 0 for an empty cell. */
  readonly length: Uint8Array;

  constructor(readonly count: number) {
    this.at = new Uint32Array(count);
    this.length = new Uint8Array(count);
  }

  private room(): void {
    if (this.used + MAX_KEY <= BLOCK) return;
    this.block = new Uint8Array(BLOCK);
    this.blocks.push(this.block);
    this.used = 0;
  }

  /**
   * A CSV cell's key from its bytes when they are ASCII (lower-cased as `toLowerCase` does);
   * false when they are not, and the caller hands the cell's text to `setText`.
   */
  setAscii(row: number, buf: Uint8Array, start: number, end: number): boolean {
    const stop = Math.min(end, start + SORT_KEY_CHARS);
    let blank = true;
    for (let i = start; i < stop; i++) {
      const b = buf[i] as number;
      if (b >= 0x80) return false;
      if (blank && !isSpace(b)) blank = false;
    }
    if (blank) {
      // White space throughout is an empty cell; past the key's length it is not known yet.
      if (end > stop) return false;
      this.length[row] = 0;
      return true;
    }
    this.room();
    const block = this.block;
    let o = this.used;
    this.at[row] = ((this.blocks.length - 1) << BLOCK_BITS) | o;
    for (let i = start; i < stop; i++) {
      const b = buf[i] as number;
      block[o++] = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    }
    this.length[row] = o - this.used;
    this.used = o;
    return true;
  }

  /** Any cell's key, from its text (textKey). */
  setText(row: number, cell: Cell): void {
    if (isEmpty(cell)) {
      this.length[row] = 0;
      return;
    }
    const key = typeof cell === 'boolean' ? String(cell) : textKey(cell);
    this.room();
    const block = this.block;
    let o = this.used;
    this.at[row] = ((this.blocks.length - 1) << BLOCK_BITS) | o;
    for (let i = 0; i < key.length; i++) {
      const u = key.charCodeAt(i);
      if (u < 0x80) block[o++] = u;
      else {
        block[o++] = 0x80 | (u >>> 14);
        block[o++] = (u >>> 7) & 0x7f;
        block[o++] = u & 0x7f;
      }
    }
    this.length[row] = o - this.used;
    this.used = o;
  }

  /** Row r's bytes depth, depth + 1 and depth + 2, each 9 bits (the byte + 1; 0 past the key's end). */
  three(r: number, depth: number): number {
    const a = this.at[r] as number;
    const block = this.blocks[a >>> BLOCK_BITS] as Uint8Array;
    const o = (a & MASK) + depth;
    const left = (this.length[r] as number) - depth;
    const b0 = left > 0 ? (block[o] as number) + 1 : 0;
    const b1 = left > 1 ? (block[o + 1] as number) + 1 : 0;
    const b2 = left > 2 ? (block[o + 2] as number) + 1 : 0;
    return (b0 << 18) | (b1 << 9) | b2;
  }

  /** How many bytes from `depth` on every key of order[lo, hi) shares with the first. */
  shared(order: Uint32Array, lo: number, hi: number, depth: number): number {
    const f = order[lo] as number;
    const af = this.at[f] as number;
    const bf = this.blocks[af >>> BLOCK_BITS] as Uint8Array;
    const of = (af & MASK) + depth;
    let same = (this.length[f] as number) - depth;
    for (let i = lo + 1; i < hi && same > 0; i++) {
      const r = order[i] as number;
      const ar = this.at[r] as number;
      const br = this.blocks[ar >>> BLOCK_BITS] as Uint8Array;
      const or = (ar & MASK) + depth;
      const n = Math.min(same, (this.length[r] as number) - depth);
      let k = 0;
      while (k < n && br[or + k] === bf[of + k]) k++;
      same = k;
    }
    return same;
  }

  /** Rows r and s compared by their keys from byte `depth` on (a shorter key first). */
  compare(r: number, s: number, depth: number): number {
    const lr = this.length[r] as number;
    const ls = this.length[s] as number;
    const n = Math.min(lr, ls);
    const ar = this.at[r] as number;
    const as = this.at[s] as number;
    const br = this.blocks[ar >>> BLOCK_BITS] as Uint8Array;
    const bs = this.blocks[as >>> BLOCK_BITS] as Uint8Array;
    const or = ar & MASK;
    const os = as & MASK;
    for (let i = depth; i < n; i++) {
      const d = (br[or + i] as number) - (bs[os + i] as number);
      if (d !== 0) return d;
    }
    return lr - ls;
  }
}

/** Each row's rank among the distinct keys (empties after all of them), from an MSD radix sort of the rows. */
export function textRanks(keys: TextKeys, kind: ColumnKind): ColumnKeys {
  const { count, length } = keys;
  let filled = 0;
  for (let i = 0; i < count; i++) if (length[i] !== 0) filled++;
  const order = new Uint32Array(filled);
  for (let i = 0, k = 0; i < count; i++) if (length[i] !== 0) order[k++] = i;
  const starts = sortRows(keys, order);
  const ranks = new Uint32Array(count);
  let groups = 0;
  for (let i = 0; i < filled; i++) {
    groups += starts[i] as number;
    ranks[order[i] as number] = groups - 1;
  }
  for (let i = 0; i < count; i++) if (length[i] === 0) ranks[i] = groups;
  return { ranks, groups, kind };
}

/**
 * Sorts `order` by key: a range's shared bytes are skipped in one pass over it (a key's bytes
 * lie together, so long shared prefixes cost one read of each key, not one a byte), then it is
 * split by its next byte (0: the key ends there). The next three bytes of each key are kept
 * beside `order` and move with it, so the keys themselves (spread over the blocks) are read
 * once every three bytes, not at each. Returns where each run of equal keys starts (1 there).
 */
function sortRows(keys: TextKeys, order: Uint32Array): Uint8Array {
  const n = order.length;
  const spare = new Uint32Array(n);
  const next = new Uint32Array(n);
  const nextSpare = new Uint32Array(n);
  const digits = new Uint16Array(n);
  const starts = new Uint8Array(n);
  if (n > 0) starts[0] = 1;
  const counts = new Uint32Array(257);
  // Ranges still to sort: lo, hi, depth, and the depth `next` holds bytes from (-1: none yet).
  const stack: number[] = [0, n, 0, -1];
  while (stack.length > 0) {
    let held = stack.pop() as number;
    let depth = stack.pop() as number;
    const hi = stack.pop() as number;
    const lo = stack.pop() as number;
    if (hi - lo <= SMALL) {
      for (let i = lo + 1; i < hi; i++) {
        const r = order[i] as number;
        let j = i;
        while (j > lo && keys.compare(order[j - 1] as number, r, depth) > 0) {
          order[j] = order[j - 1] as number;
          j--;
        }
        order[j] = r;
      }
      for (let i = lo + 1; i < hi; i++)
        if (keys.compare(order[i - 1] as number, order[i] as number, depth) !== 0) starts[i] = 1;
      continue;
    }
    depth += keys.shared(order, lo, hi, depth);
    if (held < 0 || depth - held >= 3) {
      for (let i = lo; i < hi; i++) next[i] = keys.three(order[i] as number, depth);
      held = depth;
    }
    const shift = 18 - 9 * (depth - held);
    counts.fill(0);
    for (let i = lo; i < hi; i++) {
      const d = ((next[i] as number) >>> shift) & 0x1ff;
      digits[i] = d;
      counts[d] = (counts[d] as number) + 1;
    }
    // Past the shared bytes, keys differ or every one ends (all equal).
    if (counts[0] === hi - lo) continue;
    for (let d = 0, sum = lo; d < 257; d++) {
      const c = counts[d] as number;
      counts[d] = sum;
      sum += c;
    }
    for (let i = lo; i < hi; i++) {
      const d = digits[i] as number;
      const to = counts[d] as number;
      counts[d] = to + 1;
      spare[to] = order[i] as number;
      nextSpare[to] = next[i] as number;
    }
    order.set(spare.subarray(lo, hi), lo);
    next.set(nextSpare.subarray(lo, hi), lo);
    // counts[d] is now where bucket d ends; bucket 0 (keys that end here, all equal) is done.
    for (let d = 1, from = counts[0] as number; d < 257; d++) {
      const to = counts[d] as number;
      if (to > from) starts[from] = 1;
      if (to - from > 1) stack.push(from, to, depth + 1, held);
      from = to;
    }
  }
  return starts;
}
