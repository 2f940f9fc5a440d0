/**
 * The live status poll with fake timers, against a real sandbox through the real client (whose
 * batching the sandbox counts): nothing while the view is hidden, one request per 100 visible
 * tasks, groups opened together share a call, a timer only while a visible task runs, a Standard
 * account's refusal stops it, and another account's late answers are dropped.
 */
import * as assert from 'node:assert/strict';
import { MemoryCredentialsStore } from '../../src/api/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/limiter';
import type { TaskRunStatus } from '../../src/api/ops/runs';
import { BENCH_GROUP_NAME } from '../../src/sandbox/seed';
import { RunStore } from '../../src/runs/runStore';
import { SHOW_COALESCE_MS, StatusPoller, type PollerDeps } from '../../src/runs/statusPoller';
import { FakeTimers } from './helpers/fakeTimers';
import { FakeClock, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const INTERVAL = 10_000;

/** Real time passes (HTTP needs the event loop) until the poller is idle. */
async function idle(poller: StatusPoller): Promise<void> {
  const end = Date.now() + 10_000;
  do await new Promise((r) => setImmediate(r));
  while (poller.isPolling && Date.now() < end);
  assert.equal(poller.isPolling, false, 'the poll settled');
}

describe('runs: the status poller (fake timers, real client and sandbox)', function () {
  this.timeout(30_000);
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let ada: ScrapedeckClient;
  let ids: string[];
  const statusRequests = () => sb.stats.byRoute['POST /cloudextraction/statuses/v2'] ?? 0;

  const clientFor = (username: string) =>
    new ScrapedeckClient({ baseUrl: sb.info.baseUrl, credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: sb.user(username).apiKey }), env: {}, limiter: new UnlimitedLimiter() });

  function setup(over: Partial<PollerDeps> = {}, client = ada) {
    const timers = new FakeTimers();
    const store = new RunStore(clock.now);
    const errors: { error: unknown; stopped: boolean }[] = [];
    const poller = new StatusPoller({
      timers,
      fetch: async (taskIds, signal) => (await client.getTaskStatuses(taskIds, { signal })).data,
      store,
      intervalMs: () => INTERVAL,
      onError: (error, stopped) => errors.push({ error, stopped }),
      ...over,
    });
    return { timers, store, poller, errors };
  }

  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, runSeconds: 30, extraTasks: 250 });
    ada = clientFor('ada');
    const group = (await ada.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    assert.ok(group);
    ids = (await ada.searchTasks(group.taskGroupId)).data.map((t) => t.taskId);
    assert.equal(ids.length, 250);
  });
  after(() => sb.close());

  it('asks nothing while the view is hidden; shown, 250 visible tasks cost 3 requests', async () => {
    const { timers, poller, store } = setup();
    const before = statusRequests();
    poller.show('group:bench', ids);
    await timers.advance(SHOW_COALESCE_MS * 10);
    assert.equal(poller.stats.fetches, 0);
    assert.equal(statusRequests(), before, 'hidden: nothing on the wire');
    poller.setVisible(true);
    await idle(poller);
    assert.equal(poller.stats.fetches, 1);
    assert.equal(statusRequests() - before, 3);
    assert.ok(ids.every((id) => store.get(id)?.status !== undefined));
    assert.equal(poller.isScheduled, false, 'nothing runs: no timer');
  });

  it('groups opened together share one call; rows already known are not asked again', async () => {
    const { timers, poller } = setup();
    poller.setVisible(true);
    await idle(poller);
    const before = statusRequests();
    poller.show('a', ids.slice(0, 30));
    poller.show('b', ids.slice(30, 70));
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.equal(poller.stats.fetches, 1);
    assert.equal(statusRequests() - before, 1, '70 ids, one request');
    poller.show('a', ids.slice(0, 30));
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.equal(poller.stats.fetches, 1, 'listed again, nothing new: no request');
  });

  it('polls every interval while a visible task runs, and stops once nothing runs', async () => {
    const { timers, poller, store } = setup();
    const running = ids[10] as string;
    await ada.startTask(running);
    poller.setVisible(true);
    poller.show('group:bench', ids.slice(0, 100));
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.ok(store.isActive(running));
    assert.equal(poller.isScheduled, true);
    const fetches = poller.stats.fetches;
    const before = statusRequests();
    await timers.advance(INTERVAL);
    await idle(poller);
    assert.equal(poller.stats.fetches, fetches + 1, 'one poll per interval');
    assert.equal(statusRequests() - before, 1, '100 visible tasks, one request');
    clock.advance(31_000); // the sandbox's run ends
    await timers.advance(INTERVAL);
    await idle(poller);
    assert.equal(store.get(running)?.status?.status, 'Finished');
    assert.equal(poller.isScheduled, false, 'nothing runs: the timer is gone');
    const after = poller.stats.fetches;
    await timers.advance(INTERVAL * 6);
    assert.equal(poller.stats.fetches, after, 'and nothing is asked');
  });

  it('hidden mid-run the timer stops; shown again, one refresh and polling resumes', async () => {
    const { timers, poller } = setup();
    const running = ids[20] as string;
    await ada.startTask(running);
    poller.setVisible(true);
    poller.show('g', [running]);
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.equal(poller.isScheduled, true);
    poller.setVisible(false);
    assert.equal(poller.isScheduled, false);
    const fetches = poller.stats.fetches;
    await timers.advance(INTERVAL * 5);
    assert.equal(poller.stats.fetches, fetches, 'nothing while hidden');
    poller.setVisible(true);
    await idle(poller);
    assert.equal(poller.stats.fetches, fetches + 1);
    assert.equal(poller.isScheduled, true);
    await ada.stopTask(running);
  });

  it('a collapsed group is no longer polled', async () => {
    const { timers, poller } = setup();
    const running = ids[30] as string;
    await ada.startTask(running);
    poller.setVisible(true);
    poller.show('g', [running]);
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    poller.hide('g');
    await timers.advance(INTERVAL);
    await idle(poller);
    assert.equal(poller.isScheduled, false);
    assert.deepEqual(poller.visibleIds(), []);
    await ada.stopTask(running);
  });

  it('a Standard account is refused run statuses: polling stops for the account, said once', async () => {
    const grace = clientFor('grace');
    const groups = (await grace.listTaskGroups()).data;
    const graceIds = (await grace.searchTasks(groups[0]?.taskGroupId ?? '')).data.map((t) => t.taskId);
    const { timers, poller, errors } = setup({}, grace);
    poller.setVisible(true);
    poller.show('g', graceIds);
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]?.stopped, true);
    poller.refresh();
    poller.show('h', ['another']);
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    assert.equal(poller.stats.fetches, 1, 'no second request after the refusal');
    poller.reset();
    poller.refresh(graceIds.slice(0, 1));
    await idle(poller);
    assert.equal(poller.stats.fetches, 2, 'another account may try again');
  });

  it('after a reset (another account), an answer still on its way is dropped', async () => {
    let release: (v: TaskRunStatus[]) => void = () => undefined;
    const { timers, poller, store } = setup({ fetch: () => new Promise((resolve) => (release = resolve)) });
    poller.setVisible(true);
    poller.show('g', ['t1']);
    await timers.advance(SHOW_COALESCE_MS);
    poller.reset();
    release([{ taskId: 't1', status: 'Extracting', taskName: null, currentTotalExtractCount: 1, executedTimes: 1, subTaskCount: 1, startExecuteTime: null, endExecuteTime: null, nextExecuteTime: null, source: 'v2' }]);
    await idle(poller);
    assert.equal(store.get('t1'), undefined);
    assert.equal(poller.isScheduled, false);
  });
});
