/** Records and columns for the table's unit tests (tableModel.ts, sortOrder.ts). */
import * as assert from 'node:assert/strict';

import { type Column, findColumn } from '../../../src/analytics/model/tableModel';
import type { AnalyticsRecord } from '../../../src/api/schemas/schemas';
import { blankRecord, UNKNOWN_EXECUTION } from '../../shared/analyticsRecords';

/** A record of task `id` with `runCount`, every other figure null unless `extra` says. */
export function rec(id: string, runCount: number | null, extra: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  return blankRecord({
    taskId: id,
    taskName: `Task ${id}`,
    executionMetrics: { ...UNKNOWN_EXECUTION, runCount },
    ...extra,
  });
}

/** The table's column with this id (the test fails if there is none). */
export const col = (id: string): Column => {
  const c = findColumn(id);
  assert.ok(c, id);
  return c;
};
