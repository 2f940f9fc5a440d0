/**
 * The one table of the analytics record's 20 fields: where each sits in the record (path), how
 * it is read (get), what kind of value it holds (kind: the wire check and the table format
 * follow from it) and how people see it named (label, title). The CSV columns, the packed wire
 * rows, their fast checks and the table's columns are all derived from it, so a field is added
 * or renamed here once.
 *
 * Order: the spec's (top-level fields, then each metrics group), which is the CSV's column order
 * and the packed row's value order. `column` is the field's place in the on-screen table, which
 * reads the rates next to the counts they come from.
 */
import { ANALYTICS_RECORD_LIMITS, type AnalyticsRecord } from '../../api/schemas/analyticsSchemas';

export type MetricGroup = 'dataVolumeMetrics' | 'executionMetrics' | 'resourceUsageMetrics';
type TopKey = Exclude<keyof AnalyticsRecord, MetricGroup>;
type MetricKey<G extends MetricGroup> = keyof AnalyticsRecord[G] & string;
export type RecordPath = TopKey | { [G in MetricGroup]: `${G}.${MetricKey<G>}` }[MetricGroup];

/** How a metric reads: a count, a plain decimal, a 0..1 fraction, or seconds. */
export type MetricKind = 'int' | 'decimal' | 'percent' | 'duration';
/**
 * text: a string that is always there; name: a string or null; day: yyyy-MM-dd or null;
 * method: 'Cloud' or 'Local'; a metric kind: a finite number or null.
 */
export type FieldKind = 'text' | 'name' | 'day' | 'method' | MetricKind;

export type FieldValue = string | number | null;

export interface RecordField {
  readonly path: RecordPath;
  /** The metrics group holding the field; undefined at the top level. */
  readonly group: MetricGroup | undefined;
  /** The field's own name: its key in the record (or in its group) and its table column id. */
  readonly key: string;
  readonly kind: FieldKind;
  /** Short name: the table header. */
  readonly label: string;
  /** Longer name: the header's tooltip. */
  readonly title: string;
  /** Position in the on-screen table (0 is the task column); undefined when another column shows it. */
  readonly column: number | undefined;
  /** Longest string the field may hold (text and name kinds; the schema's bound); undefined for the others. */
  readonly max: number | undefined;
  readonly get: (record: AnalyticsRecord) => FieldValue;
}

function top(
  key: TopKey,
  kind: 'text' | 'name' | 'day' | 'method',
  label: string,
  title: string,
  column: number | undefined,
): RecordField {
  const max = (ANALYTICS_RECORD_LIMITS as Partial<Record<TopKey, number>>)[key];
  return { path: key, group: undefined, key, kind, label, title, column, max, get: (r) => r[key] };
}

function metric<G extends MetricGroup>(
  group: G,
  key: MetricKey<G>,
  kind: MetricKind,
  label: string,
  title: string,
  column: number,
): RecordField {
  const path = `${group}.${key}` as RecordPath;
  return {
    path,
    group,
    key,
    kind,
    label,
    title,
    column,
    max: undefined,
    get: (r) => (r[group] as Record<string, number | null>)[key] ?? null,
  };
}

export const RECORD_FIELDS: readonly RecordField[] = [
  top('taskId', 'text', 'Task ID', 'Task id', 1),
  top('userId', 'text', 'User ID', 'User id', 2),
  top('taskName', 'name', 'Task', 'Task name', undefined),
  top('dayKey', 'text', 'Date bucket', 'Day, year-week (with its dates) or month', 3),
  top('weekStartDate', 'day', 'Week start', 'Start of the week (Week granularity)', 4),
  top('weekEndDate', 'day', 'Week end', 'End of the week (Week granularity)', 5),
  top('collectionMethod', 'method', 'Method', 'Collection method: Cloud or Local', 6),
  metric('dataVolumeMetrics', 'totalCollected', 'int', 'Collected', 'Total records collected', 7),
  metric('dataVolumeMetrics', 'deduplicatedVolume', 'int', 'After dedup', 'Records remaining after deduplication', 8),
  metric('executionMetrics', 'runCount', 'int', 'Runs', 'Total runs', 9),
  metric('executionMetrics', 'successCount', 'int', 'Successes', 'Successful runs', 10),
  metric('executionMetrics', 'failureCount', 'int', 'Failures', 'Failed runs', 11),
  metric('executionMetrics', 'durationPerRunSeconds', 'duration', 'Avg duration', 'Average duration per run', 14),
  metric('executionMetrics', 'totalExecutionSeconds', 'duration', 'Total time', 'Total execution time', 15),
  metric(
    'executionMetrics',
    'successRate',
    'percent',
    'Success rate',
    'Successful runs as a fraction, as reported',
    12,
  ),
  metric('executionMetrics', 'failureRate', 'percent', 'Failure rate', 'Failed runs as a fraction, as reported', 13),
  metric('resourceUsageMetrics', 'captchaCount', 'int', 'CAPTCHAs', 'CAPTCHAs processed', 16),
  metric('resourceUsageMetrics', 'simpleTemplateCount', 'int', 'Templates', 'Simple template usage', 17),
  metric(
    'resourceUsageMetrics',
    'proxyIpCount',
    'decimal',
    'Proxy IP usage',
    'Proxy IP usage as the service reports it, in its own unit (not a number of addresses)',
    18,
  ),
  metric('resourceUsageMetrics', 'balance', 'decimal', 'Cost', 'Resource cost (balance)', 19),
];

export function isMetricKind(kind: FieldKind): kind is MetricKind {
  return kind === 'int' || kind === 'decimal' || kind === 'percent' || kind === 'duration';
}

/** The record's shape with every field holding a V. */
export type RecordShape<V> = { [K in TopKey]: V } & { [G in MetricGroup]: { [K in MetricKey<G>]: V } };

/**
 * The record whose i-th field (in RECORD_FIELDS order) is values[i], unchecked. The one place the
 * record's shape is spelled out, as an object literal on purpose: the page builds 10,000 of these
 * per result, and in Chromium literals with constant positions take ~1.8 ms where objects filled
 * key by key from the table take ~11 ms. The compiler holds it to the record's shape; a unit test
 * holds its positions to RECORD_FIELDS (recordFields.test.ts).
 */
export function recordFromValues<V>(v: readonly V[]): RecordShape<V> {
  const x = v as V[];
  return {
    taskId: x[0] as V,
    userId: x[1] as V,
    taskName: x[2] as V,
    dayKey: x[3] as V,
    weekStartDate: x[4] as V,
    weekEndDate: x[5] as V,
    collectionMethod: x[6] as V,
    dataVolumeMetrics: { totalCollected: x[7] as V, deduplicatedVolume: x[8] as V },
    executionMetrics: {
      runCount: x[9] as V,
      successCount: x[10] as V,
      failureCount: x[11] as V,
      durationPerRunSeconds: x[12] as V,
      totalExecutionSeconds: x[13] as V,
      successRate: x[14] as V,
      failureRate: x[15] as V,
    },
    resourceUsageMetrics: {
      captchaCount: x[16] as V,
      simpleTemplateCount: x[17] as V,
      proxyIpCount: x[18] as V,
      balance: x[19] as V,
    },
  };
}
