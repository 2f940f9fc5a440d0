/**
 * A task's rows as file text, page by page: CSV, JSON Lines or JSON. Pure (no `vscode`, no I/O),
 * so the exporter, the puller and the unit tests share one encoder per format.
 *
 * CSV columns are the union of the rows' field names in first-seen order. The header is written
 * with the columns the first page has; a field first seen later becomes a new column at the end,
 * and the rows written before it are short. `CsvEncoder.widened` tells the caller, which then
 * pads those rows in one pass over the file (`csvRecords.ts`), so every line has every column.
 * Rows are never held back to learn the columns first: memory stays flat and the common case
 * (one field set per task) costs no second pass.
 */
import type { DataRow } from '../../api/schemas/dataSchemas';
import { CSV_NEWLINE, csvCell, neutraliseFormula, UTF8_BOM } from '../../platform/csvCell';

export type DataFormat = 'csv' | 'jsonl' | 'json' | 'xlsx' | 'sqlite';
/** The formats that are text, encoded here; .xlsx and SQLite have writers of their own. */
export type TextFormat = 'csv' | 'jsonl' | 'json';

export const DATA_FORMATS: readonly DataFormat[] = ['csv', 'jsonl', 'json', 'xlsx', 'sqlite'];

/** File name endings per format; the first is the one offered. */
export const FORMAT_EXTENSIONS: Record<DataFormat, readonly string[]> = {
  csv: ['csv'],
  jsonl: ['jsonl', 'ndjson'],
  json: ['json'],
  xlsx: ['xlsx'],
  sqlite: ['sqlite', 'db', 'sqlite3'],
};

/** The format a file name asks for, by its ending (case-insensitive), or undefined. */
export function formatOfPath(file: string): DataFormat | undefined {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase();
  if (ext === undefined) return undefined;
  return DATA_FORMATS.find((f) => FORMAT_EXTENSIONS[f].includes(ext));
}

/** A file name from the task's name: no path separators or characters file systems refuse. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return (cleaned === '' ? 'task' : cleaned).slice(0, 120);
}

/** How a task is told apart from the other tasks of its name; undefined when its name is its own. */
export interface Namesake {
  /** Its group's name, when no other task of its name is in a group of that name. */
  group?: string;
}

/** How task `taskId` is told apart among the loaded tasks of its name (each with its group's name, if known). */
export function namesakeAmong(
  taskId: string,
  named: readonly { taskId: string; groupName?: string }[],
): Namesake | undefined {
  const others = named.filter((n) => n.taskId !== taskId);
  if (others.length === 0) return undefined;
  const own = named.find((n) => n.taskId === taskId)?.groupName?.trim();
  return own !== undefined && own !== '' && others.every((o) => o.groupName?.trim() !== own) ? { group: own } : {};
}

/**
 * The file name Export and Pull New Rows suggest for a task (no ending): its name, and when
 * another task has the same name (`namesake`), its group's name in brackets where that tells them
 * apart, else a short piece of its id, so two tasks never get the same suggestion (issue 48).
 */
export function suggestedFileName(
  task: { taskId: string; taskName: string },
  namesake: Namesake | undefined,
  suffix = '',
): string {
  if (namesake === undefined) return safeFileName(`${task.taskName}${suffix}`);
  if (namesake.group !== undefined) {
    const group = safeFileName(namesake.group);
    // Cut the task's name, never the group's (which is what tells the two apart).
    return safeFileName(
      `${safeFileName(task.taskName).slice(0, Math.max(20, 110 - group.length))} (${group})${suffix}`,
    );
  }
  const base = safeFileName(`${task.taskName}${suffix}`);
  const id = task.taskId.replace(/[^A-Za-z0-9]+/g, '').slice(0, 8);
  return `${base.slice(0, 110)} ${id === '' ? 'task' : id}`;
}

export interface RowEncoder {
  /** Text before the first row (given the first page, so CSV knows its first columns). */
  start(firstRows: readonly DataRow[]): string;
  /** One page of rows. */
  rows(rows: readonly DataRow[]): string;
  /** Text after the last row. */
  end(): string;
}

/** CSV header cells and rows over a growing column list. */
export class CsvEncoder implements RowEncoder {
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  /** Columns the header on file has. */
  private headerWidth = 0;

  /**
   * `header`: the header cells of a file being appended to, as read back. Scrapedeck wrote a
   * field such as `=x` as `'=x` there, so a field is also found under its neutralised name.
   */
  constructor(private readonly header: readonly string[] = []) {
    for (const name of header) this.add(name);
    this.headerWidth = this.names.length;
  }

  get columns(): readonly string[] {
    return this.names;
  }

  /** True once a field appeared that the written header lacks: the file needs a widening pass. */
  get widened(): boolean {
    return this.names.length > this.headerWidth;
  }

  /** The header line for the current columns (BOM not included). */
  headerLine(): string {
    return this.names.map((n) => csvCell(n)).join(',') + CSV_NEWLINE;
  }

  /** BOM and header, with the first page's fields as the first columns. */
  start(firstRows: readonly DataRow[]): string {
    this.learn(firstRows);
    this.headerWritten();
    return UTF8_BOM + this.headerLine();
  }

  /** Adds the rows' new fields as columns, writing nothing (appending: decide first, then write). */
  learn(rows: readonly DataRow[]): void {
    for (const row of rows) for (const key of Object.keys(row)) if (this.columnOf(key) === undefined) this.add(key);
  }

  /** The current columns are now the header on file (after a widening pass). */
  headerWritten(): void {
    this.headerWidth = this.names.length;
  }

  rows(rows: readonly DataRow[]): string {
    this.learn(rows);
    const width = this.names.length;
    let out = '';
    for (const row of rows) {
      const cells = new Array<string>(width).fill('');
      for (const key of Object.keys(row)) cells[this.columnOf(key) as number] = csvCell(row[key] ?? null);
      // As wide as the columns known now; a column added later is padded by the widening pass.
      const line = cells.join(',');
      // A line with nothing on it reads as no row at all: an empty first cell is written quoted.
      out += (line === '' ? '""' : line) + CSV_NEWLINE;
    }
    return out;
  }

  end(): string {
    return '';
  }

  private columnOf(key: string): number | undefined {
    const at = this.index.get(key);
    return at !== undefined || this.header.length === 0 ? at : this.index.get(neutraliseFormula(key));
  }

  private add(name: string): void {
    this.index.set(name, this.names.length);
    this.names.push(name);
  }
}

/**
 * Characters JSON leaves raw that line readers split on: NEL (U+0085), LINE SEPARATOR and
 * PARAGRAPH SEPARATOR (Python's `splitlines`, JavaScript's line terminators). Control characters
 * below U+0020 are escaped by JSON.stringify already.
 */
const LINE_BREAKING = /[\u0085\u2028\u2029]/g;
const HAS_LINE_BREAKING = /[\u0085\u2028\u2029]/;

/** A row as one line of JSON: nothing in it a line reader would break on. */
export function jsonLine(row: DataRow): string {
  const text = JSON.stringify(row);
  return HAS_LINE_BREAKING.test(text)
    ? text.replace(LINE_BREAKING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : text;
}

/** One JSON object per line, keys as the service sent them. */
export class JsonLinesEncoder implements RowEncoder {
  start(): string {
    return '';
  }
  rows(rows: readonly DataRow[]): string {
    let out = '';
    for (const row of rows) out += `${jsonLine(row)}\n`;
    return out;
  }
  end(): string {
    return '';
  }
}

/** One JSON array of row objects, one row per line, streamed. */
export class JsonArrayEncoder implements RowEncoder {
  private first = true;
  start(): string {
    return '[';
  }
  rows(rows: readonly DataRow[]): string {
    let out = '';
    for (const row of rows) {
      out += `${this.first ? '\n' : ',\n'}${jsonLine(row)}`;
      this.first = false;
    }
    return out;
  }
  end(): string {
    return this.first ? ']\n' : '\n]\n';
  }
}

export function encoderFor(format: TextFormat): RowEncoder & { readonly widened?: boolean } {
  switch (format) {
    case 'csv':
      return new CsvEncoder();
    case 'jsonl':
      return new JsonLinesEncoder();
    case 'json':
      return new JsonArrayEncoder();
  }
}
