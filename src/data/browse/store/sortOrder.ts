/**
 * A stable sort of a column over every row: numbers as numbers, dates as dates, anything else
 * as case-folded text; empties last in both directions; equal keys keep the file's order. The
 * column's keys (ranks, columnKeys.ts) come from one pass over the file, or from the cache when
 * the column was sorted before; the result is a typed array of row numbers (4 bytes a row).
 */
import type { ColumnKind } from './cells';
import { columnKeys, orderByRanks } from './columnKeys';
import type { KeyCache } from './keyCache';
import type { RecordFile } from './recordFile';

export type Direction = 'asc' | 'desc';

export interface SortResult {
  order: Uint32Array;
  kind: ColumnKind;
}

export async function sortColumn(
  file: RecordFile,
  column: number,
  direction: Direction,
  signal?: AbortSignal,
  count = file.count,
  cache?: KeyCache,
): Promise<SortResult> {
  let keys = cache?.get(column, count);
  if (keys === undefined) {
    keys = await columnKeys(file, column, count, signal);
    cache?.set(column, count, keys);
  }
  return { order: orderByRanks(keys, direction), kind: keys.kind };
}
