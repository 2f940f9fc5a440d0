/**
 * The analytics table as data: every record field as a column (from the field table,
 * recordFields.ts), how each is formatted, and how rows sort (ascending or descending, nulls
 * always last). Pure, so it is unit-tested in Node and the page only turns it into HTML.
 */
import type { AnalyticsRecord } from '../api/schemas';
import { DASH, bucketLabel, formatDecimal, formatDuration, formatInt, formatPercent } from './format';
import { RECORD_FIELDS, isMetricKind, type MetricKind, type RecordField } from './recordFields';

export type ColumnKind = 'text' | MetricKind;
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

/** The task as people know it: its name, or its id when the name is not reported. */
const TASK_COLUMN: Column = {
  id: 'task', header: 'Task', title: 'Task name, or the task id when the name is not known', kind: 'text', value: (r) => r.taskName ?? r.taskId,
};

function fieldColumn(f: RecordField): Column {
  return { id: f.key, header: f.label, title: f.title, kind: isMetricKind(f.kind) ? f.kind : 'text', value: f.get };
}

/** The task column, then every record field the table shows, in the field table's column order. */
export const COLUMNS: readonly Column[] = [
  TASK_COLUMN,
  ...RECORD_FIELDS.filter((f) => f.column !== undefined)
    .sort((a, b) => (a.column ?? 0) - (b.column ?? 0))
    .map(fieldColumn),
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
