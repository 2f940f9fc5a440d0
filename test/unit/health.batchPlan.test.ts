import * as assert from 'node:assert/strict';

import type { AnalyticsQuery } from '../../src/api/schemas/schemas';
import { type AccountQuery, FILL, MOST_RECORDS_PER_TASK, planBatches, planWindow } from '../../src/health/batchPlan';
import { type AnalyticsSource, fetchWindowTotals, mostRecordsPerTask } from '../../src/health/healthFetch';
import { rec } from './helpers/tableRecords';

const ids = (n: number, prefix = 't'): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(4, '0')}`);
const pagesOf = (batches: string[][], estimate: (id: string) => number): number =>
  batches.reduce((n, b) => n + Math.max(1, Math.ceil(b.reduce((r, id) => r + estimate(id), 0) / 100)), 0);

describe('health: batches cut so their pages come back full', () => {
  it('keeps 100 ids a batch when each task answers one record or fewer', () => {
    const all = ids(1000);
    const batches = planBatches(all, () => 0.9);
    assert.deepEqual(
      batches.map((b) => b.length),
      Array(10).fill(100),
    );
    assert.deepEqual(batches.flat(), all, 'every id once, in order');
  });

  it('cuts smaller batches when tasks answer a record per method (1.26 a task): one page each instead of two', () => {
    const all = ids(1000);
    const estimate = (id: string): number => (Number(id.slice(1)) % 4 === 0 ? 2 : 1); // a quarter run both ways
    const batches = planBatches(all, estimate);
    assert.deepEqual(batches.flat(), all);
    for (const b of batches)
      assert.ok(b.reduce((r, id) => r + estimate(id), 0) <= 100 * FILL, 'each batch fits one page with room');
    assert.ok(pagesOf(batches, estimate) <= 14, `${pagesOf(batches, estimate)} pages`);
    assert.equal(
      pagesOf(
        ids(10).map((_, i) => all.slice(i * 100, i * 100 + 100)),
        estimate,
      ),
      20,
      'against 20 with 100 ids a batch',
    );
  });

  it('packs two pages a batch when every task answers two records', () => {
    const batches = planBatches(ids(1000), () => 2);
    assert.ok(batches.every((b) => b.length <= 100 && b.length * 2 <= 200 * FILL));
    assert.ok(pagesOf(batches, () => 2) <= 22, `${pagesOf(batches, () => 2)} pages`);
  });

  it('never puts more than 100 ids in a batch, and takes at least one id however large its estimate', () => {
    assert.deepEqual(
      planBatches(ids(250), () => 0).map((b) => b.length),
      [100, 100, 50],
    );
    assert.deepEqual(
      planBatches(ids(3), () => 500).map((b) => b.length),
      [1, 1, 1],
    );
    assert.deepEqual(
      planBatches([], () => 1),
      [],
    );
  });
});

describe('health: a window asked for every task at once, or in batches, whichever takes fewer pages', () => {
  const MAX = 100_000;
  const all = (records?: number): AccountQuery => ({ records, idsAreAll: true });
  const some = (records?: number): AccountQuery => ({ records, idsAreAll: false });
  const limits = (maxRecords = MAX) => ({ maxRecords, perTask: 2 }); // a window inside one month
  const kind = (ids: string[], estimate: number, account: AccountQuery | undefined, max = MAX): string =>
    planWindow(ids, () => estimate, account, limits(max)).kind;

  it('asks every task of the account in one query when there are more than 100 and nothing is known yet', () => {
    assert.equal(kind(ids(1000), 1, all()), 'account');
    assert.equal(kind(ids(101), 1, all()), 'account');
    // Page 1 may show at most what the ids can answer (2 a task here), or 1.5x what was seen before.
    assert.deepEqual(
      planWindow(ids(1000), () => 1, all(), limits()),
      { kind: 'account', mostRecords: 2000 },
    );
    assert.deepEqual(
      planWindow(ids(990), () => 1.26, some(1300), limits()),
      { kind: 'account', mostRecords: 1980 },
    );
    assert.deepEqual(
      planWindow(ids(990), () => 1.26, some(1300), limits(1960)),
      { kind: 'account', mostRecords: 1960 },
      'never past one fetch',
    );
  });

  it('keeps up to 100 ids one batch: it answers no more than a query for every task would', () => {
    const plan = planWindow(ids(100), () => 1.3, all(5000), limits());
    assert.equal(plan.kind, 'batches');
    assert.deepEqual(plan.kind === 'batches' && plan.groups.map((g) => g.length), [100]);
    assert.deepEqual(
      planWindow([], () => 1, all(), limits()),
      { kind: 'batches', groups: [] },
    );
  });

  it('asks a subset in batches unless a query for every task is known to take fewer pages', () => {
    assert.equal(kind(ids(300), 1, some()), 'batches', 'unknown: batches of the ids asked');
    assert.equal(kind(ids(300), 1, undefined), 'batches', 'no account query offered');
    assert.equal(kind(ids(990), 1.26, some(1300)), 'account', '13 pages against 14 or more in batches');
    assert.equal(kind(ids(150), 1, some(5000)), 'batches', 'an account far larger than the ids asked');
  });

  it('goes back to batches when every task answers more records than the ids do (tasks the list does not show)', () => {
    assert.equal(kind(ids(200), 1, all(2000)), 'batches');
  });

  it('keeps the batches on a tie: they answer only the ids asked', () => {
    // 200 ids at half a record each: two batches of 100 ids, a page each. A query for every task
    // wins at one page (100 records) and ties at two (200).
    assert.equal(kind(ids(200), 0.5, all(100)), 'account');
    assert.equal(kind(ids(200), 0.5, all(200)), 'batches');
  });

  it('never plans a query for every task past what one paged fetch assembles', () => {
    assert.equal(kind(ids(1000), 1, all(), 1000 * MOST_RECORDS_PER_TASK), 'account');
    assert.equal(
      kind(ids(1000), 1, all(), 1000 * MOST_RECORDS_PER_TASK - 1),
      'batches',
      'unknown: at most 6 records a task',
    );
    assert.equal(kind(ids(1000), 1, all(70_000), MAX), 'batches', 'known: room for growth kept');
  });
});

describe('health: fetching one window', () => {
  it("bounds a task's records by the months its window touches, two methods each", () => {
    assert.equal(mostRecordsPerTask({ start: '2026-11-16', end: '2026-11-22' }), 2);
    assert.equal(mostRecordsPerTask({ start: '2026-11-28', end: '2026-12-04' }), 4);
    assert.equal(mostRecordsPerTask({ start: '2026-12-29', end: '2027-01-04' }), 4, 'across a year');
    assert.ok(
      mostRecordsPerTask({ start: '2027-01-31', end: '2027-03-17' }) <= MOST_RECORDS_PER_TASK,
      '46 days: three months at most',
    );
  });

  const range = { start: '2026-11-16', end: '2026-11-22' };
  /** Answers from `records` (task id -> records) as the service would: filtered by taskIds, paged at 100. */
  function source(records: Map<string, number>) {
    const asked: AnalyticsQuery[] = [];
    const signals: AbortSignal[] = [];
    const src: AnalyticsSource = {
      queryAllTaskAnalytics: (query, o) => {
        asked.push(query);
        if (o?.signal) signals.push(o.signal);
        const chosen = [...records].filter(([id]) => query.taskIds === undefined || query.taskIds.includes(id));
        const out = chosen.flatMap(([id, n]) =>
          Array.from({ length: n }, (_, i) => rec(id, 2, { collectionMethod: i % 2 === 0 ? 'Cloud' : 'Local' })),
        );
        return Promise.resolve({
          total: out.length,
          records: out,
          requestIds: Array.from(
            { length: Math.max(1, Math.ceil(out.length / 100)) },
            (_, i) => `r${asked.length}-${i}`,
          ),
        });
      },
    };
    return { src, asked, signals };
  }

  it('asks every task in one query when the ids are all the account’s, keeps only the ids asked, and says how many records all answered', async () => {
    const listed = ids(250);
    const s = source(new Map([...listed.map((id): [string, number] => [id, 1]), ['elsewhere', 2]]));
    const out = await fetchWindowTotals(s.src, listed, range, { account: { records: undefined, idsAreAll: true } });
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0]?.taskIds, undefined, 'no ids: every task');
    assert.equal(out.totals.size, 250);
    assert.equal(out.totals.has('elsewhere'), false, 'a task not asked for is not kept');
    assert.equal(out.accountRecords, 252);
    assert.equal(out.records.get('t0000'), 1);
  });

  it('asks in batches of at most 100 ids otherwise, each with a signal of its own that the caller’s abort stops', async () => {
    const listed = ids(1500);
    const s = source(new Map(listed.map((id): [string, number] => [id, 1])));
    const caller = new AbortController();
    const out = await fetchWindowTotals(s.src, listed, range, {
      signal: caller.signal,
      estimate: new Map(listed.map((id) => [id, 1])),
    });
    assert.ok(
      s.asked.length >= 15 && s.asked.every((q) => (q.taskIds?.length ?? 0) > 0 && (q.taskIds?.length ?? 0) <= 100),
    );
    assert.equal(out.totals.size, 1500);
    assert.equal(out.accountRecords, undefined);
    assert.equal(
      new Set(s.signals).size,
      s.asked.length,
      'one signal per batch: no signal collects a listener per batch',
    );
    caller.abort();
    assert.ok(
      s.signals.every((sig) => !sig.aborted),
      'finished batches are no longer tied to the caller',
    );
  });

  it('stops every batch still running when the caller aborts', async () => {
    const listed = ids(300);
    const signals: AbortSignal[] = [];
    const src: AnalyticsSource = {
      queryAllTaskAnalytics: (_q, o) =>
        new Promise((_, reject) => {
          if (o?.signal) signals.push(o.signal);
          o?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        }),
    };
    const caller = new AbortController();
    const pending = fetchWindowTotals(src, listed, range, {
      signal: caller.signal,
      estimate: new Map(listed.map((id) => [id, 1])),
    });
    await new Promise((r) => setTimeout(r, 10));
    assert.ok(signals.length >= 3, `${signals.length} batches`);
    caller.abort();
    await assert.rejects(pending);
    assert.ok(signals.every((sig) => sig.aborted));
  });
});
