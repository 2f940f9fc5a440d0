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
    await file.scanRaw(
      (buf) => rowsHolding(buf, term),
      (n) => (pass[n] = 1),
      { signal: o.signal, count },
    );
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
