import * as assert from 'node:assert/strict';

import { eachDay, earliestStart, isoWeek } from '../../src/api/schemas/dates';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { allTasks, buildWorld, type SeedAccount } from '../../src/sandbox/seed/seed';
import { DEFAULTS } from '../../src/sandbox/server';
import { codeOf, dataOf, FakeClock, messageOf, TestSandbox } from './helpers/sandbox';

interface Page {
  total: number;
  data: AnalyticsRecord[];
}

const TODAY = '2026-11-22';

describe('sandbox: POST /taskanalytics/queries', function () {
  const clock = new FakeClock(Date.parse(`${TODAY}T12:00:00Z`));
  let sb: TestSandbox;
  let ada: string;
  before(async () => {
    sb = await TestSandbox.start({ now: clock.now });
    ada = sb.user('ada').apiKey;
  });
  after(() => sb.close());

  const query = async (key: string, body: Record<string, unknown>): Promise<Page> => {
    const r = await sb.analytics(key, body);
    assert.equal(r.status, 200, r.text.slice(0, 200));
    return dataOf<Page>(r);
  };
  const all = async (key: string, body: Record<string, unknown>): Promise<Page> => {
    const first = await query(key, { ...body, pageSize: 100, page: 1 });
    const data = [...first.data];
    for (let page = 2; (page - 1) * 100 < first.total; page++)
      data.push(...(await query(key, { ...body, pageSize: 100, page })).data);
    return { total: first.total, data };
  };

  it('refuses each invalid parameter with 400, its own integer code and a message naming it', async () => {
    const ok = { start: '2026-11-01', end: TODAY };
    const many = Array.from({ length: 101 }, (_, i) => `t${i}`);
    const cases: [unknown, number, RegExp][] = [
      ['{"start":', 40000, /body/],
      [[ok], 40000, /body/],
      [{ end: TODAY }, 40001, /start/],
      [{ ...ok, start: '2026-02-30' }, 40001, /start/],
      [{ ...ok, start: '2026/11/01' }, 40001, /start/],
      [{ ...ok, end: 'today' }, 40002, /end/],
      [{ ...ok, end: '2026-11-23' }, 40003, /end must not be after today/],
      [{ start: '2026-11-10', end: '2026-11-09' }, 40004, /start must not be after end/],
      [{ ...ok, start: '2026-08-21' }, 40005, /start must be within the last three months/],
      [{ ...ok, page: 0 }, 40006, /page/],
      [{ ...ok, page: 1.5 }, 40006, /page/],
      [{ ...ok, page: '2' }, 40006, /page/],
      [{ ...ok, pageSize: 0 }, 40007, /pageSize/],
      [{ ...ok, pageSize: 101 }, 40007, /pageSize/],
      [{ ...ok, taskIds: many }, 40008, /taskIds/],
      [{ ...ok, taskIds: 'abc' }, 40008, /taskIds/],
      [{ ...ok, memberNames: many }, 40009, /memberNames/],
      [{ ...ok, memberNames: ['margaret'] }, 40010, /memberNames: "margaret"/],
      [{ ...ok, memberNames: ['linus'] }, 40010, /memberNames/],
      [{ ...ok, collectionMethod: 'cloud' }, 40011, /collectionMethod/],
      [{ ...ok, timeGranularity: 'Year' }, 40012, /timeGranularity/],
    ];
    for (const [body, code, message] of cases) {
      const r = await sb.analytics(ada, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(codeOf(r), code, JSON.stringify(body).slice(0, 80));
      assert.match(messageOf(r), message);
    }
  });

  it('accepts the edges: start = today - 3 months (clamped), end = today, pageSize 1 and 100', async () => {
    assert.equal(earliestStart(TODAY), '2026-08-22');
    for (const pageSize of [1, 100]) {
      const p = await query(ada, { start: '2026-08-22', end: TODAY, pageSize });
      assert.equal(p.data.length, pageSize);
    }
  });

  it('defaults: page 1, pageSize 20, Day, both methods, caller only', async () => {
    const p = await query(ada, { start: '2026-11-01', end: TODAY, unknownField: true });
    assert.equal(p.data.length, 20);
    const full = await all(ada, { start: '2026-11-01', end: TODAY });
    assert.deepEqual(p.data, full.data.slice(0, 20));
    assert.ok(
      full.data.some((r) => r.collectionMethod === 'Cloud') && full.data.some((r) => r.collectionMethod === 'Local'),
    );
    assert.equal(new Set(full.data.map((r) => r.userId)).size, 1);
    for (const r of full.data) assert.equal(r.weekStartDate, null);
  });

  it('pages add up to total, sorted by (dayKey, taskId, collectionMethod); a page past the end is empty', async () => {
    const body = { start: '2026-11-10', end: '2026-11-20' };
    const full = await all(ada, body);
    assert.equal(full.data.length, full.total);
    assert.ok(full.total > 300);
    const keys = full.data.map((r) => `${r.dayKey}|${r.taskId}|${r.collectionMethod}`);
    assert.deepEqual(keys, [...keys].sort(), 'sorted');
    assert.equal(new Set(keys).size, keys.length, 'no duplicates');
    for (const r of full.data) assert.ok(r.dayKey >= body.start && r.dayKey <= body.end);
    const beyond = await query(ada, { ...body, page: 1000, pageSize: 100 });
    assert.deepEqual(beyond, { total: full.total, data: [] });
    const last = await query(ada, { ...body, page: Math.ceil(full.total / 7), pageSize: 7 });
    assert.equal(last.data.length, full.total % 7 || 7);
  });

  it('has realistic gaps and nulls: not every task every day, Local without captcha, some durations null, some zero-run days', async () => {
    const full = await all(ada, { start: '2026-10-20', end: TODAY, collectionMethod: 'All' });
    const local = full.data.filter((r) => r.collectionMethod === 'Local');
    assert.ok(local.length > 0);
    for (const r of local) assert.equal(r.resourceUsageMetrics.captchaCount, null);
    assert.ok(
      full.data.some(
        (r) => r.executionMetrics.durationPerRunSeconds === null && (r.executionMetrics.runCount ?? 0) > 0,
      ),
    );
    assert.ok(full.data.some((r) => r.executionMetrics.runCount === 0 && r.executionMetrics.successRate === null));
    const tasks = new Set(full.data.map((r) => r.taskId));
    const days = eachDay('2026-10-20', TODAY).length;
    assert.ok(full.total < tasks.size * days, 'not every task runs every day');
    const byTaskDay = new Map<string, number>();
    for (const r of full.data)
      byTaskDay.set(`${r.taskId}|${r.dayKey}`, (byTaskDay.get(`${r.taskId}|${r.dayKey}`) ?? 0) + 1);
    assert.ok([...byTaskDay.values()].includes(2), 'some task-days have both methods');
    assert.ok([...byTaskDay.values()].includes(1), 'some only one');
  });

  it('collectionMethod filters; Cloud + Local = All', async () => {
    const body = { start: '2026-11-15', end: TODAY, pageSize: 1 };
    const [cloud, local, both] = await Promise.all([
      query(ada, { ...body, collectionMethod: 'Cloud' }),
      query(ada, { ...body, collectionMethod: 'Local' }),
      query(ada, { ...body, collectionMethod: 'All' }),
    ]);
    assert.equal(cloud.total + local.total, both.total);
    assert.equal(cloud.data[0]?.collectionMethod, 'Cloud');
    assert.equal(local.data[0]?.collectionMethod, 'Local');
  });

  it("taskIds filters; ids of tasks that are not the caller's give no rows (not an error)", async () => {
    const some = await query(ada, { start: '2026-11-20', end: TODAY, pageSize: 5 });
    const ids = [...new Set(some.data.map((r) => r.taskId))].slice(0, 2);
    const filtered = await all(ada, { start: '2026-11-01', end: TODAY, taskIds: ids });
    assert.ok(filtered.total > 0);
    for (const r of filtered.data) assert.ok(ids.includes(r.taskId));
    const graceTask = (await query(sb.user('grace').apiKey, { start: '2026-11-20', end: TODAY, pageSize: 1 })).data[0]
      ?.taskId as string;
    assert.deepEqual(await query(ada, { start: '2026-11-01', end: TODAY, taskIds: [graceTask, 'nope'] }), {
      total: 0,
      data: [],
    });
    assert.equal(
      (await query(ada, { start: '2026-11-01', end: TODAY, taskIds: [] })).total,
      (await query(ada, { start: '2026-11-01', end: TODAY })).total,
      'empty = all tasks',
    );
  });

  it("memberNames: a teammate's records; both; empty = caller only", async () => {
    const body = { start: '2026-11-15', end: TODAY };
    const mine = await all(ada, body);
    const grace = await all(ada, { ...body, memberNames: ['grace'] });
    const both = await all(ada, { ...body, memberNames: ['ada', 'grace'] });
    const empty = await query(ada, { ...body, memberNames: [], pageSize: 1 });
    const adaId = mine.data[0]?.userId;
    const graceId = grace.data[0]?.userId;
    assert.ok(adaId && graceId && adaId !== graceId);
    assert.ok(grace.data.every((r) => r.userId === graceId));
    assert.equal(both.total, mine.total + grace.total);
    assert.deepEqual(new Set(both.data.map((r) => r.userId)), new Set([adaId, graceId]));
    const keys = both.data.map((r) => `${r.dayKey}|${r.taskId}|${r.collectionMethod}`);
    assert.deepEqual(keys, [...keys].sort(), 'merged rows stay sorted');
    assert.equal(empty.total, mine.total);
    // grace sees ada in her team too.
    assert.equal(
      (await query(sb.user('grace').apiKey, { ...body, memberNames: ['ada'], pageSize: 1 })).total,
      mine.total,
    );
  });

  for (const granularity of ['Week', 'Month'] as const) {
    it(`${granularity}: buckets aggregate the Day rows inside the range (nulls and rates handled)`, async () => {
      // 2026-10-29 is a Thursday: the first week is cut by the range and only sums its days inside it.
      const body = { start: '2026-10-29', end: TODAY };
      const days = await all(ada, body);
      const buckets = await all(ada, { ...body, timeGranularity: granularity });
      const keyOf = (day: string) => (granularity === 'Week' ? isoWeek(day).key : day.slice(0, 7));
      const expected = new Map<string, AnalyticsRecord[]>();
      for (const r of days.data) {
        const k = `${keyOf(r.dayKey)}|${r.taskId}|${r.collectionMethod}`;
        expected.set(k, [...(expected.get(k) ?? []), r]);
      }
      assert.equal(buckets.total, expected.size);
      const keys = buckets.data.map((r) => `${r.dayKey}|${r.taskId}|${r.collectionMethod}`);
      assert.deepEqual(keys, [...keys].sort());
      const sum = (xs: (number | null)[]) =>
        xs.every((x) => x === null) ? null : xs.reduce<number>((a, x) => a + (x ?? 0), 0);
      let sawNullSum = false;
      for (const b of buckets.data) {
        const parts = expected.get(`${b.dayKey}|${b.taskId}|${b.collectionMethod}`);
        assert.ok(parts, b.dayKey);
        if (granularity === 'Week') {
          assert.match(b.dayKey, /^\d{4}-W\d{2}$/);
          const w = isoWeek(parts[0]?.dayKey as string);
          assert.deepEqual([b.weekStartDate, b.weekEndDate], [w.weekStartDate, w.weekEndDate]);
        } else {
          assert.match(b.dayKey, /^\d{4}-\d{2}$/);
          assert.equal(b.weekStartDate, null);
        }
        const runs = sum(parts.map((p) => p.executionMetrics.runCount));
        const success = sum(parts.map((p) => p.executionMetrics.successCount));
        assert.equal(b.executionMetrics.runCount, runs);
        assert.equal(b.dataVolumeMetrics.totalCollected, sum(parts.map((p) => p.dataVolumeMetrics.totalCollected)));
        assert.equal(
          b.dataVolumeMetrics.deduplicatedVolume,
          sum(parts.map((p) => p.dataVolumeMetrics.deduplicatedVolume)),
        );
        const captcha = sum(parts.map((p) => p.resourceUsageMetrics.captchaCount));
        assert.equal(b.resourceUsageMetrics.captchaCount, captcha);
        if (captcha === null) sawNullSum = true;
        const rate = runs ? Math.round(((success ?? 0) / runs) * 1e4) / 1e4 : null;
        assert.equal(b.executionMetrics.successRate, rate);
        const exec = sum(parts.map((p) => p.executionMetrics.totalExecutionSeconds));
        assert.ok(
          exec === null
            ? b.executionMetrics.totalExecutionSeconds === null
            : Math.abs((b.executionMetrics.totalExecutionSeconds ?? NaN) - exec) < 0.05,
        );
      }
      assert.ok(sawNullSum, 'a bucket whose inputs are all null stays null');
    });
  }

  // How fast such pages come is the client bench's figure (every page of a 10,000-row result), not a test's.
  it('the Enterprise account has 10,000+ Day rows in the three-month window, and its last page answers', async () => {
    const key = sb.account('Enterprise').apiKey;
    const first = await query(key, { start: earliestStart(TODAY), end: TODAY, pageSize: 100 });
    assert.ok(first.total >= 10_000, String(first.total));
    const last = await query(key, {
      start: earliestStart(TODAY),
      end: TODAY,
      pageSize: 100,
      page: Math.ceil(first.total / 100),
    });
    assert.ok(last.data.length > 0);
  });

  it("a day's records do not depend on when the sandbox started, and a sandbox that outlives midnight serves the new day", async () => {
    const later = new FakeClock(Date.parse('2026-11-25T08:00:00Z'));
    const other = await TestSandbox.start({ now: later.now });
    try {
      // Except the seeded slowing tasks: they run 2.2x longer over the last 7 days *before today*,
      // so which days are slow follows the clock (health needs "this week" to be slow whenever asked).
      const slowing = new Set(
        allTasks(buildWorld(DEFAULTS.seed).accounts[0] as SeedAccount)
          .filter((t) => t.health === 'slowing')
          .map((t) => t.taskId),
      );
      assert.equal(slowing.size, 3);
      const steady = (p: Page): AnalyticsRecord[] => p.data.filter((r) => !slowing.has(r.taskId));
      const body = { start: '2026-11-18', end: '2026-11-20', pageSize: 100 };
      const [there, here] = [dataOf<Page>(await other.analytics(ada, body)), await query(ada, body)];
      assert.equal(there.total, here.total);
      assert.deepEqual(steady(there), steady(here));
      later.advance(24 * 3600_000);
      const next = dataOf<Page>(await other.analytics(ada, { start: '2026-11-26', end: '2026-11-26' }));
      assert.ok(next.total > 0, 'records for the new UTC day');
    } finally {
      await other.close();
    }
  });

  it('is deterministic: the same seed and clock give the same records', async () => {
    const twin = await TestSandbox.start({ now: clock.now });
    const other = await TestSandbox.start({ now: clock.now, seed: 7 });
    try {
      const body = { start: '2026-11-01', end: TODAY, pageSize: 50, page: 3 };
      const a = await query(ada, body);
      const b = dataOf<Page>(await twin.analytics(ada, body));
      assert.deepEqual(a, b);
      const c = dataOf<Page>(await other.analytics(other.user('ada').apiKey, body));
      assert.notDeepEqual(c.data, a.data);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
