/**
 * The health model (src/health, pure): totals from records with weighted averages, thresholds,
 * no runs, slowdown against the previous window, groups' worst-of, the windows and their
 * three-month clamp, the settings, and the stored snapshot's round trip.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { HealthBoard } from '../../src/health/healthBoard';
import {
  assess,
  DEFAULT_THRESHOLDS,
  EMPTY_TOTALS,
  type Totals,
  totalsByTask,
  worstOf,
} from '../../src/health/healthModel';
import { validateHealthSettings } from '../../src/health/healthSettings';
import { healthWindows, maxWindowDays } from '../../src/health/healthWindow';
import { decodeSnapshot, encodeSnapshot, type HealthSnapshot } from '../../src/health/snapshot';
import { blankRecord, UNKNOWN_EXECUTION } from '../shared/analyticsRecords';

type Exec = AnalyticsRecord['executionMetrics'];

function record(taskId: string, exec: Partial<Exec>, dayKey = '2026-11'): AnalyticsRecord {
  return blankRecord({ taskId, taskName: taskId, dayKey, executionMetrics: { ...UNKNOWN_EXECUTION, ...exec } });
}

const totals = (runs: number, failures: number, seconds: number, timedRuns = runs): Totals => ({
  runs,
  judgedRuns: runs,
  failures,
  timedRuns,
  seconds,
});

describe('health model: totals from records', () => {
  it('weights averages by runs across records (not an average of averages)', () => {
    // Day 1: 1 run of 100 s; day 2: 9 runs of 10 s. Runs average 19 s, not (100 + 10) / 2 = 55 s.
    const t = totalsByTask([
      record(
        'a',
        { runCount: 1, successCount: 1, failureCount: 0, durationPerRunSeconds: 100, totalExecutionSeconds: 100 },
        '2026-11-01',
      ),
      record(
        'a',
        { runCount: 9, successCount: 6, failureCount: 3, durationPerRunSeconds: 10, totalExecutionSeconds: 90 },
        '2026-11-02',
      ),
    ]).get('a');
    assert.ok(t);
    assert.equal(t.runs, 10);
    assert.equal(t.failures, 3);
    const h = assess(t, undefined, DEFAULT_THRESHOLDS);
    assert.equal(h.averageSeconds, 19);
    // Failure rate 3 of 10, not the mean of 0% and 33%.
    assert.equal(h.failureRate, 0.3);
  });

  it('adds Cloud and Local records of the same task and bucket', () => {
    const t = totalsByTask([
      record('a', { runCount: 4, failureCount: 1, totalExecutionSeconds: 40 }),
      { ...record('a', { runCount: 6, failureCount: 0, totalExecutionSeconds: 120 }), collectionMethod: 'Local' },
    ]).get('a');
    assert.deepEqual(t, { runs: 10, judgedRuns: 10, failures: 1, timedRuns: 10, seconds: 160 });
  });

  it('treats a missing figure as unknown, never as 0', () => {
    const t = totalsByTask([
      record('a', { runCount: 5, failureCount: 5, totalExecutionSeconds: null, durationPerRunSeconds: null }), // outcome known, duration not
      record('a', {
        runCount: 5,
        failureCount: null,
        successCount: null,
        failureRate: null,
        totalExecutionSeconds: 50,
      }), // duration known, outcome not
    ]).get('a');
    assert.deepEqual(t, { runs: 10, judgedRuns: 5, failures: 5, timedRuns: 5, seconds: 50 });
    const h = assess(t, undefined, DEFAULT_THRESHOLDS);
    assert.equal(h.failureRate, 1, '5 of the 5 runs whose outcome is known');
    assert.equal(h.averageSeconds, 10, '50 s over the 5 timed runs');
  });

  it('counts as timed only the runs an aggregated record timed (total / average)', () => {
    // A month bucket: 10 runs, of which 7 were timed (a day without durations counts its 3 runs
    // but adds nothing to the total). The average is over the 7: 700 / 7 = 100 s, not 70 s.
    const t = totalsByTask([
      record('a', { runCount: 10, failureCount: 0, totalExecutionSeconds: 700, durationPerRunSeconds: 100 }),
    ]).get('a');
    assert.deepEqual(t, { runs: 10, judgedRuns: 10, failures: 0, timedRuns: 7, seconds: 700 });
    assert.equal(assess(t, undefined, DEFAULT_THRESHOLDS).averageSeconds, 100);
    // A rounded average still gives whole runs.
    const r = totalsByTask([
      record('b', { runCount: 3, totalExecutionSeconds: 100, durationPerRunSeconds: 33.33 }),
    ]).get('b');
    assert.equal(r?.timedRuns, 3);
  });

  it('falls back to successes, then the rate, then the per-run average times the runs', () => {
    const t = totalsByTask([
      record('a', { runCount: 10, successCount: 7, durationPerRunSeconds: 3 }),
      record('a', { runCount: 10, failureRate: 0.5 }),
      record('a', { successCount: 2, failureCount: 2 }),
    ]).get('a');
    assert.deepEqual(t, { runs: 24, judgedRuns: 24, failures: 3 + 5 + 2, timedRuns: 10, seconds: 30 });
  });

  it('ignores tasks not asked for, and a day with zero runs adds nothing but itself', () => {
    const m = totalsByTask(
      [record('a', { runCount: 0, totalExecutionSeconds: 0 }), record('x', { runCount: 3 })],
      new Set(['a']),
    );
    assert.deepEqual([...m.keys()], ['a']);
    assert.deepEqual(m.get('a'), EMPTY_TOTALS);
  });
});

describe('health model: thresholds, no runs, slowdown, worst-of', () => {
  it('is failing only strictly above the failure-rate threshold', () => {
    assert.equal(assess(totals(10, 2, 100), undefined, DEFAULT_THRESHOLDS).level, 'ok', 'exactly 20% is not above 20%');
    const h = assess(totals(10, 3, 100), undefined, DEFAULT_THRESHOLDS);
    assert.equal(h.level, 'failing');
    assert.equal(h.failing, true);
    assert.equal(
      assess(totals(10, 3, 100), undefined, { failureRate: 0.5, slowdownFactor: 1.5 }).level,
      'ok',
      'thresholds come from the settings',
    );
  });

  it('says "no runs" instead of looking healthy', () => {
    for (const t of [undefined, { ...EMPTY_TOTALS }]) {
      const h = assess(t, totals(10, 0, 100), DEFAULT_THRESHOLDS);
      assert.equal(h.level, 'idle');
      assert.equal(h.failureRate, null);
      assert.equal(h.failing || h.slowing, false, 'no runs is not "needs attention"');
    }
  });

  it('measures the slowdown against the previous window, strictly above the factor', () => {
    const before = totals(10, 0, 100); // 10 s a run
    assert.equal(assess(totals(10, 0, 150), before, DEFAULT_THRESHOLDS).level, 'ok', '1.5x is not above 1.5x');
    const slow = assess(totals(4, 0, 88), before, DEFAULT_THRESHOLDS); // 22 s a run
    assert.equal(slow.level, 'slowing');
    assert.ok(Math.abs((slow.slowdown ?? 0) - 2.2) < 1e-9);
    assert.equal(slow.previousAverageSeconds, 10);
    assert.equal(
      assess(totals(4, 0, 88), undefined, DEFAULT_THRESHOLDS).slowdown,
      null,
      'no previous window: no slowdown',
    );
    assert.equal(
      assess(totals(4, 0, 88), totals(3, 0, 0), DEFAULT_THRESHOLDS).slowdown,
      null,
      'previous average 0: no factor',
    );
    const both = assess(totals(10, 5, 300), before, DEFAULT_THRESHOLDS);
    assert.equal(both.level, 'failing', 'failing outranks slowing');
    assert.equal(both.slowing, true);
  });

  it('a group shows the worst of its tasks', () => {
    assert.equal(worstOf(['ok', 'idle', 'ok']), 'idle');
    assert.equal(worstOf(['ok', 'slowing', 'idle']), 'slowing');
    assert.equal(worstOf(['slowing', 'failing', 'ok']), 'failing');
    assert.equal(worstOf([]), undefined);

    const board = new HealthBoard(() => 0);
    board.show(
      snapshot([
        ['a', 'g1', totals(10, 5, 100), totals(10, 0, 100)],
        ['b', 'g1', totals(10, 0, 300), totals(10, 0, 100)],
        ['c', 'g1', null, totals(10, 0, 100)],
        ['d', 'g2', totals(10, 0, 100), totals(10, 0, 100)],
        ['e', 'g2', null, null],
      ]),
    );
    assert.deepEqual(board.group('g1'), { level: 'failing', failing: 1, slowing: 1, idle: 1, tasks: 3 });
    assert.deepEqual(board.group('g2'), { level: 'idle', failing: 0, slowing: 0, idle: 1, tasks: 2 });
    assert.deepEqual(
      board.attention().map((i) => i.task.taskId),
      ['a', 'b'],
      'failing first, then slowing',
    );
    board.setThresholds({ failureRate: 0.6, slowdownFactor: 5 });
    assert.deepEqual(board.attention(), [], 'new thresholds judge again without a request');
  });
});

describe('health windows', () => {
  it('are the last N UTC days, today included, and the N days before', () => {
    const w = healthWindows('2026-11-23', 7);
    assert.deepEqual(w.current, { start: '2026-11-17', end: '2026-11-23' });
    assert.deepEqual(w.previous, { start: '2026-11-10', end: '2026-11-16' });
    assert.equal(w.clamped, false);
  });

  it('clamp so the previous window stays within the three-month limit, and say so', () => {
    const today = '2026-11-23';
    // The earliest start is 2026-08-23: 93 days up to today hold two windows of 46, not of 47.
    assert.equal(maxWindowDays(today), 46);
    const w = healthWindows(today, 60);
    assert.equal(w.days, 46);
    assert.equal(w.clamped, true);
    assert.equal(w.requested, 60);
    assert.equal(w.previous.start, '2026-08-24');
    assert.equal(healthWindows(today, 46).clamped, false);
    assert.equal(healthWindows(today, 47).clamped, true);
    assert.equal(healthWindows('2026-05-31', 60).previous.start >= '2026-02-28', true, 'a clamped month end');
  });
});

describe('health settings', () => {
  it('uses the defaults, and refuses bad values naming the setting and the fallback', () => {
    assert.deepEqual(validateHealthSettings({}).values, {
      windowDays: 7,
      refreshMinutes: 15,
      failureRate: 0.2,
      slowdownFactor: 1.5,
      notify: true,
    });
    const r = validateHealthSettings({
      windowDays: 2.5,
      refreshMinutes: 0,
      failureRateThreshold: 1,
      slowdownFactor: 0.5,
      notify: 'yes',
    });
    assert.deepEqual(r.values, {
      windowDays: 7,
      refreshMinutes: 15,
      failureRate: 0.2,
      slowdownFactor: 1.5,
      notify: true,
    });
    assert.deepEqual(
      r.problems.map((p) => [p.name, p.fallback]),
      [
        ['windowDays', '7'],
        ['refreshMinutes', '15'],
        ['failureRateThreshold', '0.2'],
        ['slowdownFactor', '1.5'],
        ['notify', 'true'],
      ],
    );
    const ok = validateHealthSettings({
      windowDays: 14,
      refreshMinutes: 5,
      failureRateThreshold: 0.1,
      slowdownFactor: 2,
      notify: false,
    });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual(ok.values, {
      windowDays: 14,
      refreshMinutes: 5,
      failureRate: 0.1,
      slowdownFactor: 2,
      notify: false,
    });
  });
});

describe('health snapshot (stored form)', () => {
  it('round-trips, and a damaged value reads as nothing', () => {
    const s = snapshot([
      ['a', 'g1', totals(10, 5, 100), null],
      ['b', 'g2', null, totals(1, 0, 3)],
    ]);
    const stored = JSON.parse(JSON.stringify(encodeSnapshot(s))) as unknown;
    assert.deepEqual(decodeSnapshot(stored), s);
    assert.equal(
      decodeSnapshot({ ...(stored as object), tasks: [['a', 'A', 7, null, null]] }),
      undefined,
      'a group index out of range',
    );
    assert.equal(decodeSnapshot('garbage'), undefined);
    assert.equal(
      decodeSnapshot({ ...(stored as object), current: { start: 'yesterday', end: '2026-11-23' } }),
      undefined,
    );
  });
});

describe('health: the model files run without VS Code', () => {
  it('imports no vscode outside the vscode-bound files', () => {
    const dir = path.resolve(__dirname, '..', '..', '..', 'src', 'health');
    const vscodeBound = new Set([
      'decorations.ts',
      'healthConfig.ts',
      'healthText.ts',
      'nodeParts.ts',
      'notifier.ts',
      'index.ts',
      'taskUri.ts',
    ]);
    const offenders = readdirSync(dir).filter(
      (f) => !vscodeBound.has(f) && /from\s+'vscode'/.test(readFileSync(path.join(dir, f), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});

function snapshot(rows: [string, string, Totals | null, Totals | null][]): HealthSnapshot {
  return {
    windowDays: 7,
    current: { start: '2026-11-17', end: '2026-11-23' },
    previous: { start: '2026-11-10', end: '2026-11-16' },
    computedAt: 1_000,
    tasks: rows.map(([taskId, g, current, previous]) => ({
      taskId,
      taskName: `Task ${taskId}`,
      taskGroupId: g,
      taskGroupName: `Group ${g}`,
      current,
      previous,
    })),
  };
}
