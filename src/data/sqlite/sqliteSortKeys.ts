/**
 * A sort's keys read out of a table in one pass (`sqliteReader.ts`'s `keys`): the row ids the
 * filter passes, in table order, and each one's key by the column's kind, which the host ranks
 * with the file store's radix sorts (SQLite's own sorter takes seconds at a million rows, this
 * pass well under one). Numbers and dates as numbers (NaN: empty), text as its first bytes
 * (the host cuts and case folds them as the file store does). No `vscode`.
 */
import { CELL, eachRow, type RawRow } from './sqliteRawRows';
import { dateOf, emptyOf, numberOf, type ReadKind, textOf } from './sqliteReadSql';
import type { WasmDatabase } from './sqliteRuntime';

export interface ReadKeys {
  /** Row ids in table order. */
  ids: Float64Array;
  kind: ReadKind;
  /** A number or date column's values (dates as milliseconds), NaN for an empty cell. */
  numbers?: Float64Array;
  /** A text column's cells: row i's bytes are bytes[ends[i - 1], ends[i]) (none: empty). */
  text?: { bytes: Uint8Array; ends: Uint32Array };
}

/** Bytes of a cell's text kept: enough for the key's 64 characters whatever they are. */
export const KEY_BYTES = 256;
/** Bytes kept of a cell whose first this many are ASCII and not all white space: the key's 64 characters. */
const ASCII_KEY = 64;

class Grown {
  ids = new Float64Array(1 << 16);
  numbers = new Float64Array(0);
  ends = new Uint32Array(0);
  bytes = new Uint8Array(0);
  count = 0;
  used = 0;

  room(rows: number, bytes: number): void {
    if (this.count + rows > this.ids.length) {
      const size = this.ids.length * 2;
      this.ids = grow(this.ids, new Float64Array(size));
      if (this.numbers.length > 0) this.numbers = grow(this.numbers, new Float64Array(size));
      if (this.ends.length > 0) this.ends = grow(this.ends, new Uint32Array(size));
    }
    if (this.used + bytes > this.bytes.length) this.bytes = grow(this.bytes, new Uint8Array(this.bytes.length * 2));
  }
}

function grow<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

const decoder = new TextDecoder();

const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);
/** White space only, as `emptyOf` trims. */
function blank(text: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text[i] as number)) return false;
  return true;
}

/** The byte length of the cell `keyBytes` copied last (kept here: no array made a row). */
let cellLength = 0;

/** Copies the bytes of row's cell 1 its key needs into `into` at `at`; returns how many. */
function keyBytes(row: RawRow, into: Uint8Array, at: number): number {
  const length = row.copyText(1, into, at, ASCII_KEY);
  cellLength = length;
  if (length <= ASCII_KEY) return length;
  let plain = true;
  let spaces = true;
  for (let i = at; i < at + ASCII_KEY && plain; i++) {
    const b = into[i] as number;
    plain = b < 0x80;
    spaces &&= isSpace(b);
  }
  return plain && !spaces ? ASCII_KEY : Math.min(row.copyText(1, into, at, KEY_BYTES), KEY_BYTES);
}

/**
 * The keys of `column` (quoted; undefined: the ids alone) over the rows `where` passes, in one
 * pass that also tells the column's kind as `kindOfColumn` does (one kind throughout, empties
 * aside, else text): numbers and text that is one, ISO dates, or text. Only a column of numbers
 * SQLite holds as numbers mixed with other text is read a second time, as text.
 * `from` is the table, `rowid` its row id's name.
 */
export function readKeys(
  db: WasmDatabase,
  from: string,
  rowid: string,
  column: string | undefined,
  where: { sql: string; params: string[] },
): ReadKeys {
  const sql = (value: string): string =>
    `SELECT ${rowid}, ${value} FROM ${from} WHERE (${where.sql}) ORDER BY ${rowid}`;
  const out = new Grown();
  if (column === undefined) {
    eachRow(db, sql('NULL'), where.params, (row) => {
      out.room(1, 0);
      out.ids[out.count++] = row.number(0);
    });
    return { ids: out.ids.slice(0, out.count), kind: 'empty' };
  }
  out.numbers = new Float64Array(out.ids.length);
  out.ends = new Uint32Array(out.ids.length);
  out.bytes = new Uint8Array(1 << 20);
  let numbers = 0;
  let dates = 0;
  let texts = 0;
  /** Cells SQLite holds as numbers or blobs: their text is not in `bytes`. */
  let unwritten = 0;
  eachRow(db, sql(column), where.params, (row) => {
    out.room(1, KEY_BYTES);
    const i = out.count++;
    out.ids[i] = row.number(0);
    let value = Number.NaN;
    const type = row.type(1);
    if (type === CELL.integer || type === CELL.float) {
      value = row.number(1);
      numbers++;
      unwritten++;
    } else if (type === CELL.blob) {
      texts++;
      unwritten++;
    } else if (type === CELL.text) {
      const at = out.used;
      const kept = keyBytes(row, out.bytes, at);
      const length = cellLength;
      // White space only is an empty cell (a longer cell's rest is looked at only then).
      if (!blank(out.bytes, at, at + kept) || (length > kept && !blank(row.text(1), kept, length))) {
        out.used += kept;
        // Once the column is text, its cells need not be read as numbers or dates.
        if (texts === 0 && !(numbers > 0 && dates > 0)) {
          const cell = decoder.decode(row.text(1));
          const number = numberOf(cell);
          const date = number === null ? dateOf(cell) : null;
          if (number !== null) {
            value = number;
            numbers++;
          } else if (date !== null) {
            value = date;
            dates++;
          } else texts++;
        }
      }
    }
    out.numbers[i] = value;
    out.ends[i] = out.used;
  });
  const kind: ReadKind =
    texts > 0 || (numbers > 0 && dates > 0) ? 'text' : numbers > 0 ? 'number' : dates > 0 ? 'date' : 'empty';
  const ids = out.ids.slice(0, out.count);
  if (kind === 'number' || kind === 'date') return { ids, kind, numbers: out.numbers.slice(0, out.count) };
  if (kind === 'empty') return { ids, kind };
  if (unwritten > 0) return { ids, kind, text: textPass(db, sql, column, where.params, out) };
  return { ids, kind, text: { bytes: out.bytes.slice(0, out.used), ends: out.ends.slice(0, out.count) } };
}

/** A text column with numbers or blobs in it, read again with each cell as SQLite writes it as text. */
function textPass(
  db: WasmDatabase,
  sql: (value: string) => string,
  c: string,
  params: string[],
  out: Grown,
): { bytes: Uint8Array; ends: Uint32Array } {
  out.used = 0;
  let i = 0;
  eachRow(db, sql(`CASE WHEN ${emptyOf(c)} THEN NULL ELSE ${textOf(c)} END`), params, (row) => {
    if (row.type(1) !== CELL.null) {
      out.room(0, KEY_BYTES);
      out.used += keyBytes(row, out.bytes, out.used);
    }
    out.ends[i++] = out.used;
  });
  return { bytes: out.bytes.slice(0, out.used), ends: out.ends.slice(0, i) };
}

/** The keys of the rows `ids` (ascending, all in `keys`, which is in table order) only. */
export function keysOf(keys: ReadKeys, ids: Float64Array): ReadKeys {
  const at = new Uint32Array(ids.length);
  for (let i = 0, k = 0; i < ids.length; i++) {
    while (k < keys.ids.length && (keys.ids[k] as number) < (ids[i] as number)) k++;
    at[i] = k;
  }
  const out: ReadKeys = { ids, kind: keys.kind };
  if (keys.numbers !== undefined) {
    const from = keys.numbers;
    out.numbers = Float64Array.from(at, (k) => from[k] ?? Number.NaN);
  }
  if (keys.text !== undefined) {
    const { bytes, ends } = keys.text;
    const cut = new Uint32Array(ids.length);
    const parts: Uint8Array[] = [];
    let used = 0;
    at.forEach((k, i) => {
      const part = bytes.subarray(k === 0 ? 0 : (ends[k - 1] as number), ends[k] as number);
      parts.push(part);
      used += part.length;
      cut[i] = used;
    });
    const joined = new Uint8Array(used);
    parts.reduce((o, part) => (joined.set(part, o), o + part.length), 0);
    out.text = { bytes: joined, ends: cut };
  }
  return out;
}
