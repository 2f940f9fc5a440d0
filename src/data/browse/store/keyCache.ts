/**
 * The sort keys of the columns sorted lately (columnKeys.ts), kept so that sorting a column
 * again, in either direction or under another filter, does not read the file again. At most
 * KEPT_COLUMNS columns (4 bytes a row each: 16 MB at a million rows), the least recently used
 * dropped first. Keys hold for the rows they were made from: more rows loaded, or the file
 * changed on disk, and they are made again.
 */
import type { ColumnKeys } from './columnKeys';

export const KEPT_COLUMNS = 4;

interface Kept {
  keys: ColumnKeys;
  /** Rows the keys were made from. */
  count: number;
}

export class KeyCache {
  private readonly kept = new Map<number, Kept>();

  /** The column's keys if they were made from exactly `count` rows. */
  get(column: number, count: number): ColumnKeys | undefined {
    const hit = this.kept.get(column);
    if (hit === undefined || hit.count !== count) return undefined;
    // Most recently used last.
    this.kept.delete(column);
    this.kept.set(column, hit);
    return hit.keys;
  }

  set(column: number, count: number, keys: ColumnKeys): void {
    this.kept.delete(column);
    this.kept.set(column, { keys, count });
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= KEPT_COLUMNS) break;
      this.kept.delete(oldest);
    }
  }

  /** Columns kept now (for tests and the memory figure). */
  get size(): number {
    return this.kept.size;
  }

  clear(): void {
    this.kept.clear();
  }
}
