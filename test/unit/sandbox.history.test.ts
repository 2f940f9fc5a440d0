/**
 * The sandbox's run history agrees with its analytics (issue 32 item 3: "Reddit ratings" read "Not
 * run yet" beside "20 runs"): a task that never ran in the cloud has no cloud run in its analytics;
 * one that did has at least as many runs as its analytics count in the cloud, and its last run
 * ended on the last day they show one. Read through the client, as the extension reads them.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { earliestStart, todayUtc } from '../../src/api/schemas/dates';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';

const T0 = Date.parse('2026-11-22T15:00:00Z');

describe('sandbox: the run history follows the analytics', function () {
  let sandbox: RunningSandbox;
  const clients: ScrapedeckClient[] = [];
  const today = todayUtc(new Date(T0));
  const window = { start: earliestStart(today), end: today };

  before(async () => {
    sandbox = await startSandbox({ now: () => T0, rateLimit: 0 });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox.close();
  });

  const clientFor = (username: string): ScrapedeckClient => {
    const apiKey = sandbox.info.accounts.find((a) => a.username === username)?.apiKey ?? '';
    const c = new ScrapedeckClient({
      baseUrl: sandbox.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
      limiter: new UnlimitedLimiter(),
      env: {},
      now: () => T0,
    });
    clients.push(c);
    return c;
  };
  const runsOf = (records: readonly AnalyticsRecord[]): Map<string, number> => {
    const out = new Map<string, number>();
    for (const r of records) out.set(r.taskId, (out.get(r.taskId) ?? 0) + (r.executionMetrics.runCount ?? 0));
    return out;
  };
  const allTasks = async (c: ScrapedeckClient) => {
    const tasks: { taskId: string; taskName: string }[] = [];
    for (const g of (await c.listTaskGroups()).data) tasks.push(...(await c.searchTasks(g.taskGroupId)).data);
    return tasks;
  };

  for (const username of ['ada', 'linus']) {
    it(`${username}: never run in the cloud exactly when the analytics show no cloud run; otherwise at least as many runs`, async () => {
      const c = clientFor(username);
      const tasks = await allTasks(c);
      const cloud = runsOf(
        (await c.queryAllTaskAnalytics({ ...window, collectionMethod: 'Cloud', timeGranularity: 'Month' })).records,
      );
      const statuses = new Map((await c.getTaskStatuses(tasks.map((t) => t.taskId))).data.map((s) => [s.taskId, s]));
      let never = 0;
      for (const t of tasks) {
        const s = statuses.get(t.taskId);
        const counted = cloud.get(t.taskId) ?? 0;
        if (s === undefined) {
          never++;
          assert.equal(
            counted,
            0,
            `${t.taskName}: left out of statuses (never ran in the cloud) but its analytics count ${counted} cloud runs`,
          );
        } else {
          assert.ok(
            (s.executedTimes ?? 0) >= counted && (s.executedTimes ?? 0) > 0,
            `${t.taskName}: ${s.executedTimes} runs so far, ${counted} cloud runs in the analytics`,
          );
        }
      }
      if (username === 'ada') assert.ok(never > 0, "ada has tasks that only run on their owners' computers");
    });
  }

  it('ada\'s "Reddit ratings" runs only locally: its analytics count runs, none in the cloud, and statuses leave it out', async () => {
    const c = clientFor('ada');
    const reddit = (await allTasks(c)).find((t) => t.taskName === 'Reddit ratings');
    assert.ok(reddit, 'the seeded task the issue names');
    const all = (await c.queryAllTaskAnalytics({ start: today, end: today, taskIds: [reddit.taskId] })).records;
    const recent = (await c.queryAllTaskAnalytics({ ...window, taskIds: [reddit.taskId], timeGranularity: 'Month' }))
      .records;
    assert.ok(
      recent.some((r) => r.collectionMethod === 'Local' && (r.executionMetrics.runCount ?? 0) > 0),
      'local runs',
    );
    assert.ok(!recent.some((r) => r.collectionMethod === 'Cloud'), 'no cloud run');
    assert.ok(all.every((r) => r.collectionMethod === 'Local'));
    assert.deepEqual((await c.getTaskStatuses([reddit.taskId])).data, []);
  });

  it('the last run ended on the last day the analytics show a cloud run', async () => {
    const c = clientFor('ada');
    const tasks = (await allTasks(c)).slice(0, 40);
    const statuses = (await c.getTaskStatuses(tasks.map((t) => t.taskId))).data;
    const ids = statuses.map((s) => s.taskId).slice(0, 25);
    const days = (
      await c.queryAllTaskAnalytics({ ...window, taskIds: ids, collectionMethod: 'Cloud', timeGranularity: 'Day' })
    ).records;
    let checked = 0;
    for (const s of statuses.filter((x) => ids.includes(x.taskId))) {
      const last = days
        .filter((r) => r.taskId === s.taskId && (r.executionMetrics.runCount ?? 0) > 0)
        .map((r) => r.dayKey)
        .sort()
        .at(-1);
      if (last === undefined) continue; // its last cloud run is older than the three months analytics answer for
      assert.equal(s.endExecuteTime?.slice(0, 10), last, `task ${s.taskId}`);
      checked++;
    }
    assert.ok(checked > 10, `${checked} tasks checked`);
  });
});
