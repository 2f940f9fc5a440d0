/**
 * Rows that do not lie in a file of rows, copied into a spool (rowSpool.ts) as they come: a
 * task's rows at the service (pages of the data reader, at the rate bound; nothing is marked as
 * exported) and a table of a SQLite database (opened read-only, a batch at a time, so the
 * database is not held locked while the browser is open). No `vscode`.
 */
import type { DataRow, DataValue } from '../../../api/dataSchemas';
import { openReadOnlyDatabase, type WasmDatabase } from '../../sqlite/sqliteRuntime';
import type { RowSpool } from './rowSpool';

export interface LoadProgress {
  loaded: number;
  /** Rows there are, as far as known. */
  total: number;
}

/** Pages of rows with the count they belong to (the service's reader yields these). */
export type RowPages = AsyncIterable<{ rows: DataRow[]; total: number }>;

export async function spoolPages(spool: RowSpool, pages: RowPages, o: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}): Promise<LoadProgress> {
  let total = 0;
  for await (const page of pages) {
    o.signal?.throwIfAborted();
    total = page.total;
    await spool.append(page.rows);
    o.onProgress?.({ loaded: spool.count, total });
  }
  return { loaded: spool.count, total: Math.max(total, spool.count) };
}

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The tables of a database a user may browse (not SQLite's own). */
export function sqliteTables(wasmDir: string, file: string): string[] {
  const { db, close } = openReadOnlyDatabase(wasmDir, file);
  try {
    return db.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").map((r) => String(r['name']));
  } finally {
    close();
  }
}

/** Rows read from the database per open (its lock is let go between). */
const ROWS_PER_OPEN = 20_000;
const ROWS_PER_READ = 2_000;

export async function spoolTable(spool: RowSpool, o: { wasmDir: string; file: string; table: string; signal?: AbortSignal; onProgress?: (p: LoadProgress) => void }): Promise<LoadProgress> {
  const table = quoteName(o.table);
  let total = 0;
  // The rowid where the next batch starts; a table without rowids is read by offset instead.
  let after: number | undefined = -Infinity;
  let offset = 0;
  for (;;) {
    o.signal?.throwIfAborted();
    const { db, close } = openReadOnlyDatabase(o.wasmDir, o.file);
    let got = 0;
    let done = false;
    try {
      if (offset === 0 && spool.count === 0) total = Number(db.get(`SELECT count(*) AS n FROM ${table}`)?.['n'] ?? 0);
      while (got < ROWS_PER_OPEN) {
        const rows = readBatch(db, table, after, offset);
        if (rows === undefined) {
          after = undefined; // WITHOUT ROWID: by offset from here
          continue;
        }
        if (rows.length === 0) {
          done = true;
          break;
        }
        if (after !== undefined) after = Number(rows[rows.length - 1]?.['__scrapedeck_rowid']);
        offset += rows.length;
        got += rows.length;
        await spool.append(rows.map(cleanRow));
      }
    } finally {
      close();
    }
    o.onProgress?.({ loaded: spool.count, total: Math.max(total, spool.count) });
    if (done) return { loaded: spool.count, total: spool.count };
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** A batch after a rowid (undefined when the table has none), or by offset. */
function readBatch(db: WasmDatabase, table: string, after: number | undefined, offset: number): Record<string, unknown>[] | undefined {
  if (after === undefined) return db.all(`SELECT * FROM ${table} LIMIT ? OFFSET ?`, [ROWS_PER_READ, offset]);
  try {
    const from = after === -Infinity ? Number.MIN_SAFE_INTEGER : after;
    return db.all(`SELECT _rowid_ AS __scrapedeck_rowid, * FROM ${table} WHERE _rowid_ > ? ORDER BY _rowid_ LIMIT ?`, [from, ROWS_PER_READ]);
  } catch (error) {
    if (/no such column/i.test(error instanceof Error ? error.message : '')) return undefined;
    throw error;
  }
}

/** A SQLite row as a data row: blobs said, big integers as text, the rowid we added left out. */
function cleanRow(row: Record<string, unknown>): DataRow {
  const out: DataRow = {};
  for (const [key, value] of Object.entries(row)) {
    if (key === '__scrapedeck_rowid') continue;
    out[key] = cellOf(value);
  }
  return out;
}

function cellOf(value: unknown): DataValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return `(binary, ${value.byteLength} bytes)`;
  return String(value);
}
