/** Analytics records for the tests: one with every figure unknown, and the parts tests vary on it. */
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';

type Execution = AnalyticsRecord['executionMetrics'];
type Resources = AnalyticsRecord['resourceUsageMetrics'];

/** Execution figures the service did not report (null is unknown, never 0). */
export const UNKNOWN_EXECUTION: Readonly<Execution> = {
  runCount: null,
  successCount: null,
  failureCount: null,
  durationPerRunSeconds: null,
  totalExecutionSeconds: null,
  successRate: null,
  failureRate: null,
};

export const UNKNOWN_RESOURCES: Readonly<Resources> = {
  captchaCount: null,
  simpleTemplateCount: null,
  proxyIpCount: null,
  balance: null,
};

/** The days of ISO week 47 of 2026, as a weekly record names them. */
export const WEEK_47 = { dayKey: '2026-W47', weekStartDate: '2026-11-16', weekEndDate: '2026-11-22' } as const;

/** One run that succeeded and took `seconds`. */
export function oneSuccessfulRun(seconds: number): Execution {
  return {
    runCount: 1,
    successCount: 1,
    failureCount: 0,
    durationPerRunSeconds: seconds,
    totalExecutionSeconds: seconds,
    successRate: 1,
    failureRate: 0,
  };
}

/** Task `t` of user `u` on 2026-11-20 (a daily record, cloud), every figure unknown unless `overrides` says. */
export function blankRecord(overrides: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  return {
    taskId: 't',
    userId: 'u',
    taskName: null,
    dayKey: '2026-11-20',
    weekStartDate: null,
    weekEndDate: null,
    collectionMethod: 'Cloud',
    dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: null },
    executionMetrics: { ...UNKNOWN_EXECUTION },
    resourceUsageMetrics: { ...UNKNOWN_RESOURCES },
    ...overrides,
  };
}

/** Task t-1 "Prices" on 2026-11-20: four runs, one failed, every figure known. */
export function pricesRecord(overrides: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  return {
    taskId: 't-1',
    userId: 'u-1',
    taskName: 'Prices',
    dayKey: '2026-11-20',
    weekStartDate: null,
    weekEndDate: null,
    collectionMethod: 'Cloud',
    dataVolumeMetrics: { totalCollected: 1200, deduplicatedVolume: 1100 },
    executionMetrics: {
      runCount: 4,
      successCount: 3,
      failureCount: 1,
      durationPerRunSeconds: 90,
      totalExecutionSeconds: 360,
      successRate: 0.75,
      failureRate: 0.25,
    },
    resourceUsageMetrics: { captchaCount: 2, simpleTemplateCount: 1, proxyIpCount: 3, balance: 1.5 },
    ...overrides,
  };
}
