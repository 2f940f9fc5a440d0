/**
 * The wire form of many analytics records: each record as one flat array of its 20 values, in
 * PACKED_FIELDS order. Crossing into a webview costs a structured clone (and, in VS Code, a JSON
 * trip between processes); 10,000 records as nested objects clone in 50–100 ms, as flat arrays
 * in about a quarter of that, and they are a third of the size.
 *
 * The page validates a packed row directly (fastPackedRecord: fastRecord's rules and helpers, never looser than analyticsRecordSchema, unit-tested against it); when unsure, the
 * rows are unpacked as they are and zod decides, naming the field.
 */
import type { AnalyticsRecord } from '../api/schemas';
import { day, metric } from './fast-records';

/** Record fields in packed order: top-level first, then each metrics group's fields. */
export const PACKED_FIELDS = [
  'taskId', 'userId', 'taskName', 'dayKey', 'weekStartDate', 'weekEndDate', 'collectionMethod',
  'dataVolumeMetrics.totalCollected', 'dataVolumeMetrics.deduplicatedVolume',
  'executionMetrics.runCount', 'executionMetrics.successCount', 'executionMetrics.failureCount',
  'executionMetrics.durationPerRunSeconds', 'executionMetrics.totalExecutionSeconds',
  'executionMetrics.successRate', 'executionMetrics.failureRate',
  'resourceUsageMetrics.captchaCount', 'resourceUsageMetrics.simpleTemplateCount',
  'resourceUsageMetrics.proxyIpCount', 'resourceUsageMetrics.balance',
] as const;

export type PackedRecord = (string | number | null)[];

export function packRecord(r: AnalyticsRecord): PackedRecord {
  const v = r.dataVolumeMetrics;
  const e = r.executionMetrics;
  const u = r.resourceUsageMetrics;
  return [
    r.taskId, r.userId, r.taskName, r.dayKey, r.weekStartDate, r.weekEndDate, r.collectionMethod,
    v.totalCollected, v.deduplicatedVolume,
    e.runCount, e.successCount, e.failureCount, e.durationPerRunSeconds, e.totalExecutionSeconds, e.successRate, e.failureRate,
    u.captchaCount, u.simpleTemplateCount, u.proxyIpCount, u.balance,
  ];
}

/**
 * A row back in record shape, unchecked (zod checks it next); anything that is not an array of
 * PACKED_FIELDS.length values is passed on as it is, for zod to refuse by its index.
 */
export function unpackRecord(row: unknown): unknown {
  if (!Array.isArray(row) || row.length !== PACKED_FIELDS.length) return row;
  const a = row as unknown[];
  return {
    taskId: a[0], userId: a[1], taskName: a[2], dayKey: a[3], weekStartDate: a[4], weekEndDate: a[5], collectionMethod: a[6],
    dataVolumeMetrics: { totalCollected: a[7], deduplicatedVolume: a[8] },
    executionMetrics: {
      runCount: a[9], successCount: a[10], failureCount: a[11], durationPerRunSeconds: a[12],
      totalExecutionSeconds: a[13], successRate: a[14], failureRate: a[15],
    },
    resourceUsageMetrics: { captchaCount: a[16], simpleTemplateCount: a[17], proxyIpCount: a[18], balance: a[19] },
  };
}

/** A packed row as a record when it is plainly valid; undefined when zod must decide. */
export function fastPackedRecord(row: unknown): AnalyticsRecord | undefined {
  if (!Array.isArray(row) || row.length !== PACKED_FIELDS.length) return undefined;
  const a = row as unknown[];
  const [taskId, userId, taskName, dayKey, , , collectionMethod] = a;
  if (typeof taskId !== 'string' || typeof userId !== 'string' || typeof dayKey !== 'string') return undefined;
  if (collectionMethod !== 'Cloud' && collectionMethod !== 'Local') return undefined;
  if (taskName !== null && taskName !== undefined && typeof taskName !== 'string') return undefined;
  const weekStartDate = day(a[4]);
  const weekEndDate = day(a[5]);
  if (weekStartDate === undefined || weekEndDate === undefined) return undefined;
  const m: (number | null)[] = new Array<number | null>(13);
  for (let i = 7; i < 20; i++) {
    const value = metric(a[i]);
    if (value === undefined) return undefined;
    m[i - 7] = value;
  }
  return {
    taskId, userId, taskName: taskName ?? null, dayKey, weekStartDate, weekEndDate, collectionMethod,
    dataVolumeMetrics: { totalCollected: m[0] ?? null, deduplicatedVolume: m[1] ?? null },
    executionMetrics: {
      runCount: m[2] ?? null, successCount: m[3] ?? null, failureCount: m[4] ?? null, durationPerRunSeconds: m[5] ?? null,
      totalExecutionSeconds: m[6] ?? null, successRate: m[7] ?? null, failureRate: m[8] ?? null,
    },
    resourceUsageMetrics: { captchaCount: m[9] ?? null, simpleTemplateCount: m[10] ?? null, proxyIpCount: m[11] ?? null, balance: m[12] ?? null },
  };
}

/** Every row as a record, or undefined as soon as one is not plainly valid. */
export function fastPackedRecords(rows: unknown): AnalyticsRecord[] | undefined {
  if (!Array.isArray(rows)) return undefined;
  const out: AnalyticsRecord[] = new Array<AnalyticsRecord>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = fastPackedRecord(rows[i]);
    if (!r) return undefined;
    out[i] = r;
  }
  return out;
}
