/**
 * The read tools against the sandbox (a fixed clock: Thursday 2026-11-19, 12:00 UTC): their input
 * validation (a clear sentence naming the field, nothing sent) and their answers, compared with
 * what the client itself reads. Includes "which tasks failed most this week".
 */
import * as assert from 'node:assert/strict';

import type { ScrapedeckClient } from '../../src/api/client';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor, contextFor, dataOf, refused, run, summaryOf } from './helpers/agents';
import { FakeClock } from './helpers/sandbox';

const T0 = Date.parse('2026-11-19T12:00:00Z'); // a Thursday: "this week" is Monday 16th to today
const ANALYTICS = 'POST /taskanalytics/queries';

interface Listed {
  total: number;
  nextOffset: number | null;
  tasks: { taskId: string; taskName: string; group: string }[];
  groups: { groupName: string; matchingTasks: number }[];
}

describe('agents: read tools against the sandbox', function () {
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;
  let all: { taskId: string; taskName: string; groupName: string }[];
  const ctx = () => contextFor(ada, clock.now);
  const sent = () => sandbox.stats.requests;

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: 21 });
    ada = clientFor(sandbox, 'ada');
    const groups = (await ada.listTaskGroups()).data;
    all = [];
    for (const g of groups)
      for (const t of (await ada.searchTasks(g.taskGroupId)).data) all.push({ ...t, groupName: g.taskGroupName });
  });
  after(async () => {
    await ada.close();
    await sandbox.close();
  });

  describe('input validation: a sentence naming the field, and nothing sent', () => {
    const cases: [string, unknown, RegExp][] = [
      ['scrapedeck_list_tasks', { limit: 0 }, /limit/],
      ['scrapedeck_list_tasks', { limit: 101 }, /limit/],
      ['scrapedeck_list_tasks', { offset: -1 }, /offset/],
      ['scrapedeck_list_tasks', { query: 5 }, /query/],
      ['scrapedeck_list_tasks', { taskName: 'x' }, /taskName/],
      ['scrapedeck_list_tasks', 'all of them', /input/],
      ['scrapedeck_task_analytics', { start: '2026-11-01' }, /start and end go together/],
      [
        'scrapedeck_task_analytics',
        { period: 'thisWeek', start: '2026-11-01', end: '2026-11-02' },
        /either period or start\/end/,
      ],
      ['scrapedeck_task_analytics', { period: 'thisDecade' }, /period/],
      ['scrapedeck_task_analytics', { tasks: [] }, /tasks/],
      ['scrapedeck_task_analytics', { tasks: ['a'], group: 'b' }, /either tasks or group/],
      ['scrapedeck_task_analytics', { granularity: 'Hour' }, /granularity/],
      ['scrapedeck_task_analytics', { sortBy: 'name' }, /sortBy/],
      ['scrapedeck_task_analytics', { limit: 51 }, /limit/],
      ['scrapedeck_run_status', { tasks: Array.from({ length: 101 }, (_, i) => `t${i}`) }, /tasks/],
      ['scrapedeck_run_status', { tasks: ['   '] }, /tasks\.0/],
      ['scrapedeck_sample_rows', {}, /task/],
      ['scrapedeck_sample_rows', { task: 'x', rows: 21 }, /rows/],
      ['scrapedeck_sample_rows', { task: 'x', offset: 1.5 }, /offset/],
      ['scrapedeck_start_run', { task: '' }, /task/],
      ['scrapedeck_stop_run', { task: 'x'.repeat(201) }, /task/],
      ['scrapedeck_deprecate_app', { app: 'lead-finder' }, /app: an app reference is namespace\/name/],
      ['scrapedeck_deprecate_app', { app: '../x' }, /app/],
      ['scrapedeck_deprecate_app', { app: 'ada/lead-finder', force: true }, /force/],
    ];
    for (const [name, input, field] of cases) {
      it(`${name} refuses ${JSON.stringify(input).slice(0, 60)}`, () => {
        const before = sent();
        const text = refused(name, input);
        assert.match(text, field);
        assert.match(text, new RegExp(`^The input of ${name} was not valid: .+ Nothing was sent`));
        assert.equal(sent(), before);
      });
    }

    it('a date range outside the spec’s rules is refused before sending, naming the allowed range', async () => {
      const before = sandbox.stats.byRoute[ANALYTICS] ?? 0;
      for (const [start, end, why] of [
        ['2026-06-01', '2026-06-07', /start must be within the last three months \(not before 2026-08-19\)/],
        ['2026-11-18', '2026-11-20', /end must not be after today \(2026-11-19, UTC\)/],
        ['2026-11-18', '2026-11-17', /start must not be after end/],
        ['2026-02-30', '2026-11-17', /start: must be a date as yyyy-MM-dd/],
      ] as const) {
        const reply = await run('scrapedeck_task_analytics', { start, end }, ctx());
        assert.equal(reply.ok, false);
        assert.match(reply.text, /^The analytics query was not sent: /);
        assert.match(reply.text, why);
        assert.match(reply.text, /from 2026-08-19 \(three months back\) to 2026-11-19 \(today\)/);
      }
      assert.equal(sandbox.stats.byRoute[ANALYTICS] ?? 0, before);
    });
  });

  describe('scrapedeck_list_tasks', () => {
    it('counts every task of the account and lists a page, with where the next one starts', async () => {
      const reply = await run('scrapedeck_list_tasks', { limit: 20 }, ctx());
      const data = dataOf<Listed>(reply);
      assert.equal(data.total, all.length);
      assert.deepEqual(
        data.tasks.map((t) => t.taskId),
        all.slice(0, 20).map((t) => t.taskId),
      );
      assert.equal(data.nextOffset, 20);
      assert.match(
        summaryOf(reply),
        new RegExp(`^${all.length} tasks match; tasks 1-20 are listed. Call again with offset 20`),
      );
      const next = dataOf<Listed>(await run('scrapedeck_list_tasks', { limit: 20, offset: 200 }, ctx()));
      assert.deepEqual(
        next.tasks.map((t) => t.taskId),
        all.slice(200, 220).map((t) => t.taskId),
      );
      assert.equal(next.nextOffset, null);
    });

    it('finds by part of the name (case ignored) and by group name or id, with counts per group', async () => {
      const word = (all[3]?.taskName ?? '').split(' ')[0] ?? '';
      const amazon = all.filter((t) => t.taskName.toLowerCase().includes(word.toLowerCase()));
      assert.ok(word.length > 2 && amazon.length > 1, `${word}: ${amazon.length}`);
      const data = dataOf<Listed>(await run('scrapedeck_list_tasks', { query: word.toUpperCase() }, ctx()));
      assert.deepEqual(
        data.tasks.map((t) => t.taskName),
        amazon.map((t) => t.taskName),
      );
      assert.equal(
        data.groups.reduce((n, g) => n + g.matchingTasks, 0),
        amazon.length,
      );
      const catalog = dataOf<Listed>(
        await run('scrapedeck_list_tasks', { group: 'product CATALOG', limit: 100 }, ctx()),
      );
      assert.equal(catalog.total, 160);
      assert.ok(catalog.tasks.every((t) => t.group === 'Product catalog'));
    });

    it('an unknown group is a sentence that names the groups there are', async () => {
      const reply = await run('scrapedeck_list_tasks', { group: 'Nope' }, ctx());
      assert.equal(reply.ok, false);
      assert.match(
        reply.text,
        /^No task group has the name or id “Nope”. The groups are: “Price monitoring”, “Lead generation”/,
      );
    });
  });

  describe('scrapedeck_task_analytics', () => {
    const thisWeek = async (): Promise<AnalyticsRecord[]> =>
      (await ada.queryAllTaskAnalytics({ start: '2026-11-16', end: '2026-11-19' })).records;

    it('answers "which tasks failed most this week": every task, ranked by failures, totals as the client reads them', async () => {
      const reply = await run('scrapedeck_task_analytics', { period: 'thisWeek', sortBy: 'failures', limit: 5 }, ctx());
      assert.equal(reply.ok, true, reply.text);
      const data = dataOf<{
        range: { start: string; end: string };
        totals: { runs: number; failures: number };
        tasks: { taskId: string; failures: number }[];
        tasksWithRecords: number;
        periods: { period: string }[];
      }>(reply);
      assert.deepEqual([data.range.start, data.range.end], ['2026-11-16', '2026-11-19']);
      const records = await thisWeek();
      const failures = new Map<string, number>();
      for (const r of records)
        failures.set(r.taskId, (failures.get(r.taskId) ?? 0) + (r.executionMetrics.failureCount ?? 0));
      const most = Math.max(...failures.values());
      assert.equal(data.tasks.length, 5);
      assert.equal(data.tasks[0]?.failures, most);
      for (let i = 1; i < data.tasks.length; i++)
        assert.ok((data.tasks[i - 1]?.failures ?? 0) >= (data.tasks[i]?.failures ?? 0), 'highest first');
      assert.equal(data.tasksWithRecords, failures.size);
      assert.equal(
        data.totals.failures,
        records.reduce((n, r) => n + (r.executionMetrics.failureCount ?? 0), 0),
      );
      assert.equal(
        data.totals.runs,
        records.reduce((n, r) => n + (r.executionMetrics.runCount ?? 0), 0),
      );
      assert.deepEqual(
        data.periods.map((p) => p.period),
        ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'],
      );
      assert.match(
        summaryOf(reply),
        /^From 2026-11-16 to 2026-11-19 \(UTC, by Day\), \d+ tasks of all tasks of the account had records: \d+ runs, \d+ failures, success rate \d+\.\d%/,
      );
    });

    it('a group of 160 tasks goes out as two queries of at most 100 ids, and adds up to the same figures', async () => {
      const catalogIds = all.filter((t) => t.groupName === 'Product catalog').map((t) => t.taskId);
      const before = sandbox.stats.byRoute[ANALYTICS] ?? 0;
      const reply = await run(
        'scrapedeck_task_analytics',
        { group: 'Product catalog', period: 'last7Days', granularity: 'Week', sortBy: 'runs' },
        ctx(),
      );
      const data = dataOf<{ tasksSelected: number; totals: { runs: number }; periods: { period: string }[] }>(reply);
      assert.equal(data.tasksSelected, 160);
      assert.ok((sandbox.stats.byRoute[ANALYTICS] ?? 0) - before >= 2, 'at least one request per 100 ids');
      let runs = 0;
      for (const ids of [catalogIds.slice(0, 100), catalogIds.slice(100)]) {
        for (const r of (
          await ada.queryAllTaskAnalytics({
            start: '2026-11-13',
            end: '2026-11-19',
            taskIds: ids,
            timeGranularity: 'Week',
          })
        ).records)
          runs += r.executionMetrics.runCount ?? 0;
      }
      assert.equal(data.totals.runs, runs);
      assert.deepEqual(
        data.periods.map((p) => p.period),
        ['2026-W46', '2026-W47'],
      );
    });

    it('named tasks (by id or exact name) and an unknown one', async () => {
      const [a, b] = all;
      assert.ok(a && b);
      const data = dataOf<{ tasksSelected: number; tasks: { taskId: string }[] }>(
        await run(
          'scrapedeck_task_analytics',
          { tasks: [a.taskId, b.taskName.toUpperCase()], period: 'lastWeek' },
          ctx(),
        ),
      );
      assert.equal(data.tasksSelected, 2);
      assert.ok(data.tasks.every((t) => t.taskId === a.taskId || t.taskId === b.taskId));
      const unknown = await run('scrapedeck_task_analytics', { tasks: ['No such task'] }, ctx());
      assert.equal(unknown.ok, false);
      assert.match(
        unknown.text,
        /^No task of this account has the id or name “No such task”. Use scrapedeck_list_tasks to find it.$/,
      );
    });
  });

  describe('scrapedeck_run_status', () => {
    it('every task, counted per status, the listed ones as the client reads them', async () => {
      const reply = await run('scrapedeck_run_status', { limit: 10 }, ctx());
      const data = dataOf<{
        total: number;
        byStatus: Record<string, number>;
        tasks: { taskId: string; status: string; started: string | null }[];
      }>(reply);
      assert.equal(data.total, all.length);
      assert.equal(
        Object.values(data.byStatus).reduce((n, c) => n + c, 0),
        all.length,
      );
      assert.equal(data.tasks.length, 10);
      const direct = new Map(
        (await ada.getTaskStatuses(data.tasks.map((t) => t.taskId))).data.map((s) => [s.taskId, s.status]),
      );
      // A task the service leaves out of v2 never ran in the cloud, and says so.
      for (const t of data.tasks) assert.equal(t.status, direct.get(t.taskId) ?? 'Never run in the cloud');
      assert.ok(
        (data.byStatus['Never run in the cloud'] ?? 0) > 0,
        'tasks with only local runs never ran in the cloud',
      );
      for (const t of data.tasks) if (t.started !== null) assert.match(t.started, /Z$/, 'times are written as UTC');
    });

    it('one task reads "1 task", not "1 tasks" (issue 32)', async () => {
      const task = all[0];
      assert.ok(task);
      const reply = await run('scrapedeck_run_status', { tasks: [task.taskId] }, ctx());
      assert.match(summaryOf(reply), /^1 task: [01] running \(Extracting\)\. 1 of them listed, running ones first\.$/);
      const listed = await run('scrapedeck_list_tasks', { query: task.taskName }, ctx());
      const matching = all.filter((t) => t.taskName.toLowerCase().includes(task.taskName.toLowerCase())).length;
      if (matching === 1) assert.equal(summaryOf(listed), '1 task matches; it is listed.');
      const rows = await run('scrapedeck_sample_rows', { task: task.taskId, rows: 1 }, ctx());
      assert.match(
        summaryOf(rows),
        new RegExp(`^1 row of “${task.taskName}” from offset 0; it has [\\d,]+ rows? in all`),
      );
    });

    it('a plan without cloud extraction (grace, Standard): the plan named, and the request id', async () => {
      const grace = clientFor(sandbox, 'grace');
      try {
        const reply = await run('scrapedeck_run_status', {}, contextFor(grace, clock.now));
        assert.equal(reply.ok, false);
        assert.match(reply.text, /^Could not read the run status of \d+ tasks\. /);
        assert.match(reply.text, /Professional or Enterprise/);
        assert.match(reply.text, /Request ID \(for support\): [\w-]+\.$/);
      } finally {
        await grace.close();
      }
    });
  });

  describe('scrapedeck_sample_rows', () => {
    it('at most the rows asked, the column names, the total and where the next rows start', async () => {
      const task = all[0];
      assert.ok(task);
      const direct = (await ada.getData(task.taskId, { offset: 0, size: 5 })).data;
      const reply = await run('scrapedeck_sample_rows', { task: task.taskId, rows: 5 }, ctx());
      const data = dataOf<{ total: number; columns: string[]; rows: unknown[][]; nextOffset: number | null }>(reply);
      assert.equal(data.total, direct.total);
      assert.ok(data.rows.length <= 5);
      assert.deepEqual(data.columns, Object.keys(direct.data[0] ?? {}));
      assert.deepEqual(
        data.rows[0],
        data.columns.map((c) => direct.data[0]?.[c] ?? null),
      );
      assert.equal(data.nextOffset, direct.restTotal > 0 ? direct.offset : null);
      assert.match(
        summaryOf(reply),
        new RegExp(`^${data.rows.length} rows of “${task.taskName}” from offset 0; it has ${direct.total} rows in all`),
      );
    });
  });

  describe('failures the model can relay', () => {
    it('a refused API key: what failed, the adapter’s sign-in hint and the request id', async () => {
      const bad = clientFor(sandbox, 'ada', 'sdk_notAKeyAnyoneHas000000000000000000000');
      try {
        const reply = await run('scrapedeck_list_tasks', {}, contextFor(bad, clock.now));
        assert.equal(reply.ok, false);
        assert.match(
          reply.text,
          /^Could not list the task groups\. .+ Sign in again \(test hint\)\. Request ID \(for support\): [\w-]+\.$/,
        );
      } finally {
        await bad.close();
      }
    });

    it('a Free plan (fiona): the service’s refusal naming the plans, no hint repeating them, the request id', async () => {
      const fiona = clientFor(sandbox, 'fiona');
      try {
        const reply = await run('scrapedeck_task_analytics', { period: 'today' }, contextFor(fiona, clock.now));
        assert.equal(reply.ok, false);
        assert.match(reply.text, /^Could not read the task analytics of all tasks from 2026-11-19 to 2026-11-19\. /);
        assert.match(reply.text, /Standard, Professional or Enterprise plan/);
        assert.doesNotMatch(reply.text, /This needs a/, 'the service already named the plans');
        assert.match(reply.text, /Request ID \(for support\): /);
      } finally {
        await fiona.close();
      }
    });
  });
});
