/**
 * What an export file contains and what it is called. Pure, so the shapes are unit-tested
 * without VS Code; `export.ts` only asks where to put it and writes the bytes. A result that holds
 * only the first rows of its query says so: in the file name, and in the JSON's total/complete.
 */
import type { AnalyticsQuery, AnalyticsRecord } from '../../api/schemas/schemas';
import { recordsToCsv } from './csv';

export type ExportFormat = 'csv' | 'json';

/** The rows to export and how many the query matches. */
export interface ExportedRows {
  query: AnalyticsQuery;
  total: number;
  records: readonly AnalyticsRecord[];
}

/** The JSON export: the query that produced the rows, so a file explains itself later. */
export interface JsonExport {
  format: 'scrapedeck-analytics';
  version: 1;
  exportedAt: string;
  query: AnalyticsQuery;
  /** Rows in this file. */
  count: number;
  /** Rows the query matches; more than `count` when only the first rows were fetched. */
  total: number;
  complete: boolean;
  records: readonly AnalyticsRecord[];
}

export function isPartial(rows: ExportedRows): boolean {
  return rows.records.length < rows.total;
}

/**
 * e.g. `scrapedeck-analytics-2026-11-16_2026-11-22-week.csv` (granularity defaults to Day, as in the
 * spec); `…-day-first-1000-of-25300.csv` when the rows are only the first of the query's.
 */
export function defaultExportFileName(rows: ExportedRows, format: ExportFormat): string {
  const { query } = rows;
  const granularity = (query.timeGranularity ?? 'Day').toLowerCase();
  const part = isPartial(rows) ? `-first-${rows.records.length}-of-${rows.total}` : '';
  return `scrapedeck-analytics-${query.start}_${query.end}-${granularity}${part}.${format}`;
}

export function buildJsonExport(rows: ExportedRows, now: Date): JsonExport {
  const { query, total, records } = rows;
  return {
    format: 'scrapedeck-analytics',
    version: 1,
    exportedAt: now.toISOString(),
    query,
    count: records.length,
    total: Math.max(total, records.length),
    complete: !isPartial(rows),
    records,
  };
}

/** The file's bytes, UTF-8. */
export function serialiseExport(format: ExportFormat, rows: ExportedRows, now: Date): Uint8Array {
  const text =
    format === 'csv' ? recordsToCsv(rows.records) : `${JSON.stringify(buildJsonExport(rows, now), null, 2)}\n`;
  return new TextEncoder().encode(text);
}

export const EXPORT_FILTERS: Record<ExportFormat, Record<string, string[]>> = {
  csv: { 'CSV (comma-separated values)': ['csv'] },
  json: { JSON: ['json'] },
};
