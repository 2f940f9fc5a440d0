/**
 * The live status poll with fake timers, against a real sandbox through the real client (whose
 * batching the sandbox counts): nothing while the view is hidden, one request per 100 visible
 * tasks, groups opened together share a call, a timer only while a visible task runs, a Standard
 * account's refusal stops it, and another account's late answers are dropped.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { type EndedRun, RunStore } from '../../src/runs/runStore';
import {
  FOLLOW_MS,
  type PollAnswer,
  type PollerDeps,
  SHOW_COALESCE_MS,
  StatusPoller,
} from '../../src/runs/statusPoller';
import { BENCH_GROUP_NAME } from '../../src/sandbox/seed/seed';
import { endingStore } from './helpers/endingStore';
import { FakeTimers } from './helpers/fakeTimers';
import { FakeClock, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const INTERVAL = 10_000;

/** The sandbox's answers on their way: idle() waits for them, not for a stretch of real time. */
const onTheWay = new Set<Promise<unknown>>();

function tracked<T>(answer: Promise<T>): Promise<T> {
  onTheWay.add(answer);
  answer.then(
    () => onTheWay.delete(answer),
    () => onTheWay.delete(answer),
  );
  return answer;
}

/**
 * Until the poller is idle: each answer it waits for is awaited (HTTP needs the event loop), then
 * the poller takes it in. No deadline of real time, which a loaded machine could pass with the
 * poll still on its way: a poll that never settles is a hang, and the test's timeout says so.
 */
async function idle(poller: StatusPoller): Promise<void> {
  do {
    if (onTheWay.size > 0) await Promise.allSettled([...onTheWay]);
    await new Promise((r) => setImmediate(r));
  } while (poller.isPolling);
}

describe('runs: the status poller (fake timers, real client and sandbox)', function () {
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let ada: ScrapedeckClient;
  let ids: string[];
  const statusRequests = () => sb.stats.byRoute['POST /cloudextraction/statuses/v2'] ?? 0;

  const clientFor = (username: string) =>
    new ScrapedeckClient({
      baseUrl: sb.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: sb.user(username).apiKey }),
      env: {},
      limiter: new UnlimitedLimiter(),
    });

  function setup(over: Partial<PollerDeps> = {}, client = ada) {
    const timers = new FakeTimers();
    const store = new RunStore(clock.now);
    const errors: { error: unknown; stopped: boolean }[] = [];
    const poller = new StatusPoller({
      timers,
      fetch: (taskIds, signal) =>
        tracked(
          client
            .getTaskStatuses(taskIds, { signal })
            .then((r) => ({ statuses: r.data, leftOutNeverRan: r.source === 'v2' })),
        ),
      store,
      intervalMs: () => INTERVAL,
      onError: (error, stopped) => errors.push({ error, stopped }),
      ...over,
    });
    return { timers, store, poller, errors };
  }

  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, runSeconds: 30, queueSeconds: 0, extraTasks: 250 });
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
    assert.ok(
      ids.every((id) => store.get(id)?.status !== undefined || store.get(id)?.neverRun === true),
      'each task has a status, or never ran in the cloud',
    );
    assert.ok(
      ids.some((id) => store.get(id)?.neverRun === true) && ids.some((id) => store.get(id)?.status !== undefined),
    );
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
    let release: (v: PollAnswer) => void = () => undefined;
    const { timers, poller, store } = setup({ fetch: () => new Promise((resolve) => (release = resolve)) });
    poller.setVisible(true);
    poller.show('g', ['t1']);
    await timers.advance(SHOW_COALESCE_MS);
    poller.reset();
    release({
      statuses: [
        {
          taskId: 't1',
          status: 'Extracting',
          taskName: null,
          currentTotalExtractCount: 1,
          executedTimes: 1,
          subTaskCount: 1,
          startExecuteTime: null,
          endExecuteTime: null,
          nextExecuteTime: null,
          source: 'v2',
        },
      ],
      leftOutNeverRan: true,
    });
    await idle(poller);
    assert.equal(store.get('t1'), undefined);
    assert.equal(poller.isScheduled, false);
  });
});

/** A sandbox on the fake clock for one describe, with Ada's client and her Benchmarks tasks' ids. */
function benchSandbox(options: Parameters<typeof TestSandbox.start>[0]): {
  sb: TestSandbox;
  ada: ScrapedeckClient;
  ids: string[];
} {
  const bench = {} as { sb: TestSandbox; ada: ScrapedeckClient; ids: string[] };
  before(async () => {
    bench.sb = await TestSandbox.start(options);
    bench.ada = new ScrapedeckClient({
      baseUrl: bench.sb.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: bench.sb.user('ada').apiKey }),
      env: {},
      limiter: new UnlimitedLimiter(),
    });
    const group = (await bench.ada.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    bench.ids = (await bench.ada.searchTasks(group?.taskGroupId ?? '')).data.map((t) => t.taskId);
  });
  after(async () => {
    await bench.ada.close();
    await bench.sb.close();
  });
  return bench;
}
describe('runs: the poller follows a queued run to its end (issue 28 item 2, issue 32 item 5)', function () {
  const clock = new FakeClock(T0);
  const bench = benchSandbox({ now: clock.now, runSeconds: 30, queueSeconds: 5, extraTasks: 250 });
  const statusRequests = () => bench.sb.stats.byRoute['POST /cloudextraction/statuses/v2'] ?? 0;

  it('queued, extracting, finished: polled all along at 3 requests per poll for 250 rows, rows shown within 2 s of extracting, the end announced once', async () => {
    const timers = new FakeTimers();
    const { store, ended } = endingStore(clock.now);
    const poller = new StatusPoller({
      timers,
      fetch: (taskIds, signal) =>
        tracked(
          bench.ada
            .getTaskStatuses(taskIds, { signal })
            .then((r) => ({ statuses: r.data, leftOutNeverRan: r.source === 'v2' })),
        ),
      store,
      intervalMs: () => INTERVAL,
      onError: (error) => assert.fail(String(error)),
    });
    poller.setVisible(true);
    poller.show('group:bench', bench.ids);
    await timers.advance(SHOW_COALESCE_MS);
    await idle(poller);
    const id = bench.ids.find((x) => store.get(x)?.status !== undefined && !store.isActive(x)) as string;

    // As Start Run does: pending at once, the request, then the poller follows the task.
    store.setPending([id], 'starting');
    await bench.ada.startTask(id);
    poller.follow([id]);
    await idle(poller);
    assert.equal(store.get(id)?.status?.status, 'Waiting');
    assert.ok(store.isActive(id), 'a queued run is watched');

    const seen: string[] = [];
    let firstRowsAt: number | undefined;
    const fetchesBefore = poller.stats.fetches;
    const requestsBefore = statusRequests();
    for (let t = 1_000; t <= 50_000; t += 1_000) {
      clock.advance(1_000);
      await timers.advance(1_000);
      await idle(poller);
      const s = store.get(id)?.status;
      if (s !== undefined && seen.at(-1) !== s.status) seen.push(s.status);
      if (firstRowsAt === undefined && (s?.currentTotalExtractCount ?? 0) > 0) firstRowsAt = t;
    }
    assert.deepEqual(seen.slice(0, 2), ['Waiting', 'Extracting']);
    assert.match(seen[2] ?? '', /^(Finished|Failed)$/);
    assert.equal(ended.length, 1, 'one finish notice');
    assert.equal(ended[0]?.taskId, id);
    const polls = poller.stats.fetches - fetchesBefore;
    assert.equal((statusRequests() - requestsBefore) / polls, 3, 'every poll is one call: 3 requests for 250 rows');
    // The run extracts from 5 s on; with the poll every 10 s its rows would show at 10 s at best.
    assert.ok(
      firstRowsAt !== undefined && firstRowsAt <= 8_000,
      `rows shown ${firstRowsAt} ms after the start (the run extracts at 5 s)`,
    );
    // A run started here is followed at FOLLOW_MS to its end (35 s), then polling stops.
    assert.ok(
      poller.stats.followTicks <= Math.ceil(35_000 / FOLLOW_MS) + 1,
      `${poller.stats.followTicks} quick polls, bounded by the run's length`,
    );
    assert.ok(polls < 50_000 / FOLLOW_MS, `${polls} polls in 50 s: none once the run ended`);
    assert.equal(poller.followedIds().length, 0, 'the ended run is followed no more');
    assert.equal(poller.isScheduled, false, 'nothing runs: no timer');
  });
});

describe('runs: a run started here is followed at the fast pace until it ends (issue 48 items 3 and 4)', function () {
  const clock = new FakeClock(T0);
  const SLOW = 30_000;
  const bench = benchSandbox({ now: clock.now, runSeconds: 50, queueSeconds: 0, extraTasks: 20 });

  function setup() {
    const timers = new FakeTimers();
    const store = new RunStore(clock.now);
    const ended: EndedRun[] = [];
    const asked: string[][] = [];
    store.onDidEnd((runs) => ended.push(...runs));
    const poller = new StatusPoller({
      timers,
      fetch: async (taskIds, signal) => {
        asked.push([...taskIds]);
        const r = await bench.ada.getTaskStatuses(taskIds, { signal });
        return { statuses: r.data, leftOutNeverRan: r.source === 'v2' };
      },
      store,
      intervalMs: () => SLOW,
      onError: (error) => assert.fail(String(error)),
    });
    return { timers, store, poller, ended, asked };
  }

  /** Starts a run of an idle task as Start Run does, then lets fake time pass second by second until its end shows. */
  async function startAndWatch(h: ReturnType<typeof setup>, id: string): Promise<number | undefined> {
    h.store.setPending([id], 'starting');
    await bench.ada.startTask(id);
    h.poller.follow([id]);
    await idle(h.poller);
    for (let t = 1_000; t <= 120_000; t += 1_000) {
      clock.advance(1_000);
      await h.timers.advance(1_000);
      await idle(h.poller);
      if (h.ended.length > 0) return t;
    }
    return undefined;
  }

  it('on screen: a 50 s run (extracting with rows most of the time) shows its end within 2 s, though the interval is 30 s', async () => {
    const h = setup();
    h.poller.setVisible(true);
    h.poller.show('group:bench', bench.ids);
    await h.timers.advance(SHOW_COALESCE_MS);
    await idle(h.poller);
    const id = bench.ids.find((x) => h.store.get(x) !== undefined && !h.store.isActive(x)) as string;
    const endSeen = await startAndWatch(h, id);
    assert.ok(endSeen !== undefined && endSeen <= 50_000 + FOLLOW_MS, `the end (at 50 s) was seen at ${endSeen} ms`);
    assert.equal(h.ended[0]?.taskId, id, 'announced');
    assert.equal(h.poller.isScheduled, false, 'after the end nothing is polled');
  });

  it('off screen (the view hidden, as when an agent starts it): the run is still followed to its end, and only it is asked', async () => {
    const h = setup();
    const id = bench.ids.at(-1) as string;
    // The rows were listed (the group is expanded), then the view was hidden: they are not asked.
    h.poller.show('group:bench', bench.ids);
    await h.timers.advance(SHOW_COALESCE_MS);
    await idle(h.poller);
    assert.equal(h.asked.length, 0, 'hidden: nothing asked');
    const endSeen = await startAndWatch(h, id);
    assert.ok(endSeen !== undefined && endSeen <= 50_000 + FOLLOW_MS, `the end (at 50 s) was seen at ${endSeen} ms`);
    assert.equal(h.ended[0]?.taskId, id, 'announced');
    assert.ok(
      h.asked.length > 0 && h.asked.every((a) => a.length === 1 && a[0] === id),
      'hidden, only the followed task is asked',
    );
    assert.equal(h.poller.isScheduled, false);
  });
});
