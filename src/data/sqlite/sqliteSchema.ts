/**
 * Whether a pull may write into a database: the schema it can vouch for (issue 44). A database in
 * a workspace may come from anyone; what its schema holds runs inside the pull's own transaction.
 * So, read from `sqlite_master` (never by running a view or a trigger) before every write:
 * - no trigger (it could delete or drop the rows a pull reports written), no view (a pull never
 *   reads one; a recursive one stalls whoever does), no virtual table (its module's code runs);
 * - every `_scrapedeck_…` object is one a pull makes, with exactly the SQL it makes it with, or
 *   SQLite's own index for its key; nothing else may be built on those tables.
 * Values in the catalog are checked where they are used (`sqliteTable.ts`). No `vscode`.
 */
import type { WasmDatabase } from './sqliteRuntime';

export const CATALOG_TABLES = [
  'CREATE TABLE IF NOT EXISTS "_scrapedeck_tables" (task_id TEXT PRIMARY KEY, table_name TEXT NOT NULL, task_name TEXT NOT NULL)',
  'CREATE TABLE IF NOT EXISTS "_scrapedeck_columns" (table_name TEXT NOT NULL, field TEXT NOT NULL, column_name TEXT NOT NULL, PRIMARY KEY (table_name, field))',
  'CREATE TABLE IF NOT EXISTS "_scrapedeck_pending" (task_id TEXT PRIMARY KEY, rows INTEGER NOT NULL, hash TEXT NOT NULL)',
];

/** The SQL SQLite keeps for each of our tables (it drops `IF NOT EXISTS`), by lower-case name. */
const OURS = new Map(
  CATALOG_TABLES.map((sql) => {
    const kept = sql.replace('CREATE TABLE IF NOT EXISTS ', 'CREATE TABLE ');
    return [/"([^"]+)"/.exec(kept)?.[1]?.toLowerCase() ?? '', kept];
  }),
);

export type SchemaProblem = 'trigger' | 'view' | 'virtual' | 'foreign';

/** A database whose schema a pull cannot vouch for: `what` is the object's kind, `name` its name. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(
    readonly problem: SchemaProblem,
    readonly object: string,
  ) {
    super(
      `the database holds ${problem === 'foreign' ? "an object named like Scrapedeck's own" : `a ${problem}`} (${object}), which a pull cannot vouch for`,
    );
  }
}

/** Names Scrapedeck reserves: SQLite's and its own. */
export const RESERVED_NAME = /^(sqlite_|_scrapedeck_)/i;

/** Throws a SchemaError for the first object a pull cannot vouch for. */
export function vetSchema(db: WasmDatabase): void {
  for (const row of db.all('SELECT type, name, tbl_name, sql FROM sqlite_master')) {
    const type = String(row.type);
    const name = String(row.name);
    const table = String(row.tbl_name);
    const sql = typeof row.sql === 'string' ? row.sql : undefined;
    if (type === 'trigger') throw new SchemaError('trigger', name);
    if (type === 'view') throw new SchemaError('view', name);
    if (type === 'table' && sql !== undefined && /^\s*CREATE\s+VIRTUAL\b/i.test(sql))
      throw new SchemaError('virtual', name);
    const ours = /^_scrapedeck_/i.test(name) || /^_scrapedeck_/i.test(table);
    if (!ours) continue;
    const expected = OURS.get(table.toLowerCase());
    const vouched =
      expected !== undefined &&
      (type === 'table'
        ? name === table && sql === expected
        : type === 'index' && sql === undefined && name.toLowerCase() === `sqlite_autoindex_${table.toLowerCase()}_1`);
    if (!vouched) throw new SchemaError('foreign', name);
  }
}
