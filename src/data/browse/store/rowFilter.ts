/**
 * Which rows a filter shows, from one pass over the file: a search over every column (case
 * folded), and conditions on columns (contains, equals, is empty, is not empty), all of which a
 * row must meet. The raw text of a row is searched first, so rows without the term are never
 * decoded. The result is a typed array of row numbers in the order given.
 */
import { cellText, isEmpty } from './cells';
import type { RecordFile } from './recordFile';

export type ConditionOp = 'contains' | 'equals' | 'empty' | 'notEmpty';

export interface Condition {
  column: number;
  op: ConditionOp;
  value?: string;
}

export interface RowFilter {
  search?: string;
  conditions?: readonly Condition[];
}

export const isNoFilter = (f: RowFilter | undefined): boolean =>
  f === undefined || ((f.search ?? '').trim() === '' && (f.conditions ?? []).length === 0);

/** Row numbers that pass, in the order of `order` (the file's when absent). */
export async function filterRows(
  file: RecordFile,
  filter: RowFilter,
  o: { order?: Uint32Array; signal?: AbortSignal; count?: number } = {},
): Promise<Uint32Array> {
  const count = o.count ?? file.count;
  const term = (filter.search ?? '').trim().toLowerCase();
  const conditions = (filter.conditions ?? []).map((c) => ({ ...c, value: (c.value ?? '').toLowerCase() }));
  const pass = new Uint8Array(count);
  // ASCII terms can be looked for in the raw bytes (case folded as the row is read); others are decoded first.
  const asciiTerm = term !== '' && /^[\x20-\x7e]+$/.test(term) && !/["\\/]/.test(term);
  // In a CSV record a term with no comma and no quote can only lie inside one cell, so a row
  // whose bytes hold it passes a search without being decoded (conditions still need its cells).
  if (asciiTerm && conditions.length === 0 && file.format === 'csv' && !term.includes(',')) {
    await file.scanHits(termHits(term), term.length, (n) => (pass[n] = 1), { signal: o.signal, count });
  } else {
    await file.scan(
      (row) => {
        if (row.problem !== undefined) {
          pass[row.n] = term !== '' && row.problem.toLowerCase().includes(term) && conditions.length === 0 ? 1 : 0;
          return;
        }
        if (term !== '' && !row.cells.some((cell) => cellText(cell).toLowerCase().includes(term))) return;
        for (const c of conditions) {
          const cell = row.cells[c.column] ?? null;
          const text = cellText(cell).toLowerCase();
          const ok =
            c.op === 'empty'
              ? isEmpty(cell)
              : c.op === 'notEmpty'
                ? !isEmpty(cell)
                : c.op === 'equals'
                  ? text.trim() === c.value.trim()
                  : text.includes(c.value);
          if (!ok) return;
        }
        pass[row.n] = 1;
      },
      { signal: o.signal, count, raw: asciiTerm ? (buf) => rowsHolding(buf, term) : undefined },
    );
  }
  const order = o.order;
  let shown = 0;
  for (let i = 0; i < count; i++) shown += pass[i] as number;
  const out = new Uint32Array(shown);
  let k = 0;
  const total = order?.length ?? count;
  for (let j = 0; j < total; j++) {
    const n = order === undefined ? j : (order[j] as number);
    if (n < count && pass[n] === 1) out[k++] = n;
  }
  return k === shown ? out : out.subarray(0, k);
}

/**
 * Which rows of a chunk hold the (lower-case ASCII) term: the chunk read as latin1 keeps one
 * character a byte, so a case-insensitive search gives byte positions (without the `u` flag no
 * other character folds onto an ASCII one). Rows are asked in file order; the search resumes at
 * a row's start only when the last hit lies before it, so a common term costs one search a row,
 * not one a hit.
 */
function rowsHolding(buf: Buffer, term: string): (start: number, end: number) => boolean {
  const text = buf.toString('latin1');
  const pattern = new RegExp(term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  let hit = -1;
  return (start, end) => {
    if (hit < start && hit !== Infinity) {
      pattern.lastIndex = start;
      hit = pattern.exec(text)?.index ?? Infinity;
    }
    return hit + term.length <= end;
  };
}

/*
 * Where a search term lies in a chunk's raw bytes, ASCII letters case folded, with no string made
 * of the chunk: one byte of the term (the one likely rarest in text) is looked for in both cases
 * with `Buffer.indexOf` (memchr), and the term is checked around each place it is found. Exactly
 * what a case-insensitive search of the bytes read as latin1 finds: no other byte folds onto an
 * ASCII letter.
 */

/** Letters from the most to the least common in English text: a rarer anchor is found less often. */
const BY_FREQUENCY = 'etaoinshrdlcumwfgypbvkjxqz';

/** How rare a byte is likely to be (higher: rarer); only speed depends on it. */
function rarity(b: number): number {
  if (b >= 0x61 && b <= 0x7a) return BY_FREQUENCY.indexOf(String.fromCharCode(b));
  if (b === 0x20) return -1;
  if (b >= 0x30 && b <= 0x39) return 10;
  return 20;
}

const folded = (b: number): number => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

/**
 * `hits(buf)(from)`: where the first hit of `term` (lower-case printable ASCII) at or after `from`
 * starts in buf, -1 when there is none. Calls on one chunk must come with `from` not decreasing.
 */
export function termHits(term: string): (buf: Buffer) => (from: number) => number {
  const t = Buffer.from(term, 'latin1');
  const n = t.length;
  let k = 0;
  for (let i = 1; i < n; i++) if (rarity(t[i] as number) > rarity(t[k] as number)) k = i;
  const lower = t[k] as number;
  const upper = lower >= 0x61 && lower <= 0x7a ? lower - 0x20 : lower;
  return (buf) => {
    // The next place of the anchor byte in each case, kept while still ahead of the search.
    let atLower = -1;
    let atUpper = upper === lower ? Infinity : -1;
    return (from) => {
      for (let p = from + k; ;) {
        if (atLower < p) atLower = indexOrEnd(buf, lower, p);
        if (atUpper < p) atUpper = indexOrEnd(buf, upper, p);
        const a = Math.min(atLower, atUpper);
        if (a === Infinity) return -1;
        const s = a - k;
        if (s + n <= buf.length && holds(buf, s, t)) return s;
        p = a + 1;
      }
    };
  };
}

function indexOrEnd(buf: Buffer, b: number, from: number): number {
  const at = from < buf.length ? buf.indexOf(b, from) : -1;
  return at < 0 ? Infinity : at;
}

function holds(buf: Buffer, s: number, t: Buffer): boolean {
  for (let i = 0; i < t.length; i++) if (folded(buf[s + i] as number) !== t[i]) return false;
  return true;
}
