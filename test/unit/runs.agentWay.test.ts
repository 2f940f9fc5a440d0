/**
 * An agent's run goes through runs as the tree's does (issue 48 item 4): the start tool, given the
 * Tasks view's way in (`runs/runWatch.ts`), shows "Starting…" before its request, keeps the run's
 * lot, and the poller follows the run to its end, which is announced with the name the service gave.
 */
import * as assert from 'node:assert/strict';

import type { ScrapedeckClient } from '../../src/api/client';
import { RunStore } from '../../src/runs/runStore';
import { runWatch } from '../../src/runs/runWatch';
import { FOLLOW_MS, StatusPoller } from '../../src/runs/statusPoller';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor, contextFor, dataOf, run } from './helpers/agents';
import { endingStore } from './helpers/endingStore';
import { FakeTimers } from './helpers/fakeTimers';
import { FakeClock } from './helpers/sandbox';

const T0 = Date.parse('2026-11-27T12:00:00Z');

describe('runs: an agent starts a run the way the Tasks view does (issue 48 item 4)', function () {
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: 21, runSeconds: 40, queueSeconds: 0 });
    ada = clientFor(sandbox, 'ada');
  });
  after(async () => {
    await ada.close();
    await sandbox.close();
  });

  it('"Starting…" before the request, the lot kept, followed (view hidden) to its end, announced with its name', async () => {
    const group = (await ada.listTaskGroups()).data[1];
    const task = (await ada.searchTasks(group?.taskGroupId ?? '')).data[3];
    assert.ok(task);
    const timers = new FakeTimers();
    const { store, ended } = endingStore(clock.now);
    const poller = new StatusPoller({
      timers,
      fetch: async (ids, signal) => {
        const r = await ada.getTaskStatuses(ids, { signal });
        return { statuses: r.data, leftOutNeverRan: r.source === 'v2' };
      },
      store,
      intervalMs: () => 60_000,
      onError: (error) => assert.fail(String(error)),
    });
    const names = new Map<string, string>();
    const watch = runWatch({ store, poller, named: (id, name) => names.set(id, name) });
    const shownBeforeRequest: (string | undefined)[] = [];
    const starts = () => sandbox.stats.byRoute['POST /cloudextraction/start'] ?? 0;
    const startsBefore = starts();
    store.onDidChange((ids) => {
      if (ids.includes(task.taskId) && starts() === startsBefore)
        shownBeforeRequest.push(store.get(task.taskId)?.pending?.action);
    });

    const reply = await run('scrapedeck_start_run', { task: task.taskId }, contextFor(ada, clock.now, { runs: watch }));
    assert.equal(reply.ok, true, reply.text);
    assert.deepEqual(shownBeforeRequest, ['starting'], 'the row says Starting… before the request goes out');
    const { lotNo } = dataOf<{ lotNo: string }>(reply);
    assert.equal(store.lotOf(task.taskId)?.lotNo, lotNo, "the run's lot is kept (Export This Run's Data)");
    assert.deepEqual(poller.followedIds(), [task.taskId], 'followed');
    assert.equal(names.get(task.taskId), task.taskName);

    let endSeen: number | undefined;
    for (let t = 1_000; t <= 90_000 && endSeen === undefined; t += 1_000) {
      clock.advance(1_000);
      await timers.advance(1_000);
      for (let i = 0; i < 50 && poller.isPolling; i++) await new Promise((r) => setTimeout(r, 2));
      if (ended.length > 0) endSeen = t;
    }
    assert.ok(endSeen !== undefined && endSeen <= 40_000 + FOLLOW_MS, `the end (at 40 s) was seen at ${endSeen} ms`);
    assert.equal(ended[0]?.taskId, task.taskId);
    assert.equal(ended[0]?.lot?.lotNo, lotNo, "the finish notice offers this run's rows");
    assert.deepEqual(poller.followedIds(), []);
  });

  it('a start the service refuses leaves no "Starting…" behind', async () => {
    const group = (await ada.listTaskGroups()).data[1];
    const task = (await ada.searchTasks(group?.taskGroupId ?? '')).data[4];
    assert.ok(task);
    const store = new RunStore(clock.now);
    const followed: string[] = [];
    const watch = runWatch({ store, poller: { follow: (ids) => followed.push(...ids) }, named: () => undefined });
    await ada.startTask(task.taskId); // already running: the tool's start is refused
    const reply = await run('scrapedeck_start_run', { task: task.taskId }, contextFor(ada, clock.now, { runs: watch }));
    assert.equal(reply.ok, false, reply.text);
    assert.equal(store.get(task.taskId)?.pending, undefined, 'no pending start stays');
    assert.deepEqual(followed, [task.taskId], 'what the service says next is asked');
  });
});
