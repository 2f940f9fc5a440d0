/**
 * A fast path for the one big message: tens of thousands of analytics records. zod (jitless,
 * as the CSP requires) spends ~15 µs per record; this plain check takes a fraction of that.
 * It only ever ACCEPTS what analyticsRecordSchema accepts, producing the same output (unit
 * tested against the schema); anything it is unsure of returns undefined and zod decides,
 * with zod's error message.
 */
import { isDay } from '../api/dates';
import type { AnalyticsRecord } from '../api/schemas';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** number (finite) -> itself; null/undefined -> null; anything else -> undefined (refuse). */
export function metric(v: unknown): number | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A yyyy-MM-dd day -> itself; null/undefined -> null; anything else -> undefined (refuse). */
export function day(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' && isDay(v) ? v : undefined;
}

function metrics<K extends string>(v: unknown, keys: readonly K[]): Record<K, number | null> | undefined {
  if (!isObj(v)) return undefined;
  const out = {} as Record<K, number | null>;
  for (const k of keys) {
    const m = metric(v[k]);
    if (m === undefined) return undefined;
    out[k] = m;
  }
  return out;
}

const VOLUME = ['totalCollected', 'deduplicatedVolume'] as const;
const EXECUTION = ['runCount', 'successCount', 'failureCount', 'durationPerRunSeconds', 'totalExecutionSeconds', 'successRate', 'failureRate'] as const;
const RESOURCES = ['captchaCount', 'simpleTemplateCount', 'proxyIpCount', 'balance'] as const;

export function fastRecord(v: unknown): AnalyticsRecord | undefined {
  if (!isObj(v)) return undefined;
  const { taskId, userId, taskName, dayKey, collectionMethod } = v;
  if (typeof taskId !== 'string' || typeof userId !== 'string' || typeof dayKey !== 'string') return undefined;
  if (collectionMethod !== 'Cloud' && collectionMethod !== 'Local') return undefined;
  if (taskName !== null && taskName !== undefined && typeof taskName !== 'string') return undefined;
  const weekStartDate = day(v.weekStartDate);
  const weekEndDate = day(v.weekEndDate);
  if (weekStartDate === undefined || weekEndDate === undefined) return undefined;
  const dataVolumeMetrics = metrics(v.dataVolumeMetrics, VOLUME);
  const executionMetrics = metrics(v.executionMetrics, EXECUTION);
  const resourceUsageMetrics = metrics(v.resourceUsageMetrics, RESOURCES);
  if (!dataVolumeMetrics || !executionMetrics || !resourceUsageMetrics) return undefined;
  return {
    taskId, userId, taskName: taskName ?? null, dayKey, weekStartDate, weekEndDate, collectionMethod,
    dataVolumeMetrics, executionMetrics, resourceUsageMetrics,
  };
}

/** Every record, or undefined as soon as one is not plainly valid (zod then explains). */
export function fastRecords(v: unknown): AnalyticsRecord[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: AnalyticsRecord[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const r = fastRecord(v[i]);
    if (!r) return undefined;
    out[i] = r;
  }
  return out;
}
