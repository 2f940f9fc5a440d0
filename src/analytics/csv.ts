/**
 * Analytics records as CSV that opens cleanly in a spreadsheet. Pure: no `vscode`, no I/O.
 *
 * - One column per record field, nested metrics flattened as `group.field` so the header says
 *   exactly where each value came from (and matches the JSON export).
 * - RFC 4180: fields with a comma, a double quote, CR or LF are quoted, quotes doubled, rows end
 *   with CRLF.
 * - A UTF-8 byte-order mark first, so spreadsheets read task names in any script as UTF-8.
 * - Null (unknown) metrics are empty cells, never 0.
 */
import type { AnalyticsRecord } from '../api/schemas';
import { RECORD_FIELDS } from '../analyticsModel/recordFields';

type Cell = string | number | null;

export interface CsvColumn {
  readonly header: string;
  readonly value: (record: AnalyticsRecord) => Cell;
}

/** Every field of the spec's analytics record, in the order the spec lists them (the field table's). */
export const CSV_COLUMNS: readonly CsvColumn[] = RECORD_FIELDS.map((f) => ({ header: f.path, value: f.get }));

export const UTF8_BOM = '\uFEFF';
const NEWLINE = '\r\n';

/**
 * Characters that make a spreadsheet read a text cell as a formula, or hide its start: a leading
 * LF or NUL (some importers drop them, and what follows is then read as a formula).
 */
const FORMULA_START = /^[=+\-@\t\r\n\0]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Text that a spreadsheet would evaluate gets a leading apostrophe, so `=HYPERLINK(...)` in a
 * task name stays text. Only string cells (names, ids, labels) are neutralised: numbers come
 * from the record's numeric fields, and a negative number such as -3 must stay a number.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One cell, RFC 4180-escaped. */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole file: BOM, header row, one row per record, CRLF after every row. */
export function recordsToCsv(records: readonly AnalyticsRecord[], columns: readonly CsvColumn[] = CSV_COLUMNS): string {
  const rows = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const record of records) rows.push(columns.map((c) => csvCell(c.value(record))).join(','));
  return UTF8_BOM + rows.join(NEWLINE) + NEWLINE;
}
