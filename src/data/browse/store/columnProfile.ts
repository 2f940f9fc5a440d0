/**
 * A column's profile over the rows the view shows: its kind, how many cells are empty, how
 * many distinct values, the least and greatest, and the five most common values. One pass;
 * distinct values are counted up to MAX_DISTINCT (then "at least"), each cut to 200 characters.
 */
import { cellText, type ColumnKind, dateOf, isEmpty, joinKinds, kindOf, numberOf } from './cells';
import type { RecordFile } from './recordFile';

export interface ColumnProfile {
  column: string;
  kind: ColumnKind;
  rows: number;
  empty: number;
  distinct: number;
  /** More distinct values than were counted. */
  distinctAtLeast: boolean;
  min?: string;
  max?: string;
  common: Array<{ value: string; count: number }>;
}

export const MAX_DISTINCT = 100_000;
const VALUE_CHARS = 200;

export async function profileColumn(
  file: RecordFile,
  column: number,
  o: { rows?: Uint32Array; signal?: AbortSignal; count?: number } = {},
): Promise<ColumnProfile> {
  const count = o.count ?? file.count;
  let shown: Uint8Array | undefined;
  if (o.rows !== undefined) {
    shown = new Uint8Array(count);
    for (const n of o.rows) if (n < count) shown[n] = 1;
  }
  const counts = new Map<string, number>();
  let full = false;
  let kind: ColumnKind = 'empty';
  let rows = 0;
  let empty = 0;
  let minNum = Infinity;
  let maxNum = -Infinity;
  let minText: string | undefined;
  let maxText: string | undefined;
  await file.scan(
    (row) => {
      if (shown !== undefined && shown[row.n] !== 1) return;
      rows++;
      const cell = row.cells[column] ?? null;
      if (row.problem !== undefined || isEmpty(cell)) {
        empty++;
        return;
      }
      kind = joinKinds(kind, kindOf(cell));
      const n = numberOf(cell) ?? dateOf(cell);
      if (n !== undefined) {
        minNum = Math.min(minNum, n);
        maxNum = Math.max(maxNum, n);
      }
      const text = cellText(cell).slice(0, VALUE_CHARS);
      if (minText === undefined || text < minText) minText = text;
      if (maxText === undefined || text > maxText) maxText = text;
      const seen = counts.get(text);
      if (seen !== undefined) counts.set(text, seen + 1);
      else if (counts.size < MAX_DISTINCT) counts.set(text, 1);
      else full = true;
    },
    { signal: o.signal, count, column },
  );
  const common = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 5)
    .map(([value, c]) => ({ value, count: c }));
  // Assigned in the callback above: read it as a ColumnKind again.
  const settled = kind as ColumnKind;
  const bounds =
    settled === 'number'
      ? [String(minNum), String(maxNum)]
      : settled === 'date'
        ? [new Date(minNum).toISOString(), new Date(maxNum).toISOString()]
        : [minText, maxText];
  return {
    column: file.columns[column] ?? '',
    kind: settled,
    rows,
    empty,
    distinct: counts.size,
    distinctAtLeast: full,
    min: bounds[0],
    max: bounds[1],
    common,
  };
}
