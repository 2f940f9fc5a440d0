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
import type { AnalyticsRecord } from '../../api/schemas/schemas';
import { CSV_NEWLINE as NEWLINE, csvCell, UTF8_BOM } from '../../platform/csvCell';
import { RECORD_FIELDS } from '../model/recordFields';

// The cell rules are shared with the task-data export; re-exported for this module's callers.
export { csvCell, neutraliseFormula, UTF8_BOM } from '../../platform/csvCell';

type Cell = string | number | null;

export interface CsvColumn {
  readonly header: string;
  readonly value: (record: AnalyticsRecord) => Cell;
}

/** Every field of the spec's analytics record, in the order the spec lists them (the field table's). */
export const CSV_COLUMNS: readonly CsvColumn[] = RECORD_FIELDS.map((f) => ({ header: f.path, value: f.get }));

/** The whole file: BOM, header row, one row per record, CRLF after every row. */
export function recordsToCsv(records: readonly AnalyticsRecord[], columns: readonly CsvColumn[] = CSV_COLUMNS): string {
  const rows = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const record of records) rows.push(columns.map((c) => csvCell(c.value(record))).join(','));
  return UTF8_BOM + rows.join(NEWLINE) + NEWLINE;
}
