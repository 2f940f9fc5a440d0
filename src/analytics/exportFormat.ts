/**
 * What an export file contains and what it is called. Pure, so the shapes are unit-tested
 * without VS Code; `export.ts` only asks where to put it and writes the bytes.
 */
import type { AnalyticsQuery, AnalyticsRecord } from '../api/schemas';
import { recordsToCsv } from './csv';

export type ExportFormat = 'csv' | 'json';

/** The JSON export: the query that produced the rows, so a file explains itself later. */
export interface JsonExport {
  format: 'scrapedeck-analytics';
  version: 1;
  exportedAt: string;
  query: AnalyticsQuery;
  count: number;
  records: readonly AnalyticsRecord[];
}

/** e.g. `scrapedeck-analytics-2026-11-16_2026-11-22-week.csv` (granularity defaults to Day, as in the spec). */
export function defaultExportFileName(query: AnalyticsQuery, format: ExportFormat): string {
  const granularity = (query.timeGranularity ?? 'Day').toLowerCase();
  return `scrapedeck-analytics-${query.start}_${query.end}-${granularity}.${format}`;
}

export function buildJsonExport(query: AnalyticsQuery, records: readonly AnalyticsRecord[], now: Date): JsonExport {
  return { format: 'scrapedeck-analytics', version: 1, exportedAt: now.toISOString(), query, count: records.length, records };
}

/** The file's bytes, UTF-8. */
export function serialiseExport(format: ExportFormat, query: AnalyticsQuery, records: readonly AnalyticsRecord[], now: Date): Uint8Array {
  const text = format === 'csv' ? recordsToCsv(records) : `${JSON.stringify(buildJsonExport(query, records, now), null, 2)}\n`;
  return new TextEncoder().encode(text);
}

export const EXPORT_FILTERS: Record<ExportFormat, Record<string, string[]>> = {
  csv: { 'CSV (comma-separated values)': ['csv'] },
  json: { JSON: ['json'] },
};
