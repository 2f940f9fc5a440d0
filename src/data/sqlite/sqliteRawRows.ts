/**
 * A query's rows read a cell at a time, for passes over a whole table (a sort's keys): through
 * SQLite's own C calls, each cell's text read where SQLite holds it, with no object or string
 * made a row (node-sqlite3-wasm makes an object a row, which at a million rows costs more than
 * SQLite's own work). When the library is not as expected, its rows are read as objects. No `vscode`.
 */
import { wasmCalls, type WasmDatabase } from './sqliteRuntime';

/** SQLite's types of a cell (sqlite3_column_type). */
export const CELL = { integer: 1, float: 2, text: 3, blob: 4, null: 5 } as const;

export interface RawRow {
  type(i: number): number;
  /** An integer or float cell's value. */
  number(i: number): number;
  /** A text cell's UTF-8 bytes: a view of SQLite's memory, valid until the next row. */
  text(i: number): Uint8Array;
  /** Copies at most `max` of a text cell's bytes into `into` at `at` (no view made); returns the cell's length in bytes. */
  copyText(i: number, into: Uint8Array, at: number, max: number): number;
}

function copy(from: Uint8Array, start: number, length: number, into: Uint8Array, at: number): void {
  if (length > 32) into.set(from.subarray(start, start + length), at);
  else for (let k = 0; k < length; k++) into[at + k] = from[start + k] as number;
}

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;

interface StatementInsides {
  _ptr?: unknown;
  _bind?: unknown;
}

/** Calls `each` for every row of `sql` with `params` bound. */
export function eachRow(db: WasmDatabase, sql: string, params: readonly unknown[], each: (row: RawRow) => void): void {
  const calls = wasmCalls();
  const stmt = db.prepare(sql);
  const insides = stmt as unknown as StatementInsides;
  const ptr = insides._ptr;
  const bind = insides._bind;
  if (calls === undefined || typeof ptr !== 'number' || typeof bind !== 'function') {
    try {
      eachObject(stmt.iterate([...params]), each);
    } finally {
      stmt.finalize();
    }
    return;
  }
  let heap = new Uint8Array(calls.memory.buffer);
  const row: RawRow = {
    type: (i) => calls.columnType(ptr, i),
    number: (i) => calls.columnDouble(ptr, i),
    text: (i) => {
      const at = calls.columnText(ptr, i);
      const length = calls.columnBytes(ptr, i);
      // SQLite may have grown its memory to make the text (a number's): the old view is then detached, empty.
      if (heap.length === 0) heap = new Uint8Array(calls.memory.buffer);
      return heap.subarray(at, at + length);
    },
    copyText: (i, into, to, max) => {
      const at = calls.columnText(ptr, i);
      const length = calls.columnBytes(ptr, i);
      if (heap.length === 0) heap = new Uint8Array(calls.memory.buffer);
      copy(heap, at, Math.min(length, max), into, to);
      return length;
    },
  };
  let rc: number;
  try {
    (bind as (values: unknown[]) => void).call(stmt, [...params]);
    while ((rc = calls.step(ptr)) === SQLITE_ROW) each(row);
  } catch (error) {
    stmt.finalize();
    throw error;
  }
  // finalize() throws SQLite's own words for a step that failed (a damaged page).
  stmt.finalize();
  if (rc !== SQLITE_DONE) throw new Error(`SQLite stopped reading (code ${rc})`);
}

function eachObject(rows: IterableIterator<Record<string, unknown>>, each: (row: RawRow) => void): void {
  let cells: unknown[] = [];
  const row: RawRow = {
    type: (i) => {
      const v = cells[i];
      if (v === null || v === undefined) return CELL.null;
      if (typeof v === 'bigint') return CELL.integer;
      if (typeof v === 'number') return Number.isInteger(v) ? CELL.integer : CELL.float;
      return typeof v === 'string' ? CELL.text : CELL.blob;
    },
    number: (i) => Number(cells[i]),
    text: (i) => {
      const v = cells[i];
      return v instanceof Uint8Array ? v : Buffer.from(String(v ?? ''), 'utf8');
    },
    copyText: (i, into, at, max) => {
      const text = row.text(i);
      copy(text, 0, Math.min(text.length, max), into, at);
      return text.length;
    },
  };
  for (const r of rows) {
    cells = Object.values(r);
    each(row);
  }
}
