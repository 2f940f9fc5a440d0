/**
 * One task's rows as one SQLite table: named from the task, one column per field (a field first
 * seen later becomes a new column), values stored as the service sent them. No `vscode`.
 *
 * - Columns are declared without a type, so SQLite keeps each value's own: text stays text
 *   (`'007'` is not turned into 7), numbers are INTEGER or REAL, true/false are 1/0 (SQLite has
 *   no boolean), a missing or null value is NULL.
 * - Names: the task's name (control characters dropped, at most 100 characters; never SQLite's
 *   own `sqlite_` names nor Scrapedeck's `_scrapedeck_`), with " (2)", " (3)"… when a table of
 *   that name exists already. Fields map to columns the same way (SQLite names ignore case, so
 *   `Price` and `price` need two names). Every identifier is quoted, so any text is a safe name.
 * - With a `catalog` (a database pulled into), the task's table and its field → column map are
 *   kept in `_scrapedeck_tables` and `_scrapedeck_columns`, so later pulls find them; an export
 *   writes only the task's table.
 */
import type { DataRow, DataValue } from '../../api/schemas/dataSchemas';
import type { TaskRef } from '../../api/taskRef';
import type { WasmDatabase } from './sqliteRuntime';
import { RESERVED_NAME, SchemaError } from './sqliteSchema';

/** SQLite's default limit of columns in a table. */
export const MAX_COLUMNS = 2000;

export class TooManyColumnsError extends Error {
  override readonly name = 'TooManyColumnsError';
  constructor(readonly fields: number) {
    super(`the rows have ${fields} fields; an SQLite table holds at most ${MAX_COLUMNS} columns`);
  }
}

export function quoteName(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A table or column name from a task's or field's name. */
export function cleanName(name: string, fallback: string): string {
  const cleaned = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100);
  const base = cleaned === '' ? fallback : (sqlValue(cleaned) as string);
  return RESERVED_NAME.test(base) ? `${fallback} ${base}` : base;
}

/** The first of `base`, `base (2)`, `base (3)`… that `taken` (lower case) does not hold. */
export function freeName(base: string, taken: ReadonlySet<string>): string {
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} (${n})`;
  return name;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A value as SQLite stores it. Half a surrogate pair is not UTF-8: it becomes U+FFFD, as in every UTF-8 file Scrapedeck writes. */
export function sqlValue(value: DataValue | undefined): string | number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value;
}

export class TaskTable {
  private readonly columns = new Map<string, string>();
  private created: boolean;
  private insert: { sql: string; fields: string[] } | undefined;

  private constructor(
    private readonly db: WasmDatabase,
    readonly name: string,
    private readonly catalog: boolean,
    existing: boolean,
  ) {
    this.created = existing;
  }

  /**
   * The task's table in `db`: the catalog's (with `catalog`), or a new name (created with the
   * first rows). Call inside the transaction that writes the first rows.
   */
  static forTask(db: WasmDatabase, task: TaskRef, catalog: boolean): TaskTable {
    if (catalog) {
      const known = db.get('SELECT table_name FROM "_scrapedeck_tables" WHERE task_id = ?', [task.taskId]);
      const name = typeof known?.table_name === 'string' ? known.table_name : undefined;
      // The catalog is the database's: it may not point the rows into SQLite's or Scrapedeck's own tables.
      if (name !== undefined && RESERVED_NAME.test(name)) throw new SchemaError('foreign', name);
      if (name !== undefined && tableExists(db, name)) {
        const table = new TaskTable(db, name, true, true);
        for (const row of db.all('SELECT field, column_name FROM "_scrapedeck_columns" WHERE table_name = ?', [name])) {
          if (typeof row.field === 'string' && typeof row.column_name === 'string')
            table.columns.set(row.field, row.column_name);
        }
        return table;
      }
    }
    const taken = new Set(
      db.all("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").map((r) => String(r.name).toLowerCase()),
    );
    const name = freeName(cleanName(task.taskName, 'task'), taken);
    const table = new TaskTable(db, name, catalog, false);
    if (catalog)
      db.run('INSERT OR REPLACE INTO "_scrapedeck_tables" (task_id, table_name, task_name) VALUES (?, ?, ?)', [
        task.taskId,
        name,
        task.taskName,
      ]);
    return table;
  }

  /** Inserts the rows, creating the table or adding columns for new fields first. */
  insertRows(rows: readonly DataRow[], midway?: () => void): void {
    this.learn(rows);
    const fields = [...this.columns.keys()];
    if (this.insert === undefined || this.insert.fields.length !== fields.length) {
      const names = fields.map((f) => quoteName(this.columns.get(f) as string));
      const values =
        fields.length === 0 ? 'DEFAULT VALUES' : `(${names.join(', ')}) VALUES (${fields.map(() => '?').join(', ')})`;
      // OR ABORT: a conflict clause the table was created with (ON CONFLICT IGNORE, REPLACE) never drops or replaces a row.
      this.insert = { sql: `INSERT OR ABORT INTO ${quoteName(this.name)} ${values}`, fields };
    }
    const statement = this.db.prepare(this.insert.sql);
    try {
      const half = rows.length >> 1;
      rows.forEach((row, i) => {
        if (i === half) midway?.();
        const { changes } = statement.run(fields.length === 0 ? undefined : fields.map((f) => sqlValue(row[f])));
        if (changes !== 1) throw new Error(`SQLite inserted ${changes} rows for one into ${this.name}`);
      });
    } finally {
      statement.finalize();
    }
  }

  /**
   * Whether the table's last rows (by rowid) are `rows`, value for value: how a pull checks that a
   * batch its record calls written really is in the table, instead of taking the record's word.
   */
  holdsLast(rows: readonly DataRow[]): boolean {
    if (!this.created || rows.length === 0) return false;
    const fields = [...this.columns.keys()];
    if (rows.some((row) => Object.keys(row).some((f) => !this.columns.has(f)))) return false;
    const names =
      fields.length === 0 ? 'rowid' : fields.map((f) => quoteName(this.columns.get(f) as string)).join(', ');
    const stored = this.db
      .all(`SELECT ${names} FROM ${quoteName(this.name)} ORDER BY rowid DESC LIMIT ?`, [rows.length])
      .reverse();
    if (stored.length !== rows.length) return false;
    return rows.every((row, i) =>
      fields.every((f) => same(stored[i]?.[this.columns.get(f) as string], sqlValue(row[f]))),
    );
  }

  private learn(rows: readonly DataRow[]): void {
    const added: string[] = [];
    for (const row of rows)
      for (const field of Object.keys(row)) if (!this.columns.has(field) && !added.includes(field)) added.push(field);
    if (this.columns.size + added.length > MAX_COLUMNS) throw new TooManyColumnsError(this.columns.size + added.length);
    if (added.length === 0 && this.created) return;
    // Every column the table has (a user's own ones included), and those mapped already.
    const present = this.created
      ? this.db.all(`PRAGMA table_info(${quoteName(this.name)})`).map((r) => String(r.name))
      : [];
    const taken = new Set([...present, ...this.columns.values()].map((c) => c.toLowerCase()));
    for (const field of added) {
      const column = freeName(cleanName(field, 'column'), taken);
      taken.add(column.toLowerCase());
      this.columns.set(field, column);
      if (this.created) this.db.exec(`ALTER TABLE ${quoteName(this.name)} ADD COLUMN ${quoteName(column)}`);
      if (this.catalog)
        this.db.run('INSERT OR REPLACE INTO "_scrapedeck_columns" (table_name, field, column_name) VALUES (?, ?, ?)', [
          this.name,
          field,
          column,
        ]);
    }
    if (!this.created) {
      const names = [...this.columns.values()].map(quoteName);
      this.db.exec(
        `CREATE TABLE ${quoteName(this.name)} (${names.length > 0 ? names.join(', ') : quoteName('column')})`,
      );
      this.created = true;
    }
  }
}

function same(stored: unknown, sent: string | number | null): boolean {
  if (typeof stored === 'bigint')
    return typeof sent === 'number' && BigInt(Math.trunc(sent)) === stored && Number.isInteger(sent);
  return stored === sent || (stored === undefined && sent === null);
}

function tableExists(db: WasmDatabase, name: string): boolean {
  return (
    db.get("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", [name]) !==
    undefined
  );
}
