/**
 * The analytics table as data: every record field as a column, how each is formatted, and how
 * rows sort (ascending or descending, nulls always last). Pure, so it is unit-tested in Node and
 * the page only turns it into HTML.
 */
import type { AnalyticsRecord } from '../api/schemas';
import { DASH, bucketLabel, formatDecimal, formatDuration, formatInt, formatPercent } from './format';

export type ColumnKind = 'text' | 'int' | 'decimal' | 'percent' | 'duration';
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: string;
  direction: SortDirection;
}

export interface Column {
  id: string;
  header: string;
  /** Longer text for the header's tooltip. */
  title: string;
  kind: ColumnKind;
  value(record: AnalyticsRecord): string | number | null;
}

const text = (id: string, header: string, title: string, value: (r: AnalyticsRecord) => string | null): Column => ({
  id, header, title, kind: 'text', value,
});
const num = (id: string, header: string, title: string, kind: ColumnKind, value: (r: AnalyticsRecord) => number | null): Column => ({
  id, header, title, kind, value,
});

export const COLUMNS: readonly Column[] = [
  text('task', 'Task', 'Task name, or the task id when the name is not known', (r) => r.taskName ?? r.taskId),
  text('taskId', 'Task ID', 'Task id', (r) => r.taskId),
  text('userId', 'User ID', 'User id', (r) => r.userId),
  text('dayKey', 'Date bucket', 'Day, year-week (with its dates) or month', (r) => r.dayKey),
  text('weekStartDate', 'Week start', 'Start of the week (Week granularity)', (r) => r.weekStartDate),
  text('weekEndDate', 'Week end', 'End of the week (Week granularity)', (r) => r.weekEndDate),
  text('collectionMethod', 'Method', 'Collection method: Cloud or Local', (r) => r.collectionMethod),
  num('totalCollected', 'Collected', 'Total records collected', 'int', (r) => r.dataVolumeMetrics.totalCollected),
  num('deduplicatedVolume', 'After dedup', 'Records remaining after deduplication', 'int', (r) => r.dataVolumeMetrics.deduplicatedVolume),
  num('runCount', 'Runs', 'Total runs', 'int', (r) => r.executionMetrics.runCount),
  num('successCount', 'Successes', 'Successful runs', 'int', (r) => r.executionMetrics.successCount),
  num('failureCount', 'Failures', 'Failed runs', 'int', (r) => r.executionMetrics.failureCount),
  num('successRate', 'Success rate', 'Successful runs as a fraction, as reported', 'percent', (r) => r.executionMetrics.successRate),
  num('failureRate', 'Failure rate', 'Failed runs as a fraction, as reported', 'percent', (r) => r.executionMetrics.failureRate),
  num('durationPerRunSeconds', 'Avg duration', 'Average duration per run', 'duration', (r) => r.executionMetrics.durationPerRunSeconds),
  num('totalExecutionSeconds', 'Total time', 'Total execution time', 'duration', (r) => r.executionMetrics.totalExecutionSeconds),
  num('captchaCount', 'CAPTCHAs', 'CAPTCHAs processed', 'int', (r) => r.resourceUsageMetrics.captchaCount),
  num('simpleTemplateCount', 'Templates', 'Simple template usage', 'int', (r) => r.resourceUsageMetrics.simpleTemplateCount),
  num('proxyIpCount', 'Proxy IPs', 'Proxy IP usage', 'decimal', (r) => r.resourceUsageMetrics.proxyIpCount),
  num('balance', 'Cost', 'Resource cost (balance)', 'decimal', (r) => r.resourceUsageMetrics.balance),
];

const BY_ID = new Map(COLUMNS.map((c) => [c.id, c]));

export function findColumn(id: string): Column | undefined {
  return BY_ID.get(id);
}

/** The text a cell shows. Nulls are DASH, never 0. */
export function formatCell(column: Column, record: AnalyticsRecord): string {
  const v = column.value(record);
  if (v === null) return DASH;
  if (typeof v === 'string') {
    // The bucket column spells out week dates so the table reads alone.
    return column.id === 'dayKey' ? bucketLabel(v, record.weekStartDate, record.weekEndDate) : v;
  }
  switch (column.kind) {
    case 'int': return Number.isInteger(v) ? formatInt(v) : formatDecimal(v);
    case 'percent': return formatPercent(v);
    case 'duration': return formatDuration(v);
    default: return formatDecimal(v);
  }
}

const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });

/**
 * Rows sorted by a column; returns a new array and leaves the input alone. Nulls (and NaN) go
 * last in both directions; ties keep their original order (stable), so a second click is
 * predictable. Keys are read once per row: sorting 10,000 rows stays well inside a frame budget.
 */
export function sortRecords(records: readonly AnalyticsRecord[], sort: SortState | undefined): AnalyticsRecord[] {
  const column = sort ? findColumn(sort.column) : undefined;
  if (!sort || !column) return records.slice();
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = records.map((record, index) => {
    const v = column.value(record);
    const known = typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v));
    return { record, index, v: known ? v : null };
  });
  rankText(keyed);
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      if (a.v === b.v) return a.index - b.index;
      return a.v === null ? 1 : -1;
    }
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : collator.compare(String(a.v), String(b.v));
    return c !== 0 ? sign * c : a.index - b.index;
  });
  return keyed.map((k) => k.record);
}

/**
 * Text keys replaced by their collation rank: each distinct value is collated once, and values the
 * collator calls equal share a rank (so they stay ties, in their original order). A column of
 * 10,000 rows holds far fewer distinct values; comparing numbers instead of collating every pair
 * is what keeps a re-sort inside a frame. Columns that mix text and numbers are left as they are.
 */
function rankText(keyed: { v: string | number | null }[]): void {
  const distinct = new Set<string>();
  for (const k of keyed) {
    if (typeof k.v === 'number') return;
    if (k.v !== null) distinct.add(k.v);
  }
  const ordered = [...distinct].sort(collator.compare);
  const rank = new Map<string, number>();
  let r = 0;
  ordered.forEach((value, i) => {
    if (i > 0 && collator.compare(ordered[i - 1] as string, value) !== 0) r++;
    rank.set(value, r);
  });
  for (const k of keyed) if (typeof k.v === 'string') k.v = rank.get(k.v) ?? 0;
}

/** Clicking a header: a new column sorts ascending; the same column flips direction. */
export function nextSort(current: SortState | undefined, column: string): SortState {
  if (current && current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}
