/**
 * scrapedeck_task_health against the sandbox (a fixed clock: Thursday 2026-11-19, 12:00 UTC): its
 * input validation, its answer compared with what the health model computes on its own from raw
 * Day-granularity analytics queries (the seeded failing and slowing tasks of ada), the list's cap,
 * and the Free plan's refusal with its request id.
 */
import * as assert from 'node:assert/strict';

import { view } from '../../src/agents/tools/taskHealth';
import type { ScrapedeckClient } from '../../src/api/client';
import { addDays } from '../../src/api/schemas/dates';
import { assess, attentionOrder, DEFAULT_THRESHOLDS, totalsByTask } from '../../src/health/healthModel';
import { allTasks, buildWorld, type SeedAccount } from '../../src/sandbox/seed/seed';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor, contextFor, dataOf, refused, run, summaryOf } from './helpers/agents';
import { FakeClock } from './helpers/sandbox';

const SEED = 21;
const TODAY = '2026-11-19';
const T0 = Date.parse(`${TODAY}T12:00:00Z`);
const NAME = 'scrapedeck_task_health';

type Listed = ReturnType<typeof view>;
interface Answer {
  window: { days: number; current: { start: string; end: string }; previous: { start: string; end: string } };
  tasksJudged: number;
  counts: { failing: number; slowing: number; noRuns: number; ok: number };
  attention: Listed[];
  moreNeedingAttention: number;
}

describe('agents: scrapedeck_task_health against the sandbox', function () {
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;
  let all: { taskId: string; taskName: string; groupName: string }[];
  const ctx = () => contextFor(ada, clock.now);
  const seeded = (health: string) =>
    allTasks(buildWorld(SEED).accounts[0] as SeedAccount)
      .filter((t) => t.health === health)
      .map((t) => t.taskId)
      .sort();

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: SEED });
    ada = clientFor(sandbox, 'ada');
    all = [];
    const seen = new Set<string>();
    for (const g of (await ada.listTaskGroups()).data) {
      for (const t of (await ada.searchTasks(g.taskGroupId)).data)
        if (!seen.has(t.taskId) && seen.add(t.taskId)) all.push({ ...t, groupName: g.taskGroupName });
    }
  });
  after(async () => {
    await ada.close();
    await sandbox.close();
  });

  describe('input validation: a sentence naming the field, and nothing sent', () => {
    const cases: [unknown, RegExp][] = [
      [{ windowDays: 0 }, /windowDays/],
      [{ windowDays: 47 }, /windowDays/],
      [{ windowDays: 2.5 }, /windowDays/],
      [{ failureRate: 1 }, /failureRate/],
      [{ failureRate: -0.1 }, /failureRate/],
      [{ slowdownFactor: 0.5 }, /slowdownFactor/],
      [{ task: 'a', group: 'b' }, /either task or group/],
      [{ limit: 51 }, /limit/],
      [{ tasks: ['a'] }, /tasks/],
    ];
    for (const [input, field] of cases) {
      it(`refuses ${JSON.stringify(input)}`, () => {
        const before = sandbox.stats.requests;
        const text = refused(NAME, input);
        assert.match(text, field);
        assert.match(text, new RegExp(`^The input of ${NAME} was not valid: .+ Nothing was sent`));
        assert.equal(sandbox.stats.requests, before);
      });
    }
  });

  it('answers what the health model computes from raw Day queries: ada’s seeded failing and slowing tasks, counts and figures', async () => {
    const reply = await run(NAME, { limit: 50 }, ctx());
    assert.equal(reply.ok, true, reply.text);
    const data = dataOf<Answer>(reply);
    assert.deepEqual(data.window.current, { start: addDays(TODAY, -6), end: TODAY });
    assert.deepEqual(data.window.previous, { start: addDays(TODAY, -13), end: addDays(TODAY, -7) });

    // On its own: every task's Day records of each window, through the model.
    const raw = async (start: string, end: string) =>
      totalsByTask((await ada.queryAllTaskAnalytics({ start, end, timeGranularity: 'Day' })).records);
    const now = await raw(data.window.current.start, data.window.current.end);
    const before = await raw(data.window.previous.start, data.window.previous.end);
    const judged = all.map((task) => ({
      task: { taskId: task.taskId, taskName: task.taskName, groupId: '', groupName: task.groupName },
      health: assess(now.get(task.taskId), before.get(task.taskId), DEFAULT_THRESHOLDS),
    }));
    const level = (l: string) => judged.filter((j) => j.health.level === l).length;
    assert.deepEqual(data.counts, {
      failing: level('failing'),
      slowing: level('slowing'),
      noRuns: level('idle'),
      ok: level('ok'),
    });
    assert.equal(data.tasksJudged, all.length);

    const expected = judged
      .filter((j) => j.health.level !== 'ok')
      .sort((a, b) => attentionOrder(a.health, b.health))
      .map((j) => view(j.task, j.health));
    assert.equal(data.attention.length + data.moreNeedingAttention, expected.length);
    assert.deepEqual(
      data.attention.map((a) => [a.taskId, a.level, a.runs, a.failures, a.failureRate]),
      expected.slice(0, 50).map((a) => [a.taskId, a.level, a.runs, a.failures, a.failureRate]),
    );
    for (const [i, a] of data.attention.entries()) {
      const e = expected[i] as Listed;
      for (const key of ['averageSeconds', 'previousAverageSeconds', 'slowdown'] as const) {
        assert.ok(
          a[key] === e[key] || Math.abs((a[key] ?? NaN) - (e[key] ?? NaN)) <= 0.02 * Math.abs(e[key] ?? 0) + 0.1,
          `${a.taskName} ${key}: ${a[key]} vs ${e[key]}`,
        );
      }
    }

    // The seeded ones, and only they, cross the thresholds.
    assert.deepEqual(
      data.attention
        .filter((a) => a.failing)
        .map((a) => a.taskId)
        .sort(),
      seeded('failing'),
    );
    assert.deepEqual(
      data.attention
        .filter((a) => a.level === 'slowing')
        .map((a) => a.taskId)
        .sort(),
      seeded('slowing'),
    );
    assert.deepEqual(
      data.attention.slice(0, 3).map((a) => a.level),
      ['failing', 'failing', 'failing'],
      'failing first',
    );
    assert.match(
      summaryOf(reply),
      new RegExp(
        `^Task health of ${all.length} tasks over the last 7 days \\(2026-11-13 to 2026-11-19, UTC\\) against the 7 days before: 3 failing \\(failure rate above 20%\\), 3 slowing \\(average run time above 1.5x\\), \\d+ with no runs, \\d+ fine\\.`,
      ),
    );
  });

  it('caps the list and says how many more; one task by name; thresholds from the input', async () => {
    const capped = dataOf<Answer>(await run(NAME, { limit: 2 }, ctx()));
    assert.equal(capped.attention.length, 2);
    assert.equal(capped.moreNeedingAttention, capped.counts.failing + capped.counts.slowing + capped.counts.noRuns - 2);

    const failingId = seeded('failing')[0];
    const task = all.find((t) => t.taskId === failingId);
    assert.ok(task);
    const one = dataOf<Answer>(await run(NAME, { task: task.taskName.toUpperCase() }, ctx()));
    assert.equal(one.tasksJudged, 1);
    assert.deepEqual(
      one.attention.map((a) => [a.taskId, a.level]),
      [[task.taskId, 'failing']],
    );

    const lenient = dataOf<Answer>(await run(NAME, { failureRate: 0.99, slowdownFactor: 100, windowDays: 3 }, ctx()));
    assert.deepEqual([lenient.counts.failing, lenient.counts.slowing, lenient.window.days], [0, 0, 3]);
    assert.ok(lenient.attention.every((a) => a.level === 'noRuns'));
  });

  it('a Free plan (fiona): the service’s refusal naming the plans, and the request id', async () => {
    const fiona = clientFor(sandbox, 'fiona');
    try {
      const reply = await run(NAME, {}, contextFor(fiona, clock.now));
      assert.equal(reply.ok, false);
      assert.match(reply.text, /^Task health is unavailable for this account\. .*Free plan/);
      assert.match(reply.text, /Standard, Professional or Enterprise plan/);
      assert.doesNotMatch(reply.text, /This needs a/, 'the service already named the plans');
      assert.match(reply.text, /Request ID \(for support\): [\w-]+\.$/);
    } finally {
      await fiona.close();
    }
  });
});
