/**
 * Every runs, task-parameter and data method of the client against the real sandbox (a fake
 * clock for its runs): results, the service's refusals as ApiErrors (kind, status, string code,
 * request id), batching at 100 counted at the server, and the reader over a big task.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError, type ApiErrorKind } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { parseServiceTime } from '../../src/api/schemas/runSchemas';
import { BENCH_GROUP_NAME } from '../../src/sandbox/seed/seed';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { lotNumber, LOTS_KEPT } from '../../src/sandbox/state/runBook';
import { FakeClock } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const BIG = 12_345;

describe('client: runs, parameters and data against the sandbox', function () {
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  const clients: ScrapedeckClient[] = [];
  let ada: ScrapedeckClient;
  let groups: { taskGroupId: string; taskGroupName: string }[];
  let tasks: { taskId: string; taskName: string }[];
  let bench: { taskId: string; taskName: string }[];

  const clientFor = (username: string): ScrapedeckClient => {
    const account = sandbox.info.accounts.find((a) => a.username === username);
    assert.ok(account);
    // The operations are under test, not the pacing (the sandbox's limit is off too).
    const c = new ScrapedeckClient({
      baseUrl: sandbox.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: account.apiKey }),
      env: {},
      limiter: new UnlimitedLimiter(),
    });
    clients.push(c);
    return c;
  };
  const refusal =
    (kind: ApiErrorKind, status: number, code: string, message?: RegExp) =>
    (e: unknown): boolean => {
      assert.ok(e instanceof ApiError, String(e));
      assert.deepEqual([e.kind, e.status, e.code, e.maybeApplied], [kind, status, code, false]);
      assert.ok(e.requestId, 'a request id');
      if (message) assert.match(e.message, message);
      return true;
    };
  const routeCount = (route: string): number => sandbox.stats.byRoute[route] ?? 0;

  before(async () => {
    sandbox = await startSandbox({
      now: clock.now,
      rateLimit: 0,
      seed: 21,
      runSeconds: 30,
      queueSeconds: 0,
      bigTaskRows: BIG,
      extraTasks: 250,
    });
    ada = clientFor('ada');
    groups = (await ada.listTaskGroups()).data;
    tasks = (await ada.searchTasks(groups[1]?.taskGroupId ?? '')).data;
    bench = (await ada.searchTasks(groups.find((g) => g.taskGroupName === BENCH_GROUP_NAME)?.taskGroupId ?? '')).data;
    assert.equal(bench.length, 251);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox.close();
  });

  it('statuses of 251 tasks: three v2 requests at the server, every task that ran in the cloud once, in order', async () => {
    const before = routeCount('POST /cloudextraction/statuses/v2');
    const r = await ada.getTaskStatuses(bench.map((t) => t.taskId));
    assert.equal(routeCount('POST /cloudextraction/statuses/v2') - before, 3);
    const answered = new Set(r.data.map((s) => s.taskId));
    assert.ok(answered.size > 150, 'most bench tasks ran in the cloud');
    assert.deepEqual(
      r.data.map((s) => s.taskId),
      bench.map((t) => t.taskId).filter((id) => answered.has(id)),
      'the ones that never ran are left out',
    );
    assert.ok(r.data.every((s) => s.source === 'v2' && typeof s.executedTimes === 'number'));
  });

  it('start → Extracting with rows growing → stop → Stopped; the refusals as ApiErrors', async () => {
    const id = tasks[2]?.taskId as string;
    const started = await ada.startTask(id);
    assert.match(started.data?.lotNo ?? '', /^\d{19}$/, "the run's lot, 19 digits, kept as text");
    assert.equal(started.data?.status, 'Extracting');
    clock.advance(10_000);
    const [running] = (await ada.getTaskStatuses([id])).data;
    assert.equal(running?.status, 'Extracting');
    assert.ok((running?.currentTotalExtractCount ?? 0) > 0);
    assert.equal(parseServiceTime(running?.startExecuteTime), T0);
    await assert.rejects(
      ada.startTask(id),
      refusal('invalid-request', 409, 'TaskAlreadyRunning', /start task .* already running/),
    );
    const subtasks = (await ada.getSubtaskStatuses(id, { page: 1, size: 20 })).data;
    assert.equal(subtasks.length, running?.subTaskCount);
    await ada.stopSubtasks(id, [subtasks[subtasks.length - 1]?.subTaskId as string]);
    assert.equal((await ada.getSubtaskStatuses(id, { page: 1, size: 20 })).data.at(-1)?.status, 'Stopped');
    await ada.startSubtasks(id, [subtasks[subtasks.length - 1]?.subTaskId as string]);
    await ada.stopTask(id);
    const [stopped] = (await ada.getTaskStatuses([id])).data;
    assert.equal(stopped?.status, 'Stopped');
    assert.equal(parseServiceTime(stopped?.endExecuteTime), T0 + 10_000);
    await assert.rejects(ada.stopTask(id), refusal('invalid-request', 409, 'TaskNotRunning'));
    await assert.rejects(ada.startTask('no-such-task'), refusal('not-found', 404, 'InvalidTaskId', /no-such-task/));
    const lot = (await ada.getLotData(id, started.data?.lotNo ?? '', { offset: 0, size: 1000 })).data;
    assert.equal(lot.total, stopped?.currentTotalExtractCount, "the started run's rows, by its lot");
  });

  it('plans: Standard is refused cloud extraction and parameters (forbidden, Forbidden.Plan, the plan note); Free is refused data', async () => {
    const grace = clientFor('grace');
    await assert.rejects(
      grace.getTaskStatuses(['x']),
      refusal(
        'forbidden',
        403,
        'Forbidden.Plan',
        /Standard plan.*Cloud extraction needs a Professional or Enterprise plan/,
      ),
    );
    await assert.rejects(grace.startTask('x'), refusal('forbidden', 403, 'Forbidden.Plan'));
    await assert.rejects(grace.getActions(['x']), refusal('forbidden', 403, 'Forbidden.Plan', /Task parameters need/));
    const fiona = clientFor('fiona');
    await assert.rejects(
      fiona.getData('x', { offset: 0, size: 10 }),
      refusal('forbidden', 403, 'Forbidden.Plan', /Free plan.*Data operations need/),
    );
    await assert.rejects(fiona.copyTask('x'), refusal('forbidden', 403, 'Forbidden.Plan', /Duplicating and moving/));
  });

  it('loop items: read, replace, append; later reads return the new list', async () => {
    const id = tasks[3]?.taskId as string;
    const loop = (await ada.getActions([id])).data[0]?.actions[0];
    assert.ok(loop && loop.loopType !== null);
    const items = loop.loopType === 'URLList' ? ['https://example.com/1', 'https://example.com/2'] : ['one', 'two'];
    assert.deepEqual(
      (
        await ada.updateLoopItems({
          taskId: id,
          actionId: loop.actionId,
          loopType: loop.loopType,
          loopItems: items,
          isAppend: false,
        })
      ).data,
      { message: 'success' },
    );
    await ada.updateLoopItems({
      taskId: id,
      actionId: loop.actionId,
      loopType: loop.loopType,
      loopItems: items.slice(0, 1),
      isAppend: true,
    });
    const after = (await ada.getActions([id])).data[0]?.actions.find((a) => a.actionId === loop.actionId);
    assert.deepEqual(after?.loopItems, [...items, items[0]]);
    await ada.updateActionProperties(id, [
      { actionType: 'LoopAction', actionId: loop.actionId, properties: [{ name: 'name', value: 'Start pages' }] },
    ]);
    assert.equal(
      (await ada.getActions([id])).data[0]?.actions.find((a) => a.actionId === loop.actionId)?.name,
      'Start pages',
    );
    await assert.rejects(
      ada.updateLoopItems({
        taskId: id,
        actionId: 'nope',
        loopType: 'URLList',
        loopItems: ['https://x.example'],
        isAppend: false,
      }),
      refusal('invalid-request', 400, 'TaskUpdateFail', /actionId/),
    );
  });

  it('copy and move change what task search returns', async () => {
    const [from, to] = [groups[1]?.taskGroupId as string, groups[0]?.taskGroupId as string];
    const source = tasks[4] as { taskId: string; taskName: string };
    const copy = (await ada.copyTask(source.taskId)).data;
    assert.equal(copy.taskName, `${source.taskName} (copy)`);
    assert.ok((await ada.searchTasks(from)).data.some((t) => t.taskId === copy.taskId));
    assert.deepEqual((await ada.moveTask(copy.taskId, to)).data, { moved: true });
    assert.ok(!(await ada.searchTasks(from)).data.some((t) => t.taskId === copy.taskId));
    assert.ok((await ada.searchTasks(to)).data.some((t) => t.taskId === copy.taskId));
    await assert.rejects(ada.moveTask(copy.taskId, '1'), refusal('not-found', 404, 'InvalidTaskGroupId'));
  });

  it("data: pages, one run's rows, not exported then marked, remove", async () => {
    const id = tasks[5]?.taskId as string;
    const first = (await ada.getData(id, { offset: 0, size: 10 })).data;
    assert.ok(first.total > 0);
    const runs = (await ada.getTaskStatuses([id])).data[0]?.executedTimes ?? 0;
    const lot1 = (
      await ada.getLotData(id, lotNumber(21, id, Math.max(1, runs - LOTS_KEPT + 1)), { offset: 0, size: 10 })
    ).data;
    assert.deepEqual(lot1.data, first.data.slice(0, lot1.data.length), 'the oldest lot kept holds the first rows');
    await assert.rejects(ada.getLotData(id, '999', { offset: 0, size: 10 }), refusal('not-found', 404, 'InvalidLotNo'));
    const pending = (await ada.getNotExportedData(id, 1000)).data;
    assert.ok(pending.current > 0);
    assert.deepEqual((await ada.getNotExportedData(id, 1000)).data, pending, 'the same rows until marked');
    await ada.markExported(id);
    assert.equal((await ada.getNotExportedData(id, 1000)).data.total, 0);
    await ada.removeData(id);
    assert.equal((await ada.getData(id, { offset: 0, size: 10 })).data.total, 0);
  });

  it('the reader streams the big task page by page: every row once, 13 requests, progress to the end', async () => {
    const big = bench[0] as { taskId: string };
    const before = routeCount('GET /data/all');
    let rows = 0;
    let lastRow: unknown;
    let progress = { rows: 0, restTotal: -1 };
    for await (const page of ada.readData(big.taskId, { onProgress: (p) => (progress = p) })) {
      rows += page.rows.length;
      lastRow = page.rows.at(-1);
    }
    assert.equal(rows, BIG);
    assert.deepEqual([progress.rows, progress.restTotal], [BIG, 0]);
    assert.equal(routeCount('GET /data/all') - before, Math.ceil(BIG / 1000));
    assert.deepEqual(lastRow, (await ada.getData(big.taskId, { offset: BIG - 1, size: 1 })).data.data[0]);
  });

  it("the reader over an empty task: one request, no rows; over one run's rows with lotNo", async () => {
    const copy = (await ada.copyTask(tasks[6]?.taskId as string)).data;
    const pages = [];
    for await (const page of ada.readData(copy.taskId)) pages.push(page);
    assert.deepEqual(
      pages.map((p) => [p.rows.length, p.restTotal]),
      [[0, 0]],
    );
    const id = tasks[7]?.taskId as string;
    const runs = (await ada.getTaskStatuses([id])).data[0]?.executedTimes ?? 0;
    const lotNo = lotNumber(21, id, runs);
    const lot = (await ada.getLotData(id, lotNo, { offset: 0, size: 1000 })).data;
    let n = 0;
    for await (const page of ada.readData(id, { lotNo, pageSize: 7 })) n += page.rows.length;
    assert.equal(n, lot.total);
  });
});
