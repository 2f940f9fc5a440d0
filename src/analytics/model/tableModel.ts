/**
 * The analytics table as data: every record field as a column (from the field table,
 * recordFields.ts), how each is formatted, and how rows sort (ascending or descending, nulls
 * always last). Pure, so it is unit-tested in Node and the page only turns it into HTML.
 */
import type { AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
import {
  bucketLabel,
  DASH,
  type DayRange,
  formatDecimal,
  formatDuration,
  formatInt,
  formatPercent,
  formatShares,
} from './format';
import { isMetricKind, type MetricKind, RECORD_FIELDS, type RecordField } from './recordFields';
import { type SortDirection, sortOrdersFor } from './sortOrder';

export type ColumnKind = 'text' | MetricKind;
export type { SortDirection } from './sortOrder';
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
  id: 'task',
  header: 'Task',
  title: 'Task name, or the task id when the name is not known',
  kind: 'text',
  value: (r) => r.taskName ?? r.taskId,
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

/** Columns that say something only for one granularity: the week's dates, for Week. */
const WEEK_COLUMNS: ReadonlySet<string> = new Set(['weekStartDate', 'weekEndDate']);

/**
 * The columns a result of this granularity shows: a Day or Month query leaves out the week's
 * start and end, which would read "—" on every row. Unknown (no result yet): all of them.
 */
export function shownColumns(granularity: string | undefined): readonly Column[] {
  return granularity === undefined || granularity === 'Week' ? COLUMNS : COLUMNS.filter((c) => !WEEK_COLUMNS.has(c.id));
}

/** The 1-based positions of the week columns in a row (the page's stylesheet hides them by position). */
export function weekColumnPositions(): number[] {
  return COLUMNS.flatMap((c, i) => (WEEK_COLUMNS.has(c.id) ? [i + 1] : []));
}

export function findColumn(id: string): Column | undefined {
  return BY_ID.get(id);
}

/** Shares of one whole, shown side by side: rounded together, so they add up to 100% (formatShares). */
const SHARE_COLUMNS: readonly string[] = ['successRate', 'failureRate'];

const numberOf = (v: string | number | null | undefined): number | null => (typeof v === 'number' ? v : null);

/** The text a cell shows. Nulls are DASH, never 0. `range`: the query's days (see bucketLabel). */
export function formatCell(column: Column, record: AnalyticsRecord, range?: DayRange): string {
  const v = column.value(record);
  if (v === null) return DASH;
  if (typeof v === 'string') {
    // The bucket column spells out the days it covers so the table reads alone.
    return column.id === 'dayKey' ? bucketLabel(v, record.weekStartDate, record.weekEndDate, range) : v;
  }
  switch (column.kind) {
    case 'int':
      return Number.isInteger(v) ? formatInt(v) : formatDecimal(v);
    case 'percent': {
      const shares = SHARE_COLUMNS.includes(column.id)
        ? formatShares(SHARE_COLUMNS.map((id) => numberOf(BY_ID.get(id)?.value(record))))
        : undefined;
      return shares?.[SHARE_COLUMNS.indexOf(column.id)] ?? formatPercent(v);
    }
    case 'duration':
      return formatDuration(v);
    default:
      return formatDecimal(v);
  }
}

/**
 * Rows sorted by a column; returns a new array and leaves the input alone. Nulls (and NaN) go
 * last in both directions; ties keep their original order (stable), so a second click is
 * predictable. The order comes from sortOrder.ts (computed once per result and column, cached).
 */
export function sortRecords(records: readonly AnalyticsRecord[], sort: SortState | undefined): AnalyticsRecord[] {
  const order = sortedOrder(records, sort);
  if (!order) return records.slice();
  const out = new Array<AnalyticsRecord>(order.length);
  for (let i = 0; i < order.length; i++) out[i] = records[order[i] as number] as AnalyticsRecord;
  return out;
}

/**
 * The row indexes of `records` in the sort's order (shared and cached: do not write to it);
 * undefined when there is no sort or its column is unknown (the rows keep their order).
 */
export function sortedOrder(records: readonly AnalyticsRecord[], sort: SortState | undefined): Uint32Array | undefined {
  const column = sort ? findColumn(sort.column) : undefined;
  if (!sort || !column) return undefined;
  return sortOrdersFor(records).order(column, sort.direction);
}

/** Clicking a header: a new column sorts ascending; the same column flips direction. */
export function nextSort(current: SortState | undefined, column: string): SortState {
  if (current && current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}
