/**
 * The rows a browser shows, where they lie (a RecordFile), and the view over them: the sort and
 * the filter as one typed array of row numbers, computed on demand; the page asks for the
 * window it shows (`window(from, count)`), never for every row. A newer sort or filter cancels
 * the one under way. No `vscode`.
 */
import type { DataRow } from '../../../api/schemas/dataSchemas';
import type { BrowseStore } from './browseStore';
import { type Cell, cellText } from './cells';
import { type ColumnProfile, profileColumn } from './columnProfile';
import { KeyCache } from './keyCache';
import type { DecodedRow, RecordFile } from './recordFile';
import { filterRows, isNoFilter, type RowFilter } from './rowFilter';
import { type Direction, sortColumn } from './sortOrder';

export interface SortSpec {
  column: number;
  direction: Direction;
}

export interface ViewSpec {
  sort?: SortSpec;
  filter?: RowFilter;
}

/** Rows a window may hold (the page shows a screenful and a margin). */
export const MAX_WINDOW = 500;

export class RowStore implements BrowseStore {
  /** Row numbers in view order; undefined: every row in file order. */
  private view: Uint32Array | undefined;
  /** Rows there were when the view was computed (rows loaded later are not in it until it is again). */
  private viewCount = 0;
  private spec: ViewSpec = {};
  private running: AbortController | undefined;
  /** Sort keys of the columns sorted lately: sorting one again does not read the file. */
  readonly keys = new KeyCache();

  constructor(readonly file: RecordFile) {}

  get columns(): readonly string[] {
    return this.file.columns;
  }

  get loaded(): number {
    return this.file.count;
  }

  get problems(): number {
    return this.file.problemCount;
  }

  /** Rows the view shows now. */
  get shown(): number {
    return this.view === undefined ? this.file.count : this.view.length;
  }

  /** Rows loaded after the view was computed: it should be computed again. */
  get stale(): boolean {
    return this.view !== undefined && this.file.count > this.viewCount;
  }

  get viewSpec(): ViewSpec {
    return this.spec;
  }

  /** Sorts and filters every row loaded so far; a later call cancels this one (which then rejects with an AbortError). */
  async setView(spec: ViewSpec): Promise<number> {
    this.running?.abort();
    const job = new AbortController();
    this.running = job;
    const count = this.file.count;
    const column = spec.sort?.column;
    const sort =
      spec.sort !== undefined && column !== undefined && column < this.columns.length ? spec.sort : undefined;
    // Keys made from the file as it was are no keys of the file as it is.
    if (sort && (await this.file.changed())) this.keys.clear();
    let order = sort
      ? (await sortColumn(this.file, sort.column, sort.direction, job.signal, count, this.keys)).order
      : undefined;
    if (!isNoFilter(spec.filter))
      order = await filterRows(this.file, spec.filter ?? {}, { order, signal: job.signal, count });
    job.signal.throwIfAborted();
    this.view = order;
    this.viewCount = count;
    this.spec = { sort, filter: isNoFilter(spec.filter) ? undefined : spec.filter };
    if (this.running === job) this.running = undefined;
    return this.shown;
  }

  /** The row numbers at these places of the view. */
  private numbersAt(from: number, count: number): number[] {
    const to = Math.min(this.shown, from + count);
    const out: number[] = [];
    for (let i = Math.max(0, from); i < to; i++) out.push(this.view === undefined ? i : (this.view[i] as number));
    return out;
  }

  async window(from: number, count: number): Promise<DecodedRow[]> {
    return this.file.rows(this.numbersAt(from, Math.min(count, MAX_WINDOW)));
  }

  /** One cell, whole. */
  async cell(place: number, column: number): Promise<Cell | undefined> {
    const [row] = await this.file.rows(this.numbersAt(place, 1));
    return row?.cells[column];
  }

  async profile(column: number, signal?: AbortSignal): Promise<ColumnProfile> {
    return profileColumn(this.file, column, {
      rows: this.view,
      signal,
      count: this.view === undefined ? this.file.count : this.viewCount,
    });
  }

  /** Tab-separated text of a block of the view (a cell, a row, a selection), tabs and breaks in cells made spaces. */
  async copyText(from: number, to: number, firstColumn: number, lastColumn: number): Promise<string> {
    const lines: string[] = [];
    for (let at = from; at <= to; at += MAX_WINDOW) {
      for (const row of await this.file.rows(this.numbersAt(at, Math.min(MAX_WINDOW, to - at + 1)))) {
        const cells: string[] = [];
        for (let c = firstColumn; c <= lastColumn; c++) cells.push(cellText(row.cells[c]).replace(/[\t\r\n]+/g, ' '));
        lines.push(cells.join('\t'));
      }
    }
    return lines.join('\n');
  }

  /** The rows the view shows, as the writers take them, a page at a time (rows that could not be read are left out). */
  async *viewRows(pageSize = 1000, signal?: AbortSignal): AsyncGenerator<DataRow[]> {
    const shown = this.shown;
    for (let at = 0; at < shown; at += pageSize) {
      signal?.throwIfAborted();
      const rows = await this.file.rows(this.numbersAt(at, pageSize));
      yield rows.filter((r) => r.problem === undefined).map((r) => toDataRow(this.columns, r.cells));
    }
  }

  async close(): Promise<void> {
    this.running?.abort();
    this.keys.clear();
    await this.file.close();
  }
}

function toDataRow(columns: readonly string[], cells: readonly Cell[]): DataRow {
  const row: DataRow = {};
  columns.forEach((name, i) => {
    row[name] = cells[i] ?? null;
  });
  return row;
}
