/** The records table as data (src/analytics/model/tableModel.ts, format.ts): columns, formatting, sorting. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import {
  DASH,
  durationStep,
  formatDuration,
  formatDurationTick,
  formatPercent,
  formatShares,
  rowsRange,
} from '../../src/analytics/model/format';
import {
  COLUMNS,
  formatCell,
  nextSort,
  shownColumns,
  sortRecords,
  weekColumnPositions,
} from '../../src/analytics/model/tableModel';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { col, rec } from './helpers/tableRecords';

describe('analytics table model', () => {
  it('a Day or Month result leaves out the week columns, which say nothing for it; Week keeps them (issue 48 item 8)', () => {
    const ids = (g: string | undefined) => shownColumns(g).map((c) => c.id);
    for (const g of ['Day', 'Month']) {
      assert.ok(!ids(g).includes('weekStartDate') && !ids(g).includes('weekEndDate'), g);
      assert.equal(ids(g).length, COLUMNS.length - 2);
    }
    assert.deepEqual(
      ids('Week'),
      COLUMNS.map((c) => c.id),
    );
    assert.deepEqual(
      ids(undefined),
      COLUMNS.map((c) => c.id),
    );
    // The page's stylesheet hides them by position: it names the positions the model has.
    const css = readFileSync(path.join(__dirname, '..', '..', '..', 'media', 'analytics.css'), 'utf8');
    const rule = weekColumnPositions()
      .map((n) => `table.records.no-week tr > :nth-child(${n})`)
      .join(', ');
    assert.ok(
      css.includes(`${rule} { display: none; }`),
      `media/analytics.css hides positions ${weekColumnPositions().join(', ')}`,
    );
  });

  it("the proxy figure is the service's proxy IP usage, not a count of addresses (issue 48 item 8)", () => {
    const proxy = COLUMNS.find((c) => c.id === 'proxyIpCount');
    assert.equal(proxy?.header, 'Proxy IP usage');
    assert.match(proxy?.title ?? '', /as the service reports it/);
  });

  it('has a column for every field of the record and every metric', () => {
    const sample = rec('a', 1);
    const fields = [
      'taskId',
      'userId',
      'dayKey',
      'weekStartDate',
      'weekEndDate',
      'collectionMethod',
      ...Object.keys(sample.dataVolumeMetrics),
      ...Object.keys(sample.executionMetrics),
      ...Object.keys(sample.resourceUsageMetrics),
    ];
    const ids = new Set(COLUMNS.map((c) => c.id));
    for (const f of fields) assert.ok(ids.has(f), `column ${f}`);
    assert.ok(ids.has('task'), 'task name column');
  });

  it('shows the task name, or the id when the name is null', () => {
    assert.equal(formatCell(col('task'), rec('a', 1)), 'Task a');
    assert.equal(formatCell(col('task'), rec('b', 1, { taskName: null })), 'b');
  });

  it('shows null metrics as a dash, never 0, and real zeros as 0', () => {
    const r = rec('a', null);
    for (const c of COLUMNS.filter((c) => c.kind !== 'text')) assert.equal(formatCell(c, r), DASH, c.id);
    assert.equal(formatCell(col('runCount'), rec('a', 0)), '0');
    assert.equal(formatCell(col('weekStartDate'), r), DASH);
  });

  it('formats counts, rates, durations and costs', () => {
    const r = rec('a', 12345, {
      executionMetrics: {
        runCount: 12345,
        successCount: 1,
        failureCount: 0,
        durationPerRunSeconds: 3725,
        totalExecutionSeconds: 45.25,
        successRate: 0.875,
        failureRate: 0.125,
      },
      resourceUsageMetrics: { captchaCount: 3, simpleTemplateCount: 0, proxyIpCount: 2.345, balance: 10.5 },
    });
    assert.equal(formatCell(col('runCount'), r), '12,345');
    assert.equal(formatCell(col('successRate'), r), '87.5%');
    assert.equal(formatCell(col('durationPerRunSeconds'), r), '1h 2m 5s');
    assert.equal(formatCell(col('totalExecutionSeconds'), r), '45s');
    assert.equal(formatCell(col('proxyIpCount'), r), '2.35');
    assert.equal(formatCell(col('balance'), r), '10.5');
  });

  it("a row's success and failure rates add up to 100% as shown, however they round", () => {
    const rates = (successRate: number, failureRate: number) =>
      rec('a', 2000, { executionMetrics: { ...rec('a', 2000).executionMetrics, successRate, failureRate } });
    const shown = (r: AnalyticsRecord) => [formatCell(col('successRate'), r), formatCell(col('failureRate'), r)];
    const percent = (text: string) => Number(text.replace('%', ''));
    // Each rounded alone: 45.2% + 54.9% = 100.1% (the walk's case: 903 of 2,000 runs succeeded).
    assert.deepEqual(shown(rates(903 / 2000, 1097 / 2000)), ['45.2%', '54.8%']);
    for (let successes = 0; successes <= 2000; successes++) {
      const [s, f] = shown(rates(successes / 2000, (2000 - successes) / 2000));
      assert.equal(Math.round((percent(s ?? '') + percent(f ?? '')) * 10), 1000, `${successes} of 2,000: ${s} + ${f}`);
      assert.ok(Math.abs(percent(s ?? '') - (successes / 2000) * 100) < 0.1, `${s} is within a tenth`);
    }
    // Not one whole (as reported): each stays itself; an unknown rate is a dash and leaves the other alone.
    assert.deepEqual(formatShares([0.3, 0.5]), ['30%', '50%']);
    assert.deepEqual(formatShares([0.4515, null]), ['45.2%', DASH]);
    assert.deepEqual(formatShares([0.0004, 0.0004, 0.9992]), ['0.1%', '0%', '99.9%'], 'a tie: the first');
  });

  it('labels week buckets with their dates', () => {
    const r = rec('a', 1, { dayKey: '2026-W47', weekStartDate: '2026-11-16', weekEndDate: '2026-11-22' });
    assert.equal(formatCell(col('dayKey'), r), '2026-W47 (Nov 16 – Nov 22)');
    assert.equal(formatCell(col('weekStartDate'), r), '2026-11-16');
  });

  it('labels a bucket with only its days inside the query (issue 32: a Nov 20–26 Week query)', () => {
    const query = { start: '2026-11-20', end: '2026-11-26' };
    const w47 = rec('a', 1, { dayKey: '2026-W47', weekStartDate: '2026-11-16', weekEndDate: '2026-11-22' });
    const w48 = rec('a', 1, { dayKey: '2026-W48', weekStartDate: '2026-11-23', weekEndDate: '2026-11-29' });
    assert.equal(formatCell(col('dayKey'), w47, query), '2026-W47 (Nov 20 – Nov 22)');
    assert.equal(formatCell(col('dayKey'), w48, query), '2026-W48 (Nov 23 – Nov 26)');
    // The service's own week fields stay as it sent them: they are data, the label is what it covers.
    assert.equal(formatCell(col('weekStartDate'), w47, query), '2026-11-16');
    // One day of the week, and a week wholly inside.
    assert.equal(formatCell(col('dayKey'), w48, { start: '2026-11-23', end: '2026-11-23' }), '2026-W48 (Nov 23)');
    assert.equal(
      formatCell(col('dayKey'), w47, { start: '2026-11-01', end: '2026-11-30' }),
      '2026-W47 (Nov 16 – Nov 22)',
    );
    // A month the query covers in part says which part; a whole month is its key.
    const month = (dayKey: string) => rec('a', 1, { dayKey });
    assert.equal(formatCell(col('dayKey'), month('2026-11'), query), '2026-11 (Nov 20 – Nov 26)');
    assert.equal(
      formatCell(col('dayKey'), month('2026-08'), { start: '2026-08-28', end: '2026-11-26' }),
      '2026-08 (Aug 28 – Aug 31)',
    );
    assert.equal(formatCell(col('dayKey'), month('2026-10'), { start: '2026-08-28', end: '2026-11-26' }), '2026-10');
    assert.equal(
      formatCell(col('dayKey'), month('2028-02'), { start: '2028-02-01', end: '2028-02-29' }),
      '2028-02',
      'a leap February, whole',
    );
    // Days are their own bucket; a bucket the query misses keeps its own days; no query, no change.
    assert.equal(formatCell(col('dayKey'), rec('a', 1, { dayKey: '2026-11-21' }), query), '2026-11-21');
    assert.equal(
      formatCell(col('dayKey'), w47, { start: '2026-12-01', end: '2026-12-05' }),
      '2026-W47 (Nov 16 – Nov 22)',
    );
    assert.equal(formatCell(col('dayKey'), month('2026-11')), '2026-11');
  });

  it('sorts numbers ascending and descending with nulls last both ways', () => {
    const rows = [rec('a', 5), rec('b', null), rec('c', 1), rec('d', 10), rec('e', null)];
    assert.deepEqual(
      sortRecords(rows, { column: 'runCount', direction: 'asc' }).map((r) => r.taskId),
      ['c', 'a', 'd', 'b', 'e'],
    );
    assert.deepEqual(
      sortRecords(rows, { column: 'runCount', direction: 'desc' }).map((r) => r.taskId),
      ['d', 'a', 'c', 'b', 'e'],
    );
  });

  it('sorts text naturally (task 2 before task 10), case-insensitively, and stably', () => {
    const rows = [
      rec('x10', 1, { taskName: 'task 10' }),
      rec('x2', 1, { taskName: 'Task 2' }),
      rec('y2', 2, { taskName: 'task 2' }),
    ];
    assert.deepEqual(
      sortRecords(rows, { column: 'task', direction: 'asc' }).map((r) => r.taskId),
      ['x2', 'y2', 'x10'],
    );
  });

  it('ranks text once per distinct value and still orders exactly as collating every pair would', () => {
    const collator = new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' });
    const words = ['task 2', 'Task 2', 'task 10', 'Zeta', 'zeta', 'éclair', 'eclair', 'Alpha 1', 'alpha 01', 'b', ''];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    for (let round = 0; round < 50; round++) {
      const rows = Array.from({ length: 200 }, (_, i) =>
        rec(`r${i}`, 1, { taskName: next(8) === 0 ? null : (words[next(words.length)] as string) }),
      );
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        // The reference: collate every pair (task column: the name, else the id), nulls last, stable.
        const key = (r: AnalyticsRecord): string => r.taskName ?? r.taskId;
        const expected = rows
          .map((r, i) => ({ r, i }))
          .sort((a, b) => sign * collator.compare(key(a.r), key(b.r)) || a.i - b.i)
          .map((x) => x.r.taskId);
        assert.deepEqual(
          sortRecords(rows, { column: 'task', direction }).map((r) => r.taskId),
          expected,
          `round ${round} ${direction}`,
        );
      }
    }
  });

  it('leaves the input alone and keeps order for an unknown column', () => {
    const rows = [rec('b', 2), rec('a', 1)];
    const copy = rows.slice();
    assert.deepEqual(sortRecords(rows, { column: 'nope', direction: 'asc' }), copy);
    sortRecords(rows, { column: 'runCount', direction: 'asc' });
    assert.deepEqual(rows, copy);
  });

  it('flips direction on the same column and starts ascending on a new one', () => {
    assert.deepEqual(nextSort(undefined, 'runCount'), { column: 'runCount', direction: 'asc' });
    assert.deepEqual(nextSort({ column: 'runCount', direction: 'asc' }, 'runCount'), {
      column: 'runCount',
      direction: 'desc',
    });
    assert.deepEqual(nextSort({ column: 'runCount', direction: 'desc' }, 'task'), { column: 'task', direction: 'asc' });
  });

  it('formats durations, percents and row ranges', () => {
    assert.equal(formatDuration(0), '0s');
    assert.equal(formatDuration(4.5), '4.5s');
    assert.equal(formatDuration(60), '1m 0s');
    assert.equal(formatDuration(3600), '1h 0m 0s');
    assert.equal(formatDuration(null), DASH);
    assert.equal(formatPercent(1), '100%');
    assert.equal(rowsRange(2, 20, 20, 1234), 'Rows 21–40 of 1,234');
    assert.equal(rowsRange(62, 20, 14, 1234), 'Rows 1,221–1,234 of 1,234');
  });

  it('steps a duration axis in time-shaped units, never base-10 seconds', () => {
    // 25 minutes: 5-minute steps, not 500 s ("8m 20s").
    assert.equal(durationStep(1500), 300);
    assert.equal(durationStep(40), 10);
    assert.equal(durationStep(4), 1);
    assert.equal(durationStep(3 * 3600), 3600);
    assert.equal(durationStep(0), 1);
    assert.equal(durationStep(Number.NaN), 1);
    // Beyond the table: whole days, still at most five ticks.
    assert.equal(durationStep(20 * 86_400), 4 * 86_400);
    for (const max of [3, 59, 61, 599, 1500, 7199, 50_000, 400_000])
      assert.ok(max / durationStep(max) <= 5, `at most 5 steps for ${max}`);
  });

  it('labels duration ticks without zero parts', () => {
    assert.equal(formatDurationTick(0), '0');
    assert.equal(formatDurationTick(300), '5m');
    assert.equal(formatDurationTick(5400), '1h 30m');
    assert.equal(formatDurationTick(45), '45s');
    assert.equal(formatDurationTick(3600), '1h');
  });
});
