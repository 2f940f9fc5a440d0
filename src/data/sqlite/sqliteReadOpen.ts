/**
 * Opening a database for the data browser's read session (`sqliteReader.ts`, split from it to keep
 * each file small): the file vetted first (SQLite's header, no log, journal or writer's lock beside
 * it, no link), opened read-only, its tables listed (no SQLite's or Scrapedeck's own, no virtual
 * table or its shadow tables) with a pull's catalog of task tables; and SQLite's own words for a
 * damaged or locked file turned into a problem the browser words for the user. No `vscode`.
 */
import * as fs from 'node:fs';

import { sideFilesBeside } from './sqliteFiles';
import { addReadFunctions } from './sqliteReadSql';
import { openReadOnly, type WasmDatabase } from './sqliteRuntime';

/** Why a database is not read: not SQLite, another program writing it, locked, damaged, or no such table. */
export type ReadProblem = 'not-sqlite' | 'in-use' | 'locked' | 'damaged' | 'no-table';

export class SqliteReadError extends Error {
  override readonly name = 'SqliteReadError';
  constructor(
    readonly problem: ReadProblem,
    detail: string,
  ) {
    super(detail);
  }
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
/** A file the reader may open: SQLite's header, no log or journal with content and no writer's lock beside it. */
function vetFile(file: string): void {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const head = Buffer.alloc(100);
    const read = fs.fstatSync(fd).isFile() ? fs.readSync(fd, head, 0, 100, 0) : 0;
    if (read < 100 || !head.subarray(0, 16).equals(HEADER))
      throw new SqliteReadError('not-sqlite', 'the file does not start as an SQLite database does');
  } finally {
    fs.closeSync(fd);
  }
  const side = sideFilesBeside(file);
  for (const log of [side.wal, side.journal]) {
    if ((fs.lstatSync(log, { throwIfNoEntry: false })?.size ?? 0) > 0)
      throw new SqliteReadError('in-use', `${log} is beside it`);
  }
  if (fs.lstatSync(side.lock, { throwIfNoEntry: false }) !== undefined)
    throw new SqliteReadError('locked', `${side.lock} is beside it`);
}

/** SQLite's own words for a damaged or locked file, as a problem. */
export function asReadError(error: unknown): unknown {
  if (error instanceof SqliteReadError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/not a database|malformed|corrupt|encrypted|disk I\/O/i.test(message))
    return new SqliteReadError('damaged', message);
  if (/locked|busy/i.test(message)) return new SqliteReadError('locked', message);
  return error;
}

/** The catalog a pull keeps, when it is a table with text in it; anything else is no catalog. */
function taskTablesOf(db: WasmDatabase, tables: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    const catalog = db.get("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '_scrapedeck_tables'");
    if (catalog === undefined || catalog === null) return out;
    for (const r of db.all('SELECT task_id, table_name FROM main."_scrapedeck_tables" LIMIT 1000')) {
      if (typeof r.task_id === 'string' && typeof r.table_name === 'string' && tables.includes(r.table_name))
        out[r.task_id] = r.table_name;
    }
  } catch {
    // Not the catalog a pull makes: tables are offered in their order.
  }
  return out;
}

/** An open read-only database, its tables and, for a pulled database, its tasks' tables. */
export interface OpenedForReading {
  db: WasmDatabase;
  close: () => void;
  tables: string[];
  taskTables: Record<string, string>;
}

/** The file vetted, then opened read-only with the read functions added and its tables listed. */
export function openForReading(wasmDir: string, file: string): OpenedForReading {
  try {
    vetFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SqliteReadError('not-sqlite', 'it is a link');
    throw error;
  }
  let opened: { db: WasmDatabase; close: () => void } | undefined;
  try {
    opened = openReadOnly(wasmDir, file);
    addReadFunctions(opened.db);
    const all = opened.db
      .all("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
      .map((r) => ({ name: String(r.name), sql: String(r.sql ?? '') }));
    // A virtual table's module runs code of its own; its shadow tables (<name>_…) are its insides.
    const virtual = all.filter((t) => /^\s*CREATE\s+VIRTUAL\b/i.test(t.sql)).map((t) => `${t.name.toLowerCase()}_`);
    const tables = all
      .filter(
        (t) =>
          !/^(sqlite_|_scrapedeck_)/i.test(t.name) &&
          !virtual.some((v) => t.name.toLowerCase().startsWith(v)) &&
          !/^\s*CREATE\s+VIRTUAL\b/i.test(t.sql),
      )
      .map((t) => t.name);
    return { db: opened.db, close: opened.close, tables, taskTables: taskTablesOf(opened.db, tables) };
  } catch (error) {
    opened?.close();
    throw asReadError(error);
  }
}
