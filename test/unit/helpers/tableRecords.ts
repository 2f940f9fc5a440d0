/** Records and columns for the table's unit tests (tableModel.ts, sortOrder.ts). */
import * as assert from 'node:assert/strict';

import { type Column, findColumn } from '../../../src/analytics/model/tableModel';
import type { AnalyticsRecord } from '../../../src/api/schemas/schemas';

/** A record of task `id` with `runCount`, every other figure null unless `extra` says. */
export function rec(id: string, runCount: number | null, extra: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  return {
    taskId: id,
    userId: 'u',
    taskName: `Task ${id}`,
    dayKey: '2026-11-20',
    weekStartDate: null,
    weekEndDate: null,
    collectionMethod: 'Cloud',
    dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: null },
    executionMetrics: {
      runCount,
      successCount: null,
      failureCount: null,
      durationPerRunSeconds: null,
      totalExecutionSeconds: null,
      successRate: null,
      failureRate: null,
    },
    resourceUsageMetrics: { captchaCount: null, simpleTemplateCount: null, proxyIpCount: null, balance: null },
    ...extra,
  };
}

/** The table's column with this id (the test fails if there is none). */
export const col = (id: string): Column => {
  const c = findColumn(id);
  assert.ok(c, id);
  return c;
};
