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
import { CSV_NEWLINE as NEWLINE, UTF8_BOM, csvCell } from '../platform/csvCell';

// The cell rules are shared with the task-data export; re-exported for this module's callers.
export { UTF8_BOM, csvCell, neutraliseFormula } from '../platform/csvCell';

type Cell = string | number | null;

export interface CsvColumn {
  readonly header: string;
  readonly value: (record: AnalyticsRecord) => Cell;
}

/** Every field of the spec's analytics record, in the order the spec lists them. */
export const CSV_COLUMNS: readonly CsvColumn[] = [
  { header: 'taskId', value: (r) => r.taskId },
  { header: 'userId', value: (r) => r.userId },
  { header: 'taskName', value: (r) => r.taskName },
  { header: 'dayKey', value: (r) => r.dayKey },
  { header: 'weekStartDate', value: (r) => r.weekStartDate },
  { header: 'weekEndDate', value: (r) => r.weekEndDate },
  { header: 'collectionMethod', value: (r) => r.collectionMethod },
  { header: 'dataVolumeMetrics.totalCollected', value: (r) => r.dataVolumeMetrics.totalCollected },
  { header: 'dataVolumeMetrics.deduplicatedVolume', value: (r) => r.dataVolumeMetrics.deduplicatedVolume },
  { header: 'executionMetrics.runCount', value: (r) => r.executionMetrics.runCount },
  { header: 'executionMetrics.successCount', value: (r) => r.executionMetrics.successCount },
  { header: 'executionMetrics.failureCount', value: (r) => r.executionMetrics.failureCount },
  { header: 'executionMetrics.durationPerRunSeconds', value: (r) => r.executionMetrics.durationPerRunSeconds },
  { header: 'executionMetrics.totalExecutionSeconds', value: (r) => r.executionMetrics.totalExecutionSeconds },
  { header: 'executionMetrics.successRate', value: (r) => r.executionMetrics.successRate },
  { header: 'executionMetrics.failureRate', value: (r) => r.executionMetrics.failureRate },
  { header: 'resourceUsageMetrics.captchaCount', value: (r) => r.resourceUsageMetrics.captchaCount },
  { header: 'resourceUsageMetrics.simpleTemplateCount', value: (r) => r.resourceUsageMetrics.simpleTemplateCount },
  { header: 'resourceUsageMetrics.proxyIpCount', value: (r) => r.resourceUsageMetrics.proxyIpCount },
  { header: 'resourceUsageMetrics.balance', value: (r) => r.resourceUsageMetrics.balance },
];

/** The whole file: BOM, header row, one row per record, CRLF after every row. */
export function recordsToCsv(records: readonly AnalyticsRecord[], columns: readonly CsvColumn[] = CSV_COLUMNS): string {
  const rows = [columns.map((c) => csvCell(c.header)).join(',')];
  for (const record of records) rows.push(columns.map((c) => csvCell(c.value(record))).join(','));
  return UTF8_BOM + rows.join(NEWLINE) + NEWLINE;
}
