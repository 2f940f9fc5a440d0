/**
 * The cell rules of every CSV Scrapedeck writes (the analytics export, task data), in one place.
 * Pure: no `vscode`, no I/O.
 *
 * - RFC 4180: a cell with a comma, a double quote, CR or LF is quoted, quotes doubled; rows end
 *   with CRLF.
 * - Spreadsheet formula neutralising: text that starts with `=`, `+`, `-`, `@`, TAB, CR, LF or NUL
 *   gets a leading apostrophe, so `=HYPERLINK(...)` in scraped data stays text. Only text cells:
 *   a value that arrived as a number (a negative one included) stays a number.
 * - Semicolons: a spreadsheet set to split on `;` (German or French Excel opening a .csv) starts a
 *   new cell after every `;`, quotes or not (it honours a quote only at a cell's start). So a cell
 *   with `;` is quoted, and a formula character right after a `;` gets the apostrophe too
 *   (`a;=cmd|…` is written `"a;'=cmd|…"`).
 * - A UTF-8 byte-order mark starts the file, so spreadsheets read any script as UTF-8.
 */

export type CsvValue = string | number | boolean | null;

export const UTF8_BOM = '\uFEFF';
export const CSV_NEWLINE = '\r\n';

/**
 * Characters that make a spreadsheet read a text cell as a formula, or hide its start: a leading
 * LF or NUL (some importers drop them, and what follows is then read as a formula).
 */
const FORMULA_START = /^[=+\-@\t\r\n\0]/;
/** The same characters where a `;`-splitting spreadsheet starts a cell. */
const FORMULA_AFTER_SEMICOLON = /;(?=[=+\-@\t\r\n\0])/g;
const NEEDS_QUOTES = /[",;\r\n]/;

/** Text a spreadsheet would evaluate gets an apostrophe: at its start, and after a `;` that starts a formula. */
export function neutraliseFormula(text: string): string {
  const start = FORMULA_START.test(text) ? `'${text}` : text;
  return start.includes(';') ? start.replace(FORMULA_AFTER_SEMICOLON, ";'") : start;
}

/** One cell, RFC 4180-escaped. Null (unknown) is an empty cell, never 0. */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
