/**
 * A search of a table for an ASCII term by its file's bytes (`sqliteReader.ts`'s `keys`), as the
 * file store searches a CSV: SQLite's LIKE over every column reads each cell's characters in
 * WebAssembly (about 3 s at a million rows), while the term's bytes are found in the file with
 * `Buffer.indexOf` (memchr) in a fraction of that. A hit counts only where it lies whole inside
 * a text cell of a row on one of the table's own leaf pages (found from its root page), so a hit
 * across two cells, in a record's header, in free space, in another table or in a page no longer
 * used is not a match. LIKE folds ASCII letters only, as the byte comparison does. Rows longer
 * than a page (their text goes on in overflow pages) are checked with SQL. Undefined when the
 * file cannot be read this way (not UTF-8, a page that does not parse, too many long rows): the
 * caller then searches with SQL. No `vscode`.
 */
import * as fs from 'node:fs';

import type { WasmDatabase } from './sqliteRuntime';

/** More rows longer than a page than this: SQL searches them all at once instead. */
const MAX_LONG_ROWS = 20_000;

class NotThisWay extends Error {}

/** Where in the term its rarest byte is (fewest in `sample`, either case), and that byte in both cases. */
function rarest(sample: Uint8Array, lower: Uint8Array, upper: Uint8Array): [number, number[]] {
  const counts = new Uint32Array(256);
  for (let i = 0; i < sample.length; i++) counts[sample[i] as number]++;
  let pick = 0;
  let fewest = Infinity;
  for (let i = 0; i < lower.length; i++) {
    const a = lower[i] as number;
    const b = upper[i] as number;
    const seen = (counts[a] as number) + (a === b ? 0 : (counts[b] as number));
    if (seen < fewest) [pick, fewest] = [i, seen];
  }
  return [pick, [...new Set([lower[pick] as number, upper[pick] as number])]];
}

const u16 = (b: Uint8Array, at: number): number => ((b[at] as number) << 8) | (b[at + 1] as number);
const u32 = (b: Uint8Array, at: number): number => u16(b, at) * 65536 + u16(b, at + 2);

/** An SQLite varint at `at`: its value (exact below 2^53) and its end. */
function varint(b: Uint8Array, at: number, end: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) throw new NotThisWay();
    const byte = b[at + i] as number;
    if (i === 8) return [value * 256 + byte, at + 9];
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  throw new NotThisWay();
}

/** Bytes a value of this serial type takes in a record's body. */
function size(type: number): number {
  if (type >= 12) return (type - (type % 2 === 0 ? 12 : 13)) / 2;
  if (type === 10 || type === 11) throw new NotThisWay();
  return [0, 1, 2, 3, 4, 6, 8, 8, 0, 0][type] as number;
}

interface Cell {
  rowid: number;
  /** The record's payload on this page, [start, end) in the chunk; long: it goes on in overflow pages. */
  start: number;
  end: number;
  long: boolean;
}

/** A table leaf page's cells (`at`: where the page is in `b`, `head`: its header). */
function leafCells(b: Uint8Array, at: number, head: number, usable: number): Cell[] {
  const count = u16(b, head + 3);
  const cells: Cell[] = [];
  const pageEnd = at + usable;
  for (let i = 0; i < count; i++) {
    const ptr = at + u16(b, head + 8 + 2 * i);
    const [payload, afterSize] = varint(b, ptr, pageEnd);
    const [rowid, start] = varint(b, afterSize, pageEnd);
    const most = usable - 35;
    let local = payload;
    if (payload > most) {
      const least = Math.floor(((usable - 12) * 32) / 255) - 23;
      const k = least + ((payload - least) % (usable - 4));
      local = k <= most ? k : least;
    }
    if (start + local > pageEnd) throw new NotThisWay();
    cells.push({ rowid, start, end: start + local, long: payload > most });
  }
  return cells;
}

/** Whether the term's bytes at `hit` lie inside one text value of the record the cell holds. */
function inText(b: Uint8Array, cell: Cell, hit: number, length: number): boolean {
  const [headerSize, first] = varint(b, cell.start, cell.end);
  let at = first;
  let body = cell.start + headerSize;
  while (at < cell.start + headerSize && body <= hit) {
    const [type, next] = varint(b, at, cell.end);
    at = next;
    const end = body + size(type);
    if (hit >= body && hit + length <= end) return type >= 13 && type % 2 === 1;
    body = end;
  }
  return false;
}

/**
 * The row ids (ascending) of the table whose B-tree starts at page `root` holding `term` (ASCII,
 * matched with ASCII letters folded) in a text cell, except rows longer than a page, which
 * `check` is given (row ids; it returns those that match). Undefined: search with SQL instead.
 */
export function searchFile(
  file: string,
  root: number,
  term: string,
  check: (ids: number[]) => number[],
): Float64Array | undefined {
  const lower = Buffer.from(term.toLowerCase(), 'latin1');
  const upper = Buffer.from(term.toUpperCase(), 'latin1');
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  try {
    const head = Buffer.alloc(100);
    if (fs.readSync(fd, head, 0, 100, 0) < 100 || head.readUInt32BE(56) > 1) return undefined; // UTF-16
    const pageSize = head.readUInt16BE(16) === 1 ? 65536 : head.readUInt16BE(16);
    const usable = pageSize - (head[20] as number);
    const pages = Math.floor(fs.fstatSync(fd).size / pageSize);
    const types = new Uint8Array(pages + 1);
    const children = new Map<number, number[]>();
    const found = new Map<number, number[]>();
    const long = new Map<number, number[]>();
    let longRows = 0;
    // The term is looked for by its rarest byte (in both cases), counted in the file's first chunk.
    let pick = -1;
    let needles: number[] = [];
    const chunkPages = Math.max(1, Math.floor((1 << 20) / pageSize));
    const buf = Buffer.alloc(chunkPages * pageSize);
    for (let first = 1; first <= pages; first += chunkPages) {
      const n = Math.min(chunkPages, pages - first + 1);
      const read = fs.readSync(fd, buf, 0, n * pageSize, (first - 1) * pageSize);
      if (read < n * pageSize) throw new NotThisWay();
      const cells = new Map<number, Cell[]>();
      for (let k = 0; k < n; k++) {
        const page = first + k;
        const at = k * pageSize;
        const h = at + (page === 1 ? 100 : 0);
        const type = buf[h] as number;
        types[page] = type;
        if (type === 0x05) {
          const count = u16(buf, h + 3);
          const list = [u32(buf, h + 8)];
          for (let i = 0; i < count; i++) list.push(u32(buf, at + u16(buf, h + 12 + 2 * i)));
          children.set(page, list);
        } else if (type === 0x0d && page !== 1) {
          const list = leafCells(buf, at, h, usable);
          cells.set(page, list);
          const longOnes = list.filter((c) => c.long).map((c) => c.rowid);
          if (longOnes.length > 0) long.set(page, longOnes);
          longRows += longOnes.length;
          if (longRows > MAX_LONG_ROWS) return undefined;
        }
      }
      const view = buf.subarray(0, n * pageSize);
      if (pick < 0) [pick, needles] = rarest(view, lower, upper);
      for (const needle of needles) {
        for (let i = view.indexOf(needle); i >= 0; i = view.indexOf(needle, i + 1)) {
          const s = i - pick;
          if (s < 0 || s + lower.length > view.length) continue;
          let same = true;
          for (let j = 0; j < lower.length && same; j++) {
            const c = view[s + j] as number;
            same = c === lower[j] || c === upper[j];
          }
          if (!same) continue;
          const page = first + Math.floor(s / pageSize);
          const cell = cells.get(page)?.find((c) => s >= c.start && s < c.end);
          if (cell === undefined || cell.long || s + lower.length > cell.end) continue;
          const rows = found.get(page) ?? [];
          if (rows.includes(cell.rowid)) i = cell.end;
          else if (inText(view, cell, s, lower.length)) {
            rows.push(cell.rowid);
            found.set(page, rows);
            // The row is found: the rest of its cell need not be looked at.
            i = cell.end;
          }
        }
      }
    }
    // The table's own leaf pages, from its root down (a page met twice is a damaged file).
    const ids: number[] = [];
    const longIds: number[] = [];
    const seen = new Set<number>();
    const stack = [root];
    while (stack.length > 0) {
      const page = stack.pop() as number;
      if (page < 1 || page > pages || seen.has(page)) return undefined;
      seen.add(page);
      if (types[page] === 0x05) stack.push(...(children.get(page) ?? []));
      else if (types[page] === 0x0d) {
        ids.push(...(found.get(page) ?? []));
        longIds.push(...(long.get(page) ?? []));
      } else return undefined;
    }
    for (let at = 0; at < longIds.length; at += 500) ids.push(...check(longIds.slice(at, at + 500)));
    return Float64Array.from(new Set(ids)).sort();
  } catch (error) {
    if (error instanceof NotThisWay) return undefined;
    throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** The term of a filter that the file's bytes can be searched for (a search alone, ASCII), else undefined. */
export function byteTerm(filter: { search?: string; conditions?: readonly unknown[] } | undefined): string | undefined {
  if ((filter?.conditions ?? []).length > 0) return undefined;
  const term = (filter?.search ?? '').trim();
  if (!/^[\x20-\x7e]+$/.test(term)) return undefined;
  const t = term.toLowerCase();
  // Text SQLite makes of a number (digits, . + - e, Inf) or says for a blob could hold it: SQL looks.
  if (/^[0-9.+\-einf]+$/.test(t) || /^[()binary, 0-9tes]+$/.test(t)) return undefined;
  return term;
}

/**
 * Whether a table's rows are what its file holds: no column with a default (a row written
 * before the column was added holds none of its own) and no generated column (not stored).
 */
export function tableAsStored(db: WasmDatabase, table: string, quoted: string): number | undefined {
  const meta = db.get("SELECT rootpage, sql FROM main.sqlite_master WHERE type = 'table' AND name = ?", [table]);
  const root = meta?.rootpage;
  if (typeof root !== 'number' || !Number.isSafeInteger(root) || root < 2) return undefined;
  if (/\bGENERATED\b|\bAS\s*\(/i.test(String(meta?.sql ?? ''))) return undefined;
  if (db.all(`PRAGMA main.table_info(${quoted})`).some((c) => c.dflt_value !== null)) return undefined;
  return root;
}
