/** Chart series over date buckets (src/analytics/model/series.ts): grouping, order, week labels, weighting. */
import * as assert from 'node:assert/strict';

import { averageDuration, buildSeries } from '../../src/analytics/model/series';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { blankRecord, oneSuccessfulRun } from '../shared/analyticsRecords';

function rec(
  dayKey: string,
  e: Partial<AnalyticsRecord['executionMetrics']> = {},
  extra: Partial<AnalyticsRecord> = {},
): AnalyticsRecord {
  return blankRecord({
    taskName: 'x',
    dayKey,
    dataVolumeMetrics: { totalCollected: 10, deduplicatedVolume: 9 },
    executionMetrics: { ...oneSuccessfulRun(60), ...e },
    ...extra,
  });
}

describe('analytics chart series', () => {
  it('groups rows by dayKey and sums each bucket', () => {
    const s = buildSeries([
      rec('2026-11-20', { successCount: 2, failureCount: 1 }),
      rec('2026-11-20', { successCount: 3, failureCount: 0 }),
      rec('2026-11-21'),
    ]);
    assert.deepEqual(
      s.map((b) => [b.dayKey, b.successes, b.failures, b.collected, b.deduplicated]),
      [
        ['2026-11-20', 5, 1, 20, 18],
        ['2026-11-21', 1, 0, 10, 9],
      ],
    );
  });

  it('orders buckets in time, whatever the row order', () => {
    const s = buildSeries([rec('2026-11-22'), rec('2026-10-01'), rec('2026-11-03')]);
    assert.deepEqual(
      s.map((b) => b.dayKey),
      ['2026-10-01', '2026-11-03', '2026-11-22'],
    );
  });

  it('orders month buckets', () => {
    assert.deepEqual(
      buildSeries([rec('2026-11'), rec('2026-09'), rec('2026-10')]).map((b) => b.label),
      ['2026-09', '2026-10', '2026-11'],
    );
  });

  it('labels week buckets with their start and end dates and orders them across a year boundary', () => {
    const s = buildSeries([
      rec('2027-W01', {}, { weekStartDate: '2027-01-04', weekEndDate: '2027-01-10' }),
      rec('2026-W53', {}, { weekStartDate: '2026-12-28', weekEndDate: '2027-01-03' }),
      rec('2026-W47', {}, { weekStartDate: '2026-11-16', weekEndDate: '2026-11-22' }),
    ]);
    assert.deepEqual(
      s.map((b) => b.label),
      ['2026-W47 (Nov 16 – Nov 22)', '2026-W53 (Dec 28 – Jan 3)', '2027-W01 (Jan 4 – Jan 10)'],
    );
  });

  it('labels each bucket with the days of it the query asked for, so the charts say what the figures cover', () => {
    const s = buildSeries(
      [
        rec('2026-W48', {}, { weekStartDate: '2026-11-23', weekEndDate: '2026-11-29' }),
        rec('2026-W47', {}, { weekStartDate: '2026-11-16', weekEndDate: '2026-11-22' }),
      ],
      { start: '2026-11-20', end: '2026-11-26' },
    );
    assert.deepEqual(
      s.map((b) => b.label),
      ['2026-W47 (Nov 20 – Nov 22)', '2026-W48 (Nov 23 – Nov 26)'],
    );
  });

  it('keeps a bucket value null when every row in it is null, and a gap is not 0', () => {
    const [b] = buildSeries([
      rec(
        '2026-11-20',
        { successCount: null, failureCount: null, durationPerRunSeconds: null },
        { dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: null } },
      ),
    ]);
    assert.ok(b);
    assert.equal(b.successes, null);
    assert.equal(b.failures, null);
    assert.equal(b.collected, null);
    assert.equal(b.avgDurationSeconds, null);
  });

  it('weights the average duration by runCount', () => {
    // 1 run of 10 s and 3 runs of 50 s: 40 s per run, not the plain mean 30 s.
    assert.equal(
      averageDuration([
        rec('d', { runCount: 1, durationPerRunSeconds: 10 }),
        rec('d', { runCount: 3, durationPerRunSeconds: 50 }),
      ]),
      40,
    );
  });

  it('falls back to the plain mean when no row knows its run count', () => {
    assert.equal(
      averageDuration([
        rec('d', { runCount: null, durationPerRunSeconds: 10 }),
        rec('d', { runCount: null, durationPerRunSeconds: 50 }),
      ]),
      30,
    );
  });

  it('leaves rows without a known duration out of the average', () => {
    assert.equal(
      averageDuration([
        rec('d', { runCount: 5, durationPerRunSeconds: null }),
        rec('d', { runCount: 1, durationPerRunSeconds: 20 }),
      ]),
      20,
    );
  });

  it('gives no buckets for no rows', () => {
    assert.deepEqual(buildSeries([]), []);
  });
});
