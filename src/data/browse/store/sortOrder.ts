/**
 * A stable sort of a column over every row, from one pass over the file: numbers as numbers,
 * dates as dates, anything else as case-folded text; empties last in both directions; equal
 * keys keep the file's order. The result is a typed array of row numbers (4 bytes a row);
 * the keys are dropped once it is made.
 */
import { SORT_KEY_CHARS, dateOf, isEmpty, joinKinds, kindOf, numberOf, textKey, type Cell, type ColumnKind } from './cells';
import type { RecordFile } from './recordFile';

export type Direction = 'asc' | 'desc';

export interface SortResult {
  order: Uint32Array;
  kind: ColumnKind;
}

/** The column's cells over every row, in one pass (the kind is settled as they come). */
async function columnCells(file: RecordFile, column: number, count: number, signal?: AbortSignal): Promise<{ cells: Cell[]; kind: ColumnKind }> {
  const cells: Cell[] = new Array<Cell>(count).fill(null);
  let kind: ColumnKind = 'empty';
  await file.scan(
    (row) => {
      const cell = row.cells[column] ?? null;
      if (isEmpty(cell)) return;
      kind = joinKinds(kind, kindOf(cell));
      // A long text keeps only its key (a number or a date is never that long).
      cells[row.n] = typeof cell === 'string' && cell.length > SORT_KEY_CHARS ? textKey(cell) : cell;
    },
    { signal, count, column },
  );
  return { cells, kind };
}

export async function sortColumn(file: RecordFile, column: number, direction: Direction, signal?: AbortSignal, count = file.count): Promise<SortResult> {
  const { cells, kind } = await columnCells(file, column, count, signal);
  const sign = direction === 'asc' ? 1 : -1;
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  if (kind === 'number' || kind === 'date') {
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      const cell = cells[i] ?? null;
      const key = isEmpty(cell) ? undefined : kind === 'number' ? numberOf(cell) : dateOf(cell);
      keys[i] = key === undefined ? NaN : key;
    }
    cells.length = 0;
    order.sort((a, b) => {
      const x = keys[a] as number;
      const y = keys[b] as number;
      if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) === Number.isNaN(y) ? a - b : Number.isNaN(x) ? 1 : -1;
      return x === y ? a - b : (x < y ? -1 : 1) * sign;
    });
    return { order, kind };
  }
  const keys = cells.map((cell) => (isEmpty(cell) ? undefined : kind === 'boolean' ? String(cell) : textKey(cell)));
  cells.length = 0;
  order.sort((a, b) => {
    const x = keys[a];
    const y = keys[b];
    if (x === undefined || y === undefined) return x === y ? a - b : x === undefined ? 1 : -1;
    return x === y ? a - b : (x < y ? -1 : 1) * sign;
  });
  return { order, kind };
}
