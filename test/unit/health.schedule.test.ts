/**
 * The health controller and its schedule on fake timers, against a sandbox on a fixed date: no
 * request while the view is hidden, 100 ids per query and every page at 100, the previous window
 * reused the same day, a refused plan said once, failures said once per run of them, stored
 * health per account (shown at once, dropped at sign-out), and the seeded tasks found.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { fetchAllPages } from '../../src/api/http/fetchAll';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import type { AnalyticsQuery } from '../../src/api/schemas/schemas';
import { AttentionSeen } from '../../src/health/attentionSeen';
import { HealthBoard, type TaskHealthInfo } from '../../src/health/healthBoard';
import { HealthCache } from '../../src/health/healthCache';
import { HealthController, type HealthNotifier, type HealthTaskRow } from '../../src/health/healthController';
import type { AnalyticsSource } from '../../src/health/healthFetch';
import { DEFAULT_HEALTH_SETTINGS, type HealthSettings } from '../../src/health/healthSettings';
import { allTasks, buildWorld, type SeedAccount } from '../../src/sandbox/seed/seed';
import { FakeTimers } from './helpers/fakeTimers';
import { FakeClock, TestSandbox } from './helpers/sandbox';

const TODAY = '2026-11-22';
const MINUTE = 60_000;

class Memento {
  readonly map = new Map<string, unknown>();
  get(key: string): unknown {
    return this.map.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.map.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return Promise.resolve();
  }
}

interface Heard {
  crossed: TaskHealthInfo[][];
  unavailable: ApiError[];
  failed: unknown[];
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('health controller and schedule (fake timers, sandbox)', function () {
  let sb: TestSandbox;
  const clock = new FakeClock(Date.parse(`${TODAY}T09:00:00Z`));
  const seed = 5;
  const extraTasks = 250;

  before(async () => {
    sb = await TestSandbox.start({ seed, now: clock.now, extraTasks });
  });
  after(() => sb.close());

  const analyticsRequests = (): number => sb.stats.byRoute['POST /taskanalytics/queries'] ?? 0;

  function clientFor(username: string): ScrapedeckClient {
    return new ScrapedeckClient({
      baseUrl: sb.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: sb.user(username).apiKey }),
      env: {},
      limiter: new UnlimitedLimiter(),
      now: clock.now,
    });
  }

  async function listTasks(client: ScrapedeckClient): Promise<HealthTaskRow[]> {
    const rows: HealthTaskRow[] = [];
    for (const g of (await client.listTaskGroups()).data) {
      for (const t of (await client.searchTasks(g.taskGroupId)).data)
        rows.push({ ...t, taskGroupId: g.taskGroupId, taskGroupName: g.taskGroupName });
    }
    return rows;
  }

  /** A controller on fake timers; `queries` records every page asked (through the client's own paging). */
  function setup(
    options: {
      username?: string;
      source?: AnalyticsSource;
      settings?: Partial<HealthSettings>;
      memento?: Memento;
      listing?: (rows: HealthTaskRow[]) => { rows: HealthTaskRow[]; complete: boolean };
    } = {},
  ) {
    const client = clientFor(options.username ?? 'ada');
    const queries: AnalyticsQuery[] = [];
    const recording: AnalyticsSource = {
      queryAllTaskAnalytics: (query, o) =>
        fetchAllPages(
          (q, signal) => {
            queries.push(q);
            return client.queryTaskAnalytics(q, { signal });
          },
          query,
          o,
        ),
    };
    const heard: Heard = { crossed: [], unavailable: [], failed: [] };
    const notifier: HealthNotifier = {
      crossed: (tasks) => heard.crossed.push([...tasks]),
      unavailable: (e) => heard.unavailable.push(e),
      failed: (e) => heard.failed.push(e),
      clamped: () => undefined,
    };
    const timers = new FakeTimers();
    const board = new HealthBoard(clock.now);
    const settings: HealthSettings = { ...DEFAULT_HEALTH_SETTINGS, ...options.settings };
    const memento = options.memento ?? new Memento();
    let listed = 0;
    const controller = new HealthController({
      board,
      cache: new HealthCache(memento, { warn: () => undefined }),
      getClient: () => options.source ?? recording,
      listTasks: async () => {
        listed++;
        const rows = await listTasks(client);
        return options.listing ? options.listing(rows) : { rows, complete: true };
      },
      timers,
      clock: clock.now,
      settings: () => settings,
      notifier,
      seen: new AttentionSeen(memento),
    });
    return {
      controller,
      board,
      timers,
      queries,
      heard,
      memento,
      settings,
      listed: () => listed,
      close: () => client.close(),
    };
  }

  it('asks nothing while the view is hidden; refreshes when it shows, then every refreshMinutes while visible', async () => {
    const h = setup();
    try {
      const before = analyticsRequests();
      h.controller.setAccount('ada');
      await h.timers.advance(120 * MINUTE);
      assert.equal(analyticsRequests(), before, 'hidden: no analytics request');
      assert.equal(h.listed(), 0, 'hidden: not even the task list');

      h.controller.setVisible(true);
      await until('the first refresh', () => h.board.snapshot !== undefined);
      const first = analyticsRequests() - before;
      assert.ok(first > 0);
      await until('the refresh to settle', () => !h.controller.refreshing);
      await h.timers.advance(14 * MINUTE);
      assert.equal(analyticsRequests() - before, first, 'nothing before the interval');
      await h.timers.advance(1 * MINUTE);
      await until('the second refresh', () => h.controller.stats.refreshes === 2);
      await until('the refresh to settle', () => !h.controller.refreshing);

      h.controller.setVisible(false);
      const hiddenAt = analyticsRequests();
      await h.timers.advance(240 * MINUTE);
      assert.equal(analyticsRequests(), hiddenAt, 'hidden again: no request however long');
      h.controller.setVisible(true); // older than the interval: at once
      await until('the refresh on showing', () => h.controller.stats.refreshes === 3);
    } finally {
      h.controller.dispose();
      await h.close();
    }
  });

  it('asks every task in one query paged at 100 (the fewest pages), the previous window only where a slowdown can be judged, and reuses it the same day', async () => {
    const h = setup();
    try {
      h.controller.setAccount('ada');
      h.controller.setVisible(true);
      await until('the first refresh', () => h.board.snapshot !== undefined);
      const snapshot = h.board.snapshot;
      assert.ok(snapshot);
      const tasks = snapshot.tasks.map((t) => t.taskId);
      assert.equal(tasks.length, 211 + extraTasks);
      for (const q of h.queries) {
        assert.equal(q.pageSize, 100);
        assert.equal(q.timeGranularity, 'Month');
        assert.ok(
          q.taskIds === undefined || (q.taskIds.length >= 1 && q.taskIds.length <= 100),
          `${q.taskIds?.length} ids`,
        );
      }
      // What a query for all tasks answers in each window, asked here apart from the controller.
      const client = clientFor('ada');
      const recordsOf = async (w: { start: string; end: string }): Promise<number> =>
        (await client.queryTaskAnalytics({ ...w, timeGranularity: 'Month', pageSize: 1 })).data.total;
      const [currentRecords, previousRecords] = [await recordsOf(snapshot.current), await recordsOf(snapshot.previous)];
      const ranBefore = new Set(
        (await client.queryAllTaskAnalytics({ ...snapshot.previous, timeGranularity: 'Month' })).records.map(
          (r) => r.taskId,
        ),
      );
      await client.close();

      // The current window: more than 100 tasks, all of the account's, so one query names none
      // and every page but the last is full.
      const current = h.queries.filter((q) => q.start === snapshot.current.start && q.end === snapshot.current.end);
      assert.ok(
        current.every((q) => q.taskIds === undefined),
        'no ids: every task',
      );
      assert.deepEqual(
        current.map((q) => q.page).sort((a, b) => (a ?? 0) - (b ?? 0)),
        Array.from({ length: Math.ceil(currentRecords / 100) }, (_, i) => i + 1),
        'pages 1..ceil(records / 100), none twice',
      );

      // The previous window serves the slowdown, which needs an average run time now: the tasks
      // timed now, by whichever shape takes fewer pages, and never more than all tasks' pages.
      const timedNow = snapshot.tasks.filter((t) => (t.current?.timedRuns ?? 0) > 0).map((t) => t.taskId);
      assert.ok(timedNow.length < tasks.length, 'the fixture has tasks without timed runs now');
      const previous = h.queries.filter((q) => q.start === snapshot.previous.start && q.end === snapshot.previous.end);
      assert.ok(
        previous.length <= Math.ceil(previousRecords / 100),
        `${previous.length} requests for ${previousRecords} records`,
      );
      const named = previous.flatMap((q) => (q.page === 1 ? (q.taskIds ?? []) : []));
      if (named.length > 0)
        assert.deepEqual([...named].sort(), [...timedNow].sort(), 'batches name each task timed now once');
      // Kept: the previous figures of each task timed now that ran then, and of no other task.
      for (const t of snapshot.tasks)
        assert.equal(t.previous !== null, timedNow.includes(t.taskId) && ranBefore.has(t.taskId), t.taskName);

      const firstCount = h.queries.length;
      await h.controller.refresh();
      const again = h.queries.slice(firstCount);
      assert.equal(
        again.length,
        Math.ceil(currentRecords / 100),
        'a later refresh: the current window again, in full pages',
      );
      assert.ok(
        again.every((q) => q.start === snapshot.current.start),
        'the same day: only the current window is asked again',
      );

      clock.advance(24 * 60 * MINUTE); // a new day: the previous window moved
      try {
        const n = h.queries.length;
        await h.controller.refresh();
        const next = h.board.snapshot;
        assert.ok(next && next.previous.start !== snapshot.previous.start);
        assert.ok(h.queries.slice(n).some((q) => q.start === next.previous.start));
      } finally {
        clock.advance(-24 * 60 * MINUTE);
      }
    } finally {
      h.controller.dispose();
      await h.close();
    }
  });

  /**
   * A refresh of ada with every task listed, and one whose listing is `listing`; `check` sees the
   * second. Its tasks' health must equal the first's: how they were asked changes no figure.
   */
  async function againstFullListing(
    listing: (rows: HealthTaskRow[]) => { rows: HealthTaskRow[]; complete: boolean },
    listed: number,
    check: (part: ReturnType<typeof setup>) => Promise<void>,
  ): Promise<void> {
    const full = setup();
    const part = setup({ listing });
    try {
      for (const h of [full, part]) {
        h.controller.setAccount('ada');
        await h.controller.refresh();
      }
      const tasks = part.board.snapshot?.tasks ?? [];
      assert.equal(tasks.length, listed);
      for (const t of tasks)
        assert.deepEqual(
          t,
          full.board.snapshot?.tasks.find((f) => f.taskId === t.taskId),
          t.taskName,
        );
      await check(part);
    } finally {
      for (const h of [full, part]) {
        h.controller.dispose();
        await h.close();
      }
    }
  }

  it('asks by task id when the list is not every task (a group failed), and judges the same figures', () =>
    againstFullListing(
      (rows) => ({ rows: rows.slice(0, 150), complete: false }),
      150,
      async (part) => {
        assert.ok(part.queries.length > 0);
        assert.ok(
          part.queries.every((q) => (q.taskIds?.length ?? 0) >= 1 && (q.taskIds?.length ?? 0) <= 100),
          'no query for all tasks',
        );
      },
    ));

  it('a list said to be complete that is not: the query for all tasks stops after page 1 and batches take over', () =>
    againstFullListing(
      (rows) => ({ rows: rows.slice(0, 101), complete: true }),
      101,
      async (part) => {
        // 101 tasks answer at most 202 records in a window inside one month: ada's account answers more.
        assert.deepEqual(
          part.queries.filter((q) => q.taskIds === undefined).map((q) => q.page),
          [1],
          'one page of the query for all tasks, then no more',
        );
        assert.ok(
          part.queries.some((q) => q.taskIds !== undefined),
          'then batches',
        );
        assert.equal(
          part.controller.stats.lastRequestIds.length,
          part.queries.length,
          'every request sent has its request id, the stopped page 1 too',
        );
        // The next refresh goes to batches at once: the account's records are known now.
        const n = part.queries.length;
        await part.controller.refresh();
        assert.ok(part.queries.slice(n).every((q) => q.taskIds !== undefined));
      },
    ));

  it('finds the seeded failing and slowing tasks, says so once, and not again for the same tasks', async () => {
    const h = setup();
    try {
      h.controller.setAccount('ada');
      await h.controller.refresh(); // on demand: runs while hidden too
      const seeded = allTasks(buildWorld(seed, { extraTasks }).accounts[0] as SeedAccount).filter(
        (t) => t.health !== undefined,
      );
      assert.deepEqual(
        h.board
          .attention()
          .map((i) => i.task.taskId)
          .sort(),
        seeded.map((t) => t.taskId).sort(),
      );
      for (const t of seeded) assert.equal(h.board.task(t.taskId)?.health.level, t.health);
      assert.equal(h.heard.crossed.length, 1, 'one notification for all of them');
      assert.equal(h.heard.crossed[0]?.length, 6);
      await h.controller.refresh();
      assert.equal(h.heard.crossed.length, 1, 'no second notification for tasks already over');
    } finally {
      h.controller.dispose();
      await h.close();
    }

    const quiet = setup({ settings: { notify: false } });
    try {
      quiet.controller.setAccount('ada');
      await quiet.controller.refresh();
      assert.equal(quiet.board.attention().length, 6);
      assert.deepEqual(quiet.heard.crossed, [], 'scrapedeck.health.notify off: no notification');
    } finally {
      quiet.controller.dispose();
      await quiet.close();
    }
  });

  it('a refused plan shows health as unavailable once and stops asking; asking again says it again', async () => {
    let calls = 0;
    const refusing: AnalyticsSource = {
      queryAllTaskAnalytics: () => {
        calls++;
        return Promise.reject(
          new ApiError({
            kind: 'forbidden',
            status: 403,
            message: 'Task analytics requires a Standard, Professional or Enterprise plan',
            requestId: 'req-403',
          }),
        );
      },
    };
    const h = setup({ source: refusing });
    try {
      h.controller.setAccount('ada');
      h.controller.setVisible(true);
      await until('unavailable', () => h.board.status.kind === 'unavailable');
      assert.equal(h.heard.unavailable.length, 1);
      assert.equal(h.heard.failed.length, 0, 'not an error per task or per batch');
      const status = h.board.status;
      assert.equal(status.kind === 'unavailable' && status.requestId, 'req-403');
      const after = calls;
      assert.ok(after <= 10, `at most one query per batch and window (${after})`);
      await h.timers.advance(180 * MINUTE);
      assert.equal(calls, after, 'no more queries on the schedule');
      await h.controller.refresh();
      assert.equal(h.heard.unavailable.length, 2, 'asked for: told again');
    } finally {
      h.controller.dispose();
      await h.close();
    }

    const fiona = setup({ username: 'fiona' });
    try {
      const before = analyticsRequests();
      fiona.controller.setAccount('fiona');
      fiona.controller.setVisible(true);
      await until('unavailable', () => fiona.board.status.kind === 'unavailable');
      assert.equal(analyticsRequests(), before, 'the task list was refused: analytics is not asked');
      assert.deepEqual(fiona.heard.unavailable, [], 'the Tasks view already says the plan refused the task list');
      await fiona.timers.advance(180 * MINUTE);
      assert.equal(fiona.listed(), 1, 'not asked again on the schedule');
    } finally {
      fiona.controller.dispose();
      await fiona.close();
    }
  });

  it('a failing refresh is said once per run of failures, and again when asked for', async () => {
    const failing: AnalyticsSource = {
      queryAllTaskAnalytics: () =>
        Promise.reject(
          new ApiError({ kind: 'server', status: 503, message: 'Service unavailable', requestId: 'req-503' }),
        ),
    };
    const h = setup({ source: failing, settings: { refreshMinutes: 1 } });
    try {
      h.controller.setAccount('ada');
      h.controller.setVisible(true);
      await until('the first failure', () => h.heard.failed.length === 1);
      for (let i = 0; i < 3; i++) {
        const n = h.listed();
        await h.timers.advance(MINUTE);
        await until('the next scheduled try', () => h.listed() > n && !h.controller.refreshing);
      }
      assert.equal(h.heard.failed.length, 1);
      await h.controller.refresh();
      assert.equal(h.heard.failed.length, 2);
    } finally {
      h.controller.dispose();
      await h.close();
    }
  });

  it('keeps health per account: shown at once when the account comes back, dropped at sign-out', async () => {
    const memento = new Memento();
    const h = setup({ memento });
    try {
      h.controller.setAccount('ada');
      await h.controller.refresh();
      const adas = h.board.snapshot;
      assert.ok(adas);
      h.controller.setAccount('grace');
      assert.equal(h.board.snapshot, undefined, "nothing of ada's under grace");
      assert.equal(h.board.attention().length, 0);
    } finally {
      h.controller.dispose();
      await h.close();
    }
    // A new window (VS Code reopened): ada's stored health at once, without a request.
    const again = setup({ memento });
    try {
      const before = analyticsRequests();
      again.controller.setAccount('ada');
      again.controller.setVisible(true);
      assert.equal(again.board.snapshot?.tasks.length, 211 + extraTasks);
      assert.equal(again.board.attention().length, 6);
      await again.timers.advance(MINUTE);
      assert.equal(analyticsRequests(), before, 'fresh enough: no refresh before the interval');
      again.controller.setAccount(undefined); // sign-out
      assert.equal(again.board.snapshot, undefined);
      again.controller.setAccount('ada');
      assert.equal(again.board.snapshot, undefined, 'signing out forgot the stored health');
    } finally {
      again.controller.dispose();
      await again.close();
    }
  });

  it('announces only what is new since the account last saw the list: not again after a sign-out and sign-in, nor in a new window (issue 48 item 6)', async () => {
    const memento = new Memento();
    const h = setup({ memento });
    try {
      h.controller.setAccount('ada');
      await h.controller.refresh();
      assert.equal(h.heard.crossed.length, 1);
      assert.equal(h.heard.crossed[0]?.length, 6, 'the first time, all six are new');
      h.controller.setAccount(undefined); // sign-out: the stored health goes
      h.controller.setAccount('ada');
      assert.equal(h.board.snapshot, undefined);
      await h.controller.refresh();
      assert.equal(h.board.attention().length, 6, 'the same six still need attention');
      assert.equal(h.heard.crossed.length, 1, 'signed in again: nothing new, nothing said');
      // grace has its own list: what ada saw says nothing about hers.
      assert.equal(new AttentionSeen(memento).read('grace'), undefined);
      // One of ada's tasks stops needing attention, as far as she last saw, and needs it again: said again, alone.
      const [one] = h.board.attention();
      assert.ok(one);
      await new AttentionSeen(memento).write(
        'ada',
        h.board
          .attention()
          .filter((i) => i !== one)
          .map((i) => i.task.taskId),
      );
      h.controller.setAccount(undefined);
      h.controller.setAccount('ada');
      await h.controller.refresh();
      assert.deepEqual(
        h.heard.crossed.at(-1)?.map((i) => i.task.taskId),
        [one.task.taskId],
        'only the task new since she last saw the list',
      );
    } finally {
      h.controller.dispose();
      await h.close();
    }
    // A new window on the same globalState: the stored health is there, nothing is said.
    const again = setup({ memento });
    try {
      again.controller.setAccount('ada');
      await again.controller.refresh();
      assert.deepEqual(again.heard.crossed, [], 'a new window: nothing new');
    } finally {
      again.controller.dispose();
      await again.close();
    }
  });
});
