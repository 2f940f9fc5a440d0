/**
 * The task-analytics shapes of the spec (query, record, page), which the analytics page parses
 * too. Written with zod/mini: the page's bundle carries only the parts of zod these use (a third
 * of zod's full API), while the host composes them into its envelopes like any zod schema.
 * schemas.ts re-exports everything here.
 */
import * as z from 'zod/mini';

import { isDay } from './dates';
import { textValueProblem } from './headerValues';

/** A `yyyy-MM-dd` that names a real calendar day. */
export const daySchema = z.string().check(z.refine(isDay, { message: 'must be a date as yyyy-MM-dd' }));

/** A nullable metric: null and absent both mean "not known", which is not 0. */
const metric = z.pipe(
  z.nullish(z.number()),
  z.transform((v: number | null | undefined) => v ?? null),
);
/** A nullable text (its bounds in `inner`); absent reads as null. */
const nullableText = (inner: z.ZodMiniType<string, string>) =>
  z.pipe(
    z.nullish(inner),
    z.transform((v: string | null | undefined) => v ?? null),
  );

export const ANALYTICS_LIMITS = {
  pageSizeMin: 1,
  pageSizeMax: 100,
  pageSizeDefault: 20,
  pageDefault: 1,
  maxTaskIds: 100,
  maxMemberNames: 100,
  /** Not the spec's: no real id or name comes near these, and they bound what one item can cost. */
  maxTaskIdLength: 128,
  maxMemberNameLength: 256,
} as const;

export const collectionMethodSchema = z.enum(['Cloud', 'Local']);
export type CollectionMethod = z.infer<typeof collectionMethodSchema>;
export const collectionMethodFilterSchema = z.enum(['Cloud', 'Local', 'All']);
export type CollectionMethodFilter = z.infer<typeof collectionMethodFilterSchema>;
export const timeGranularitySchema = z.enum(['Day', 'Week', 'Month']);
export type TimeGranularity = z.infer<typeof timeGranularitySchema>;

const L = ANALYTICS_LIMITS;

/**
 * The request body of `POST /taskanalytics/queries`, with every static constraint of the spec.
 * The rules that depend on today's date live in `analyticsQuery.ts` (they need a clock).
 */
export const analyticsQuerySchema = z.object({
  start: daySchema,
  end: daySchema,
  page: z.optional(z.int().check(z.minimum(1))),
  pageSize: z.optional(z.int().check(z.minimum(L.pageSizeMin), z.maximum(L.pageSizeMax))),
  taskIds: z.optional(
    z.array(z.string().check(z.minLength(1), z.maxLength(L.maxTaskIdLength))).check(z.maxLength(L.maxTaskIds)),
  ),
  memberNames: z.optional(
    z
      .array(
        z.string().check(
          z.minLength(1),
          z.maxLength(L.maxMemberNameLength),
          z.refine((v) => textValueProblem(v, 'A member name') === undefined, {
            message: 'A member name may not contain control characters',
          }),
        ),
      )
      .check(z.maxLength(L.maxMemberNames)),
  ),
  collectionMethod: z.optional(collectionMethodFilterSchema),
  timeGranularity: z.optional(timeGranularitySchema),
});
export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

export const dataVolumeMetricsSchema = z.object({
  totalCollected: metric,
  deduplicatedVolume: metric,
});
export const executionMetricsSchema = z.object({
  runCount: metric,
  successCount: metric,
  failureCount: metric,
  durationPerRunSeconds: metric,
  totalExecutionSeconds: metric,
  successRate: metric,
  failureRate: metric,
});
export const resourceUsageMetricsSchema = z.object({
  captchaCount: metric,
  simpleTemplateCount: metric,
  proxyIpCount: metric,
  balance: metric,
});

/**
 * Longest text an analytics record may hold, per field. Not the spec's: far above any real id,
 * name or date bucket, so one oversized record (a megabyte task name in a reply or a page
 * message) is refused whole instead of being stored, drawn or exported. The record-field table
 * (analytics/model/recordFields.ts) carries these to the page's fast path.
 */
export const ANALYTICS_RECORD_LIMITS = {
  taskId: ANALYTICS_LIMITS.maxTaskIdLength,
  userId: 128,
  taskName: 300,
  dayKey: 64,
} as const;
const R = ANALYTICS_RECORD_LIMITS;

export const analyticsRecordSchema = z.object({
  taskId: z.string().check(z.maxLength(R.taskId)),
  userId: z.string().check(z.maxLength(R.userId)),
  taskName: nullableText(z.string().check(z.maxLength(R.taskName))),
  dayKey: z.string().check(z.maxLength(R.dayKey)),
  weekStartDate: nullableText(daySchema),
  weekEndDate: nullableText(daySchema),
  collectionMethod: collectionMethodSchema,
  dataVolumeMetrics: dataVolumeMetricsSchema,
  executionMetrics: executionMetricsSchema,
  resourceUsageMetrics: resourceUsageMetricsSchema,
});
export type AnalyticsRecord = z.infer<typeof analyticsRecordSchema>;

/** One page of an analytics answer; `maxRecords` bounds what a page message may carry. */
export function analyticsPageOf(maxRecords?: number) {
  const data = z.array(analyticsRecordSchema);
  return z.object({
    total: z.int().check(z.nonnegative()),
    data: maxRecords === undefined ? data : data.check(z.maxLength(maxRecords)),
  });
}
export const analyticsPageSchema = analyticsPageOf();
export type AnalyticsPage = z.infer<typeof analyticsPageSchema>;
