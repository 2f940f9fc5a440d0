/**
 * The data browser's read session, run by the SQLite worker (`sqliteWorker.ts`; the host asks
 * through `sqliteThread.ts`, each step under its time limit). A database is opened read-only
 * (`openReadOnly`: nothing is written, nothing is made beside it; vetted and its tables listed in
 * `sqliteReadOpen.ts`) and read a window at a time:
 * - in table order by row id, keyset from remembered places (or from the end, backwards), so a
 *   window deep in a million rows does not count every row before it;
 * - sorted or filtered, once per view: the row ids in view order go into a temporary table in
 *   the worker's memory (its own row id is the place), and a window is a range of it;
 * - a table without row ids is read with LIMIT/OFFSET of the sorted, filtered query.
 * Only tables are offered: views are never run, triggers never fire (nothing writes), virtual
 * tables (their module's code) and SQLite's and Scrapedeck's own tables are left out. No `vscode`.
 */
import { byteTerm, searchFile, tableAsStored } from './sqliteFileSearch';
import { asReadError, openForReading, SqliteReadError } from './sqliteReadOpen';
import { profileOf, type ReadProfile } from './sqliteReadProfile';
import { emptyOf, keyOf, kindOfColumn, quoteName, type ReadFilter, shownOf, whereOf } from './sqliteReadSql';
import type { WasmDatabase } from './sqliteRuntime';
import { keysOf, type ReadKeys, readKeys } from './sqliteSortKeys';

export { type ReadProblem, SqliteReadError } from './sqliteReadOpen';
export type { ReadProfile } from './sqliteReadProfile';
export type { ReadKeys } from './sqliteSortKeys';

export type ReadCell = string | number | null;
export interface ReadRow {
  /** The row id less one (the grid shows the row id), or the place for a table without row ids. */
  n: number;
  cells: ReadCell[];
}

export type ReadRequest =
  | { op: 'table'; table: string }
  | { op: 'count'; atMost?: number }
  | { op: 'window'; from: number; count: number; cut?: number }
  | { op: 'view'; sort?: { column: number; direction: 'asc' | 'desc' }; filter?: ReadFilter }
  /** A sort's keys and the filter's row ids (undefined: a table without row ids, asked with `view`). */
  | { op: 'keys'; column?: number; filter?: ReadFilter }
  /** Rows by row id, in the order asked (a view the host holds). */
  | { op: 'rows'; ids: number[]; cut?: number }
  | { op: 'profile'; column: number }
  | { op: 'close' };

/** Places remembered with their row id, one every this many rows. */
const EVERY = 1000;

export class SqliteReader {
  private table = '';
  private columns: string[] = [];
  /** The row id's name here (undefined: a table without row ids). */
  private rowid: string | undefined;
  private total: number | undefined;
  private marks = new Map<number, number>();
  private where: { sql: string; params: string[] } = { sql: '1', params: [] };
  private order = '';
  /** Rows in the view: the temporary table's, or the filtered query's; undefined: every row, in table order. */
  private shown: number | undefined;
  /** The row ids the filter of the last `keys` passed (the host holds their order), put in the temporary table for a profile. */
  private passed: Float64Array | undefined;

  private constructor(
    private readonly db: WasmDatabase,
    private readonly closeDb: () => void,
    readonly tables: string[],
    /** A pulled database's tasks and their tables (`_scrapedeck_tables`), for the task's table first. */
    readonly taskTables: Record<string, string>,
    /** The database's path, for a search of its bytes. */
    private readonly file: string,
  ) {}

  static open(wasmDir: string, file: string): SqliteReader {
    const opened = openForReading(wasmDir, file);
    return new SqliteReader(opened.db, opened.close, opened.tables, opened.taskTables, file);
  }

  handle(request: ReadRequest): unknown {
    try {
      switch (request.op) {
        case 'table':
          return this.choose(request.table);
        case 'count':
          return this.count(request.atMost);
        case 'window':
          return this.window(request.from, request.count, request.cut);
        case 'view':
          return this.view(request.sort, request.filter);
        case 'keys':
          return this.keys(request.column, request.filter);
        case 'rows':
          return this.rows(request.ids, request.cut);
        case 'profile':
          return this.profile(request.column);
        case 'close':
          this.closeDb();
          return undefined;
      }
    } catch (error) {
      throw asReadError(error);
    }
  }

  private get from(): string {
    return `main.${quoteName(this.table)}`;
  }

  private choose(table: string): { columns: string[] } {
    if (!this.tables.includes(table)) throw new SqliteReadError('no-table', `there is no table ${table} to read`);
    this.table = table;
    this.columns = this.db.all(`PRAGMA main.table_info(${quoteName(table)})`).map((r) => String(r.name));
    const taken = new Set(this.columns.map((c) => c.toLowerCase()));
    this.rowid = ['rowid', '_rowid_', 'oid'].find((alias) => {
      if (taken.has(alias)) return false;
      try {
        this.db.get(`SELECT ${alias} FROM ${this.from} LIMIT 1`);
        return true;
      } catch {
        return false; // WITHOUT ROWID
      }
    });
    this.total = undefined;
    this.marks = new Map([[0, Number.MIN_SAFE_INTEGER]]);
    this.db.exec('DROP TABLE IF EXISTS temp.sd_view');
    this.where = { sql: '1', params: [] };
    this.order = '';
    this.shown = undefined;
    this.passed = undefined;
    return { columns: this.columns };
  }

  private count(atMost?: number): number {
    if (atMost !== undefined)
      return Number(this.db.get(`SELECT count(*) AS n FROM (SELECT 1 FROM ${this.from} LIMIT ?)`, [atMost])?.n ?? 0);
    this.total = Number(this.db.get(`SELECT count(*) AS n FROM ${this.from}`)?.n ?? 0);
    return this.total;
  }

  private select(cut: number | undefined, prefix = ''): string {
    return this.columns.map((c, i) => `${shownOf(prefix + quoteName(c), cut)} AS c${i}`).join(', ') || 'NULL AS c0';
  }

  private rowOf(r: Record<string, unknown>, place: number): ReadRow {
    const cells: ReadCell[] = this.columns.map((_, i) => {
      const v = r[`c${i}`];
      return typeof v === 'bigint' ? v.toString() : typeof v === 'number' || typeof v === 'string' ? v : null;
    });
    const id = r.r;
    return { n: typeof id === 'number' && Number.isSafeInteger(id) && id >= 1 ? id - 1 : place, cells };
  }

  private window(from: number, count: number, cut?: number): ReadRow[] {
    if (this.rowid === undefined) {
      const q = `SELECT ${this.select(cut)} FROM ${this.from} WHERE (${this.where.sql})${this.order ? ` ORDER BY ${this.order}` : ''} LIMIT ? OFFSET ?`;
      return this.db.all(q, [...this.where.params, count, from]).map((r, i) => this.rowOf(r, from + i));
    }
    const id = this.rowid;
    if (this.shown !== undefined) {
      const q = `SELECT t.${id} AS r, ${this.select(cut, 't.')} FROM temp.sd_view AS v CROSS JOIN ${this.from} AS t ON t.${id} = v.r WHERE v.rowid > ? AND v.rowid <= ? ORDER BY v.rowid`;
      return this.db.all(q, [from, from + count]).map((r, i) => this.rowOf(r, from + i));
    }
    const total = this.total;
    if (total !== undefined && from > total / 2) {
      // Near the end: backwards from the last row.
      const k = Math.max(0, Math.min(count, total - from));
      const q = `SELECT ${id} AS r, ${this.select(cut)} FROM ${this.from} ORDER BY ${id} DESC LIMIT ? OFFSET ?`;
      return this.db
        .all(q, [k, total - from - k])
        .reverse()
        .map((r, i) => this.rowOf(r, from + i));
    }
    let at = 0;
    for (const place of this.marks.keys()) if (place <= from && place > at) at = place;
    const q = `SELECT ${id} AS r, ${this.select(cut)} FROM ${this.from} WHERE ${id} >= ? ORDER BY ${id} LIMIT ? OFFSET ?`;
    const rows = this.db.all(q, [this.marks.get(at) ?? Number.MIN_SAFE_INTEGER, count, from - at]);
    rows.forEach((r, i) => {
      if ((from + i) % EVERY === 0 && typeof r.r === 'number') this.marks.set(from + i, r.r);
    });
    return rows.map((r, i) => this.rowOf(r, from + i));
  }

  private keys(column: number | undefined, filter: ReadFilter | undefined): ReadKeys | undefined {
    if (this.rowid === undefined) return undefined;
    this.where = whereOf(filter, this.columns);
    this.order = '';
    this.shown = undefined;
    this.passed = undefined;
    this.db.exec('DROP TABLE IF EXISTS temp.sd_view');
    const name = column === undefined ? undefined : this.columns[column];
    const c = name === undefined ? undefined : quoteName(name);
    const found = this.searched(filter);
    const keys =
      found === undefined
        ? readKeys(this.db, this.from, this.rowid, c, this.where)
        : c === undefined
          ? { ids: found, kind: 'empty' as const }
          : keysOf(readKeys(this.db, this.from, this.rowid, c, { sql: '1', params: [] }), found);
    if (this.where.sql !== '1') this.passed = keys.ids;
    return keys;
  }

  /** The rows a search alone finds by the file's bytes (`sqliteFileSearch.ts`); undefined: SQL searches. */
  private searched(filter: ReadFilter | undefined): Float64Array | undefined {
    const term = byteTerm(filter);
    const root = term === undefined ? undefined : tableAsStored(this.db, this.table, quoteName(this.table));
    if (term === undefined || root === undefined || this.rowid === undefined) return undefined;
    const id = this.rowid;
    const check = (ids: number[]): number[] =>
      this.db
        .all(
          `SELECT ${id} AS r FROM ${this.from} WHERE ${id} IN (${ids.map(() => '?').join(', ')}) AND (${this.where.sql})`,
          [...ids, ...this.where.params],
        )
        .map((r) => Number(r.r));
    return searchFile(this.file, root, term, check);
  }

  private rows(ids: readonly number[], cut: number | undefined): ReadRow[] {
    const id = this.rowid;
    if (id === undefined || ids.length === 0) return [];
    const q = `SELECT ${id} AS r, ${this.select(cut)} FROM ${this.from} WHERE ${id} IN (${ids.map(() => '?').join(', ')})`;
    const found = new Map(this.db.all(q, [...ids]).map((r) => [Number(r.r), r]));
    return ids.flatMap((n, i) => {
      const r = found.get(n);
      return r === undefined ? [] : [this.rowOf(r, i)];
    });
  }

  /** The temporary table of the row ids a `keys` filter passed, made when a profile first needs it. */
  private filled(): boolean {
    const ids = this.passed;
    if (ids === undefined) return this.shown !== undefined;
    this.passed = undefined;
    this.db.exec('DROP TABLE IF EXISTS temp.sd_view; CREATE TEMP TABLE sd_view (r INTEGER)');
    const BATCH = 500;
    const full = this.db.prepare(`INSERT INTO temp.sd_view (r) VALUES ${'(?), '.repeat(BATCH - 1)}(?)`);
    try {
      let at = 0;
      for (; at + BATCH <= ids.length; at += BATCH) full.run(Array.from(ids.subarray(at, at + BATCH)));
      const rest = Array.from(ids.subarray(at));
      if (rest.length > 0) this.db.run(`INSERT INTO temp.sd_view (r) VALUES ${rest.map(() => '(?)').join(', ')}`, rest);
    } finally {
      full.finalize();
    }
    this.shown = ids.length;
    return true;
  }

  private view(
    sort: { column: number; direction: 'asc' | 'desc' } | undefined,
    filter: ReadFilter | undefined,
  ): number {
    this.passed = undefined;
    this.where = whereOf(filter, this.columns);
    const name = sort === undefined ? undefined : this.columns[sort.column];
    this.order = '';
    if (name !== undefined && sort !== undefined) {
      const c = quoteName(name);
      const kind = kindOfColumn(this.db, this.from, c, this.where);
      this.order = `${emptyOf(c)}, ${keyOf(c, kind)} ${sort.direction === 'desc' ? 'DESC' : 'ASC'}`;
    }
    const id = this.rowid;
    if (id === undefined) {
      this.shown = Number(
        this.db.get(`SELECT count(*) AS n FROM ${this.from} WHERE (${this.where.sql})`, this.where.params)?.n ?? 0,
      );
      return this.shown;
    }
    this.db.exec('DROP TABLE IF EXISTS temp.sd_view');
    if (this.order === '' && this.where.sql === '1') {
      this.shown = undefined;
      return this.count();
    }
    this.db.exec('CREATE TEMP TABLE sd_view (r INTEGER)');
    const order = this.order === '' ? id : `${this.order}, ${id}`;
    this.shown = this.db.run(
      `INSERT INTO temp.sd_view (r) SELECT ${id} FROM ${this.from} WHERE (${this.where.sql}) ORDER BY ${order}`,
      this.where.params,
    ).changes;
    return this.shown;
  }

  /**
   * Aggregates over the rows the view shows: from its row ids when it has them (the filter is
   * not run again), else through the filter. The kind (one or two passes), then one pass for the
   * counts and bounds, one for the values grouped (distinct and most common) into a temporary table.
   */
  private profile(column: number): ReadProfile {
    const name = this.columns[column];
    if (name === undefined) return { kind: 'empty', rows: 0, empty: 0, distinct: 0, common: [] };
    const c = `t.${quoteName(name)}`;
    const viewed = this.rowid !== undefined && this.where.sql !== '1' && this.filled();
    const from = viewed
      ? `temp.sd_view AS v CROSS JOIN ${this.from} AS t ON t.${this.rowid ?? 'rowid'} = v.r`
      : `${this.from} AS t`;
    const { sql, params } = viewed ? { sql: '1', params: [] } : this.where;
    return profileOf(this.db, from, c, { sql, params });
  }
}
