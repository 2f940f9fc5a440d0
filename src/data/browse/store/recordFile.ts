/**
 * A file of rows, read where it lies: the index says where each record starts (recordIndex.ts),
 * and rows are decoded from the file when asked for (a window of the grid, or one pass of a
 * sort, filter or profile), so memory holds the index, never the rows. No `vscode`.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open, stat } from 'node:fs/promises';

import { type Cell, cellOfJson } from './cells';
import { CellRange, csvCellAt, csvCellRange, csvCells } from './csvBytes';
import { jsonText } from './jsonBytes';
import { RecordIndex } from './recordIndex';

export type FileFormat = 'csv' | 'jsonl' | 'json';

export interface DecodedRow {
  /** The record's number among the rows (0-based). */
  n: number;
  /** The file's line the row starts on (1-based). */
  line: number;
  cells: Cell[];
  /** Why the row could not be read (its cells are then empty). */
  problem?: string;
}

/** What the file was when indexed: a change to any of these is a change on disk. */
interface Stamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Problems kept with their row (the count goes on past it). */
const MAX_PROBLEMS = 10_000;
/** Bytes read at a time by a pass over every row. */
const SCAN_CHUNK = 4 << 20;

export class RecordFile {
  readonly index = new RecordIndex();
  readonly columns: string[] = [];
  private readonly columnAt = new Map<string, number>();
  private readonly problems = new Map<number, string>();
  problemCount = 0;
  private stamp: Stamp | undefined;

  private constructor(
    readonly path: string,
    readonly format: FileFormat,
    private readonly fh: FileHandle,
  ) {}

  /** Opens the file for reading (never for writing), never through a link. */
  static async open(path: string, format: FileFormat): Promise<RecordFile> {
    const fh = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const s = await fh.stat();
    if (!s.isFile()) {
      await fh.close();
      throw new Error('It is not a file.');
    }
    return new RecordFile(path, format, fh);
  }

  get count(): number {
    return this.index.count;
  }

  /** A column's number, added at the end when first seen. */
  column(name: string): number {
    let at = this.columnAt.get(name);
    if (at === undefined) {
      at = this.columns.length;
      this.columns.push(name);
      this.columnAt.set(name, at);
    }
    return at;
  }

  problem(n: number, message: string): void {
    this.problemCount++;
    if (this.problems.size < MAX_PROBLEMS) this.problems.set(n, message);
  }

  /** The file as it is now: what `changed()` compares with. */
  async remember(): Promise<void> {
    const s = await this.fh.stat();
    this.stamp = { size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
  }

  /** True when the file on disk is no longer the one indexed (written to, replaced or removed). */
  async changed(): Promise<boolean> {
    if (this.stamp === undefined) return false;
    try {
      const s = await stat(this.path);
      return s.size !== this.stamp.size || s.mtimeMs !== this.stamp.mtimeMs || s.ino !== this.stamp.ino;
    } catch {
      return true;
    }
  }

  async size(): Promise<number> {
    return (await this.fh.stat()).size;
  }

  async read(position: number, length: number): Promise<Buffer> {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await this.fh.read(buf, got, length - got, position + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return got === length ? buf : buf.subarray(0, got);
  }

  /** The rows with these numbers, in the order asked; consecutive numbers are read in one go. */
  async rows(numbers: readonly number[]): Promise<DecodedRow[]> {
    const out: DecodedRow[] = [];
    for (let k = 0; k < numbers.length;) {
      let last = k;
      while (last + 1 < numbers.length && numbers[last + 1] === (numbers[last] as number) + 1 && last - k < 1000)
        last++;
      const first = numbers[k] as number;
      const from = this.index.start(first);
      const buf = await this.read(from, this.index.stop(numbers[last] as number) - from);
      for (let j = k; j <= last; j++) {
        const n = numbers[j] as number;
        out.push(this.decode(n, buf, this.index.start(n) - from, this.index.stop(n) - from));
      }
      k = last + 1;
    }
    return out;
  }

  /** One row from its bytes. */
  decode(n: number, buf: Buffer, start: number, end: number): DecodedRow {
    const line = this.index.line(n);
    const problem = this.problems.get(n);
    if (problem !== undefined) return { n, line, cells: [], problem };
    if (this.format === 'csv') return { n, line, cells: this.padded(csvCells(buf, start, end)) };
    try {
      const value: unknown = JSON.parse(jsonText(buf, start, end));
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        return { n, line, cells: [], problem: 'This row is not an object of fields.' };
      const cells: Cell[] = this.padded([]);
      for (const [key, v] of Object.entries(value)) {
        const at = this.columnAt.get(key);
        if (at !== undefined) cells[at] = cellOfJson(v);
      }
      return { n, line, cells };
    } catch {
      // The file changed under us, or a row beyond the problems kept.
      return { n, line, cells: [], problem: 'This row is not valid JSON.' };
    }
  }

  /** Every column's cell, a missing one null (a short CSV record, a JSON row without the field). */
  private padded(cells: Cell[]): Cell[] {
    for (let i = cells.length; i < this.columns.length; i++) cells.push(null);
    return cells;
  }

  /**
   * Every row from the first, in file order, in chunks of a few MB. `raw(chunk)` may give a test
   * of each row's bytes in that chunk, and a row it fails is not decoded (a search looks for its
   * term in the raw chunk first).
   */
  async scan(
    each: (row: DecodedRow) => void,
    o: {
      signal?: AbortSignal;
      raw?: (buf: Buffer) => (start: number, end: number) => boolean;
      count?: number;
      column?: number;
    } = {},
  ): Promise<void> {
    const column = o.column;
    // A sort or a profile needs one column: a CSV row's other cells are not decoded.
    const decode =
      column !== undefined && this.format === 'csv'
        ? (n: number, buf: Buffer, s: number, e: number): DecodedRow => {
            const problem = this.problems.get(n);
            const cells: Cell[] = [];
            if (problem === undefined) cells[column] = csvCellAt(buf, s, e, column);
            return { n, line: 0, cells, ...(problem !== undefined ? { problem } : {}) };
          }
        : (n: number, buf: Buffer, s: number, e: number): DecodedRow => this.decode(n, buf, s, e);
    await this.chunks((buf, first, last, from) => {
      const test = o.raw?.(buf);
      for (let i = first; i <= last; i++) {
        const s = this.index.start(i) - from;
        const e = this.index.stop(i) - from;
        if (test !== undefined && !test(s, e)) continue;
        each(decode(i, buf, s, e));
      }
    }, o);
  }

  /**
   * One column's cell of every row, in file order, and nothing else decoded (a CSV row's other
   * cells are skipped); a row with a problem gives null. With `bytes`, a CSV cell whose text is
   * its bytes is handed over as them (`bytes(n, buf, start, end)`) and not decoded at all.
   */
  async scanColumn(
    column: number,
    each: (n: number, cell: Cell) => void,
    o: {
      signal?: AbortSignal;
      count?: number;
      bytes?: (n: number, buf: Buffer, start: number, end: number) => void;
    } = {},
  ): Promise<void> {
    const bytes = this.format === 'csv' ? o.bytes : undefined;
    const at = { start: 0, end: 0 };
    await this.chunks((buf, first, last, from) => {
      for (let i = first; i <= last; i++) {
        const s = this.index.start(i) - from;
        const e = this.index.stop(i) - from;
        if (this.problems.size > 0 && this.problems.has(i)) each(i, null);
        else if (bytes !== undefined) {
          const found = csvCellRange(buf, s, e, column, at);
          if (found === CellRange.Bytes) bytes(i, buf, at.start, at.end);
          else each(i, found === CellRange.Missing ? null : csvCellAt(buf, s, e, column));
        } else
          each(
            i,
            this.format === 'csv' ? csvCellAt(buf, s, e, column) : (this.decode(i, buf, s, e).cells[column] ?? null),
          );
      }
    }, o);
  }

  /**
   * The numbers of the rows holding a hit of `hits` (`length` bytes, inside the row), in file order,
   * none decoded (a row with a problem never passes). The hits are walked, not the rows: a row
   * without one is never looked at, and the search goes on from the end of a row that has one.
   */
  async scanHits(
    hits: (buf: Buffer) => (from: number) => number,
    length: number,
    each: (n: number) => void,
    o: { signal?: AbortSignal; count?: number } = {},
  ): Promise<void> {
    await this.chunks((buf, first, last, from) => {
      const next = hits(buf);
      let row = first;
      for (let at = next(0); at >= 0;) {
        row = this.index.rowAt(from + at, row, last);
        const stop = this.index.stop(row) - from;
        const inside = at + length <= stop;
        if (inside && !this.problems.has(row)) each(row);
        at = next(inside ? stop : at + 1);
      }
    }, o);
  }

  /** Rows [0, count) a chunk of a few MB at a time: `each(buf, first, last, from)`, `from` the file offset of buf. */
  private async chunks(
    each: (buf: Buffer, first: number, last: number, from: number) => void,
    o: { signal?: AbortSignal; count?: number },
  ): Promise<void> {
    const count = o.count ?? this.count;
    let n = 0;
    while (n < count) {
      o.signal?.throwIfAborted();
      const from = this.index.start(n);
      let last = n;
      // As many whole rows as fit the chunk (at least one, however long).
      while (last + 1 < count && this.index.stop(last + 1) - from <= SCAN_CHUNK) last++;
      const buf = await this.read(from, this.index.stop(last) - from);
      each(buf, n, last, from);
      n = last + 1;
      // Let the extension host answer other messages between chunks.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  async close(): Promise<void> {
    await this.fh.close().catch(() => undefined);
  }
}
