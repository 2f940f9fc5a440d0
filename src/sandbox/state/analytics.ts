/**
 * Answers an already-validated analytics query from the precomputed daily records: filter,
 * bucket (Week/Month), sort stably by (dayKey, taskId, collectionMethod), page.
 */
import { type DayNumber, parseDay } from '../../api/schemas/dates';
import type { AnalyticsRecord, CollectionMethodFilter, TimeGranularity } from '../../api/schemas/schemas';
import type { DailyRecord, Metrics } from '../seed/records';
import { type Bucket, bucketOf, combineMetrics } from './aggregate';

export interface RecordQuery {
  /** userIds whose records count (the caller, or the named team members). */
  userIds: string[];
  start: string;
  end: string;
  taskIds?: string[];
  collectionMethod: CollectionMethodFilter;
  timeGranularity: TimeGranularity;
  page: number;
  pageSize: number;
}

export interface RecordPage {
  total: number;
  data: AnalyticsRecord[];
}

/** Daily records per userId, each list sorted by (day, taskId, method). */
export type RecordStore = Map<string, DailyRecord[]>;

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function firstIndexAtOrAfter(records: DailyRecord[], day: DayNumber): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as DailyRecord).day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function filtered(store: RecordStore, q: RecordQuery): DailyRecord[] {
  const from = parseDay(q.start) as DayNumber;
  const to = parseDay(q.end) as DayNumber;
  // taskIds of other accounts simply match nothing: no rows, not an error.
  const taskIds = q.taskIds && q.taskIds.length > 0 ? new Set(q.taskIds) : null;
  const out: DailyRecord[] = [];
  for (const userId of new Set(q.userIds)) {
    const records = store.get(userId) ?? [];
    for (let i = firstIndexAtOrAfter(records, from); i < records.length; i++) {
      const r = records[i] as DailyRecord;
      if (r.day > to) break;
      if (taskIds && !taskIds.has(r.taskId)) continue;
      if (q.collectionMethod !== 'All' && r.method !== q.collectionMethod) continue;
      out.push(r);
    }
  }
  if (q.userIds.length > 1) out.sort((a, b) => a.day - b.day || cmp(a.taskId, b.taskId) || cmp(a.method, b.method));
  return out;
}

function toRecord(r: DailyRecord, bucket: Bucket, m: Metrics): AnalyticsRecord {
  return {
    taskId: r.taskId,
    userId: r.userId,
    taskName: r.taskName,
    dayKey: bucket.dayKey,
    weekStartDate: bucket.weekStartDate,
    weekEndDate: bucket.weekEndDate,
    collectionMethod: r.method,
    dataVolumeMetrics: { totalCollected: m.totalCollected, deduplicatedVolume: m.deduplicatedVolume },
    executionMetrics: {
      runCount: m.runCount,
      successCount: m.successCount,
      failureCount: m.failureCount,
      durationPerRunSeconds: m.durationPerRunSeconds,
      totalExecutionSeconds: m.totalExecutionSeconds,
      successRate: m.successRate,
      failureRate: m.failureRate,
    },
    resourceUsageMetrics: {
      captchaCount: m.captchaCount,
      simpleTemplateCount: m.simpleTemplateCount,
      proxyIpCount: m.proxyIpCount,
      balance: m.balance,
    },
  };
}

interface Row {
  first: DailyRecord;
  bucket: Bucket;
  items: Metrics[];
}

/** Every row of a query before paging, in order. */
function allRows(store: RecordStore, q: RecordQuery): Row[] {
  const rows = filtered(store, q);
  if (q.timeGranularity === 'Day')
    return rows.map((r) => ({ first: r, bucket: bucketOf(r.date, 'Day'), items: [r.metrics] }));
  // Rows were filtered to [start, end] first, so a week or month cut by the range only sums its days inside it.
  const buckets = new Map<string, Bucket>(); // per date: ~90 dates, not one ISO-week computation per record
  const groups = new Map<string, Row>();
  for (const r of rows) {
    let bucket = buckets.get(r.date);
    if (!bucket) buckets.set(r.date, (bucket = bucketOf(r.date, q.timeGranularity)));
    const key = `${bucket.dayKey}|${r.taskId}|${r.method}`;
    const g = groups.get(key);
    if (g) g.items.push(r.metrics);
    else groups.set(key, { first: r, bucket, items: [r.metrics] });
  }
  return [...groups.values()].sort(
    (a, b) =>
      cmp(a.bucket.dayKey, b.bucket.dayKey) ||
      cmp(a.first.taskId, b.first.taskId) ||
      cmp(a.first.method, b.first.method),
  );
}

const CACHE_SIZE = 16;

/**
 * A query function over one store. Paging through a result asks the same query many times, so the
 * rows before paging are kept for the last few queries (records never change once generated).
 */
export function recordQuery(store: RecordStore): (q: RecordQuery) => RecordPage {
  const cache = new Map<string, Row[]>();
  return (q) => {
    const key = JSON.stringify([q.userIds, q.start, q.end, q.taskIds ?? null, q.collectionMethod, q.timeGranularity]);
    let rows = cache.get(key);
    if (rows) cache.delete(key);
    else rows = allRows(store, q);
    cache.set(key, rows); // most recent last
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    const offset = (q.page - 1) * q.pageSize;
    const data = rows
      .slice(offset, offset + q.pageSize)
      .map((g) => toRecord(g.first, g.bucket, combineMetrics(g.items)));
    return { total: rows.length, data };
  };
}
