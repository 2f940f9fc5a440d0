/**
 * A table of an SQLite database as a browser's rows: every step is a request to the SQLite
 * worker (`data/sqlite/sqliteReader.ts`, under the worker's time limit), never SQLite on this
 * thread. This side holds the column names, the counts and a view's row ids in order (8 bytes a
 * row): the worker reads a sort's keys and the filter's rows in one pass, they are ranked here
 * with the file store's radix sorts, and a window is asked for by its row ids. The worker answers
 * cells and profiles with SQL (and holds the view of a table without row ids). No `vscode`.
 */
import type { DataRow } from '../../../api/schemas/dataSchemas';
import { type ReadKeys, type ReadProfile, type ReadRow, SqliteReadError } from '../../sqlite/sqliteReader';
import { SqliteThread } from '../../sqlite/sqliteThread';
import { CUT_CHARS } from '../protocol';
import type { BrowseStore, BrowseView } from './browseStore';
import { type Cell, cellText } from './cells';
import { orderByRanks } from './columnKeys';
import type { ColumnProfile } from './columnProfile';
import type { ColumnKeys } from './keyRanks';
import { numberRanks } from './numberRanks';
import type { DecodedRow } from './recordFile';
import { isNoFilter } from './rowFilter';
import { MAX_WINDOW } from './rowStore';
import { TextKeys, textRanks } from './textRanks';

export interface SqliteOpenOptions {
  /** Where node-sqlite3-wasm's files are. */
  wasmDir: string;
  timeLimitMs?: number;
  /** Which of the database's tables to show (undefined: none, nothing is opened); `taskTables`: a pulled database's task → table. */
  choose(
    tables: readonly string[],
    taskTables: Readonly<Record<string, string>>,
  ): Promise<string | undefined> | string | undefined;
}

/**
 * A read step's limit: longer than a pull's (30 s), since a sort or profile reads the whole table
 * and a large one takes seconds a pass on a busy machine; a step of a table that could never end
 * (a view, a trigger) is never run (`sqliteReader.ts`), so this ends only a file too large to sort.
 */
export const READ_TIME_LIMIT_MS = 120_000;

/** How long the count of every row waits for the page's first window (`load`). */
export const FIRST_WINDOW_WAIT_MS = 2_000;

const decoder = new TextDecoder();

function textKeys({ bytes, ends }: { bytes: Uint8Array; ends: Uint32Array }): TextKeys {
  const keys = new TextKeys(ends.length);
  for (let i = 0, start = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    if (end > start && !keys.setAscii(i, bytes, start, end)) {
      const cell = decoder.decode(bytes.subarray(start, end));
      // Only white space in the bytes kept, not in the cell (the worker left empties out): not empty.
      keys.setText(i, cell.trim() === '' ? `${cell}.` : cell);
    }
    start = end;
  }
  return keys;
}

/**
 * Row ids in view order from the keys the worker read (`data/sqlite/sqliteSortKeys.ts`): ranked by
 * the file store's own radix sorts and ordered by rank, so a table sorts as a file does (stable,
 * numbers as numbers, dates as dates, text case folded and cut at 64 characters, empties last in
 * both directions); without a sort, in table order.
 */
function viewOrder(keys: ReadKeys, direction: 'asc' | 'desc' | undefined): Float64Array {
  const { ids } = keys;
  let ranks: ColumnKeys | undefined;
  if (direction !== undefined && keys.numbers !== undefined && (keys.kind === 'number' || keys.kind === 'date'))
    ranks = numberRanks(keys.numbers, keys.kind);
  else if (direction !== undefined && keys.text !== undefined) {
    const made = textKeys(keys.text);
    // The bytes as they came (up to 64 MB for a million long cells) are not kept while ranking.
    keys.text = undefined;
    ranks = textRanks(made, 'text');
  }
  if (ranks === undefined) return ids;
  const order = orderByRanks(ranks, direction ?? 'asc');
  const out = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = ids[order[i] as number] as number;
  return out;
}

const abortError = (): Error => Object.assign(new Error('A newer view replaced this one.'), { name: 'AbortError' });

export class SqliteTableStore implements BrowseStore {
  private known = 0;
  /** Rows in the sorted or filtered view; undefined: every row. */
  private inView: number | undefined;
  /** The view's row ids in order (8 bytes a row), when the table has row ids; else the worker holds the view. */
  private ids: Float64Array | undefined;
  private generation = 0;

  private constructor(
    private readonly thread: SqliteThread,
    readonly table: string,
    readonly columns: readonly string[],
  ) {}

  /** Opens the database read-only in a worker and the table `choose` picks; undefined when none is picked. */
  static async open(file: string, o: SqliteOpenOptions): Promise<SqliteTableStore | undefined> {
    const { thread, tables, taskTables } = await SqliteThread.openReader(file, {
      wasmDir: o.wasmDir,
      timeLimitMs: o.timeLimitMs ?? READ_TIME_LIMIT_MS,
    });
    try {
      if (tables.length === 0) throw new SqliteReadError('no-table', 'the database has no table to browse');
      const table = await o.choose(tables, taskTables);
      if (table === undefined) {
        await thread.closeReader();
        return undefined;
      }
      const { columns } = (await thread.query({ op: 'table', table })) as { columns: string[] };
      return new SqliteTableStore(thread, table, columns);
    } catch (error) {
      await thread.closeReader().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Counts the rows: the first screenful at once (so the page can ask for it), then all of them.
   * The worker answers one request at a time and counting every row reads the whole table (about
   * a second at a million rows), so with `firstWindowWaitMs` the count waits until the page's first
   * window was answered, or that long at most. A table of one screenful or less is counted already.
   */
  async load(onProgress: (loaded: number) => void, o: { firstWindowWaitMs?: number } = {}): Promise<number> {
    this.known = (await this.thread.query({ op: 'count', atMost: MAX_WINDOW + 1 })) as number;
    onProgress(this.known);
    if (this.known <= MAX_WINDOW) return this.known;
    if ((o.firstWindowWaitMs ?? 0) > 0) await this.firstWindow(o.firstWindowWaitMs ?? 0);
    this.known = (await this.thread.query({ op: 'count' })) as number;
    onProgress(this.known);
    return this.known;
  }

  private windowed = false;
  private onWindow: (() => void) | undefined;

  private firstWindow(ms: number): Promise<void> {
    if (this.windowed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.onWindow = done;
    });
  }

  get loaded(): number {
    return this.known;
  }

  get problems(): number {
    return 0;
  }

  get shown(): number {
    return this.inView ?? this.known;
  }

  get stale(): boolean {
    return false;
  }

  async setView(spec: BrowseView): Promise<number> {
    const mine = ++this.generation;
    const sort = spec.sort !== undefined && spec.sort.column < this.columns.length ? spec.sort : undefined;
    const filter = isNoFilter(spec.filter) ? undefined : spec.filter;
    if (sort !== undefined || filter !== undefined) {
      // The worker reads the keys in one pass; they are ranked here, as a file's are.
      const keys = (await this.thread.query({ op: 'keys', column: sort?.column, filter })) as ReadKeys | undefined;
      if (mine !== this.generation) throw abortError();
      if (keys !== undefined) {
        this.ids = viewOrder(keys, sort?.direction);
        this.inView = this.ids.length;
        return this.inView;
      }
    }
    this.ids = undefined;
    const shown = (await this.thread.query({ op: 'view', sort, filter })) as number;
    if (mine !== this.generation) throw abortError();
    this.inView = sort === undefined && filter === undefined ? undefined : shown;
    if (this.inView === undefined) this.known = shown;
    return shown;
  }

  private async rows(from: number, count: number, whole: boolean): Promise<DecodedRow[]> {
    const n = Math.min(count, MAX_WINDOW, this.shown - from);
    if (n <= 0 || from < 0) return [];
    const cut = whole ? {} : { cut: CUT_CHARS + 1 };
    const ids = this.ids;
    const rows =
      ids !== undefined
        ? ((await this.thread.query({
            op: 'rows',
            ids: Array.from(ids.subarray(from, from + n)),
            ...cut,
          })) as ReadRow[])
        : ((await this.thread.query({ op: 'window', from, count: n, ...cut })) as ReadRow[]);
    this.windowed = true;
    this.onWindow?.();
    this.onWindow = undefined;
    return rows.map((r) => ({ n: r.n, line: r.n + 1, cells: r.cells }));
  }

  window(from: number, count: number): Promise<DecodedRow[]> {
    return this.rows(from, count, false);
  }

  async cell(place: number, column: number): Promise<Cell | undefined> {
    const [row] = await this.rows(place, 1, true);
    return row?.cells[column];
  }

  async profile(column: number): Promise<ColumnProfile> {
    const p = (await this.thread.query({ op: 'profile', column })) as ReadProfile;
    return { ...p, column: this.columns[column] ?? '', distinctAtLeast: false };
  }

  async copyText(from: number, to: number, firstColumn: number, lastColumn: number): Promise<string> {
    const lines: string[] = [];
    for (let at = from; at <= to; at += MAX_WINDOW) {
      for (const row of await this.rows(at, Math.min(MAX_WINDOW, to - at + 1), true)) {
        const cells: string[] = [];
        for (let c = firstColumn; c <= lastColumn; c++) cells.push(cellText(row.cells[c]).replace(/[\t\r\n]+/g, ' '));
        lines.push(cells.join('\t'));
      }
    }
    return lines.join('\n');
  }

  async *viewRows(pageSize = MAX_WINDOW, signal?: AbortSignal): AsyncGenerator<DataRow[]> {
    const shown = this.shown;
    const step = Math.min(pageSize, MAX_WINDOW);
    for (let at = 0; at < shown; at += step) {
      signal?.throwIfAborted();
      const rows = await this.rows(at, step, true);
      yield rows.map((r) => Object.fromEntries(this.columns.map((name, i) => [name, r.cells[i] ?? null])));
    }
  }

  async close(): Promise<void> {
    await this.thread.closeReader();
  }
}
