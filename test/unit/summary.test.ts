/** Summary figures over the rows fetched (src/analytics/model/summary.ts): nulls are unknown, never 0. */
import * as assert from 'node:assert/strict';

import { sumKnown, summarize } from '../../src/analytics/model/summary';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { blankRecord, UNKNOWN_EXECUTION, UNKNOWN_RESOURCES } from '../shared/analyticsRecords';

function rec(
  e: Partial<AnalyticsRecord['executionMetrics']> = {},
  d: Partial<AnalyticsRecord['dataVolumeMetrics']> = {},
  r: Partial<AnalyticsRecord['resourceUsageMetrics']> = {},
): AnalyticsRecord {
  return blankRecord({
    dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: null, ...d },
    executionMetrics: { ...UNKNOWN_EXECUTION, ...e },
    resourceUsageMetrics: { ...UNKNOWN_RESOURCES, ...r },
  });
}

describe('analytics summary', () => {
  it('sums the known values of every figure', () => {
    const s = summarize([
      rec(
        { runCount: 4, successCount: 3, failureCount: 1, totalExecutionSeconds: 100 },
        { totalCollected: 10, deduplicatedVolume: 8 },
        { proxyIpCount: 1.5, captchaCount: 2, balance: 0.25 },
      ),
      rec(
        { runCount: 6, successCount: 6, failureCount: 0, totalExecutionSeconds: 50 },
        { totalCollected: 5, deduplicatedVolume: 5 },
        { proxyIpCount: 0.5, captchaCount: 0, balance: 0.5 },
      ),
    ]);
    assert.deepEqual(
      { ...s },
      {
        rows: 2,
        runs: 10,
        successes: 9,
        failures: 1,
        successRate: 0.9,
        successRateRows: 2,
        collected: 15,
        deduplicated: 13,
        totalExecutionSeconds: 150,
        proxyIps: 2,
        captchas: 2,
        cost: 0.75,
      },
    );
  });

  it('gives null (not 0) for a figure whose inputs are all null', () => {
    const s = summarize([rec(), rec()]);
    for (const key of [
      'runs',
      'successes',
      'failures',
      'successRate',
      'collected',
      'deduplicated',
      'totalExecutionSeconds',
      'proxyIps',
      'captchas',
      'cost',
    ] as const) {
      assert.equal(s[key], null, key);
    }
    assert.equal(s.rows, 2);
    assert.equal(s.successRateRows, 0);
  });

  it('keeps real zeros as zeros', () => {
    const s = summarize([rec({ failureCount: 0 }, {}, { captchaCount: 0 })]);
    assert.equal(s.failures, 0);
    assert.equal(s.captchas, 0);
  });

  it('ignores nulls among known values instead of counting them as 0', () => {
    const s = summarize([rec({ runCount: 3 }), rec({ runCount: null }), rec({ runCount: 2 })]);
    assert.equal(s.runs, 5);
  });

  it('computes the success rate only over rows that report both runs and successes', () => {
    const s = summarize([
      rec({ runCount: 10, successCount: 5 }),
      rec({ runCount: 10, successCount: null }), // no successes known: left out entirely
      rec({ runCount: null, successCount: 7 }), // no runs known: left out entirely
    ]);
    assert.equal(s.successRate, 0.5);
    assert.equal(s.successRateRows, 1);
    assert.equal(s.runs, 20, 'runs still sums every known runCount');
  });

  it('has no success rate when the rows that report both ran zero times (0/0 is not 0%)', () => {
    const s = summarize([rec({ runCount: 0, successCount: 0 })]);
    assert.equal(s.successRate, null);
    assert.equal(s.runs, 0);
  });

  it('is all-null and zero rows for an empty result', () => {
    const s = summarize([]);
    assert.equal(s.rows, 0);
    assert.equal(s.runs, null);
  });

  it('sumKnown skips NaN and infinities', () => {
    assert.equal(
      sumKnown([1, Number.NaN, 2, Number.POSITIVE_INFINITY], (v) => v),
      3,
    );
    assert.equal(
      sumKnown([null, null], (v) => v),
      null,
    );
  });
});
