/**
 * What a browser's session asks of the rows it shows, wherever they lie: a file of rows indexed
 * where it lies (`rowStore.ts`) or a table of an SQLite database read in the SQLite worker
 * (`sqliteTableStore.ts`). The page asks for windows of the view; nothing hands out every row.
 * No `vscode`.
 */
import type { DataRow } from '../../../api/schemas/dataSchemas';
import type { Cell } from './cells';
import type { ColumnProfile } from './columnProfile';
import type { DecodedRow } from './recordFile';
import type { RowFilter } from './rowFilter';
import type { Direction } from './sortOrder';

/** A sort and a filter (the row store's `ViewSpec`). */
export interface BrowseView {
  sort?: { column: number; direction: Direction };
  filter?: RowFilter;
}

export interface BrowseStore {
  readonly columns: readonly string[];
  /** Rows the view shows now. */
  readonly shown: number;
  /** Rows known so far (loaded, indexed or counted). */
  readonly loaded: number;
  /** Rows that could not be read. */
  readonly problems: number;
  /** Rows arrived after the view was made: it should be made again. */
  readonly stale: boolean;
  /** Sorts and filters; a later call cancels this one (which then rejects with an AbortError). */
  setView(spec: BrowseView): Promise<number>;
  window(from: number, count: number): Promise<DecodedRow[]>;
  /** One cell of the view, whole. */
  cell(place: number, column: number): Promise<Cell | undefined>;
  profile(column: number): Promise<ColumnProfile>;
  copyText(from: number, to: number, firstColumn: number, lastColumn: number): Promise<string>;
  viewRows(pageSize?: number, signal?: AbortSignal): AsyncGenerator<DataRow[]>;
  close(): Promise<void>;
}
