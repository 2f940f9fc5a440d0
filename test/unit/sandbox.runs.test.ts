/**
 * The sandbox's cloud extraction over raw HTTP, on a fake clock (no test sleeps): a started task
 * goes Extracting, collects rows, counts its runs, has subtasks, ends on its own or when stopped;
 * the refusals (already running, not running, unknown task, plan) in the service's envelope.
 */
import * as assert from 'node:assert/strict';

import type { SubtaskStatus, TaskStatusV2 } from '../../src/api/schemas/runSchemas';
import { codeOf, dataOf, FakeClock, messageOf, type Reply, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');

describe('sandbox: runs (cloud extraction)', function () {
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let key: string;
  let tasks: { taskId: string; taskName: string }[];

  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, runSeconds: 30, queueSeconds: 0 });
    key = sb.user('ada').apiKey;
    const groups = dataOf<{ taskGroupId: string }[]>(await sb.call('/taskGroup', { headers: { 'x-api-key': key } }));
    tasks = dataOf(
      await sb.call(`/task/search?taskGroupId=${groups[2]?.taskGroupId ?? ''}`, { headers: { 'x-api-key': key } }),
    );
    assert.ok(tasks.length > 10);
  });
  after(() => sb.close());

  const post = (path: string, body: unknown, apiKey = key): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': apiKey }, body });
  const get = (path: string, apiKey = key): Promise<Reply> => sb.call(path, { headers: { 'x-api-key': apiKey } });
  const statusOf = async (taskId: string): Promise<TaskStatusV2> => {
    const r = await post('/cloudextraction/statuses/v2', { taskIds: [taskId] });
    assert.equal(r.status, 200, r.text);
    const s = dataOf<TaskStatusV2[]>(r)[0];
    assert.ok(s, 'a status');
    return s;
  };
  const refused = (r: Reply, status: number, code: string, message: RegExp): void => {
    assert.equal(r.status, status, r.text);
    assert.equal(codeOf(r), code);
    assert.match(messageOf(r), message);
    assert.equal(typeof r.json?.requestId, 'string');
  };

  it('a started task goes Extracting, collects rows over time, counts the run, and ends Finished on its own', async () => {
    const id = tasks[5]?.taskId as string;
    // A task that never ran in the cloud is left out of v2: then it has run 0 times.
    const before = dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: [id] }))[0] ?? {
      status: 'never run',
      executedTimes: 0,
    };
    assert.notEqual(before.status, 'Extracting');
    assert.equal((await post('/cloudextraction/start', { taskId: id })).status, 200);
    const at0 = await statusOf(id);
    assert.equal(at0.status, 'Extracting');
    assert.equal(at0.executedTimes, (before.executedTimes ?? 0) + 1);
    assert.equal(at0.currentTotalExtractCount, 0);
    assert.equal(at0.startExecuteTime, '2026-11-22T12:00:00.000');
    assert.equal(at0.endExecuteTime, null);
    assert.ok((at0.subTaskCount ?? 0) >= 2);
    clock.advance(10_000);
    const at10 = await statusOf(id);
    clock.advance(10_000);
    const at20 = await statusOf(id);
    assert.ok(
      (at10.currentTotalExtractCount ?? 0) > 0 &&
        (at20.currentTotalExtractCount ?? 0) > (at10.currentTotalExtractCount ?? 0),
      'rows grow',
    );
    assert.equal(at20.status, 'Extracting');
    clock.advance(10_000);
    const done = await statusOf(id);
    assert.equal(done.status, 'Finished');
    assert.equal(done.endExecuteTime, '2026-11-22T12:00:30.000');
    assert.equal(done.executedTimes, at0.executedTimes, 'the same run');
    clock.advance(60_000);
    assert.equal((await statusOf(id)).currentTotalExtractCount, done.currentTotalExtractCount, 'no rows after the end');
  });

  it('stop ends the run at once with the rows collected so far; stopping again is 409 TaskNotRunning', async () => {
    const id = tasks[6]?.taskId as string;
    await post('/cloudextraction/start', { taskId: id });
    clock.advance(12_000);
    const running = await statusOf(id);
    assert.equal((await post('/cloudextraction/stop', { taskId: id })).status, 200);
    const stopped = await statusOf(id);
    assert.equal(stopped.status, 'Stopped');
    assert.equal(stopped.currentTotalExtractCount, running.currentTotalExtractCount);
    clock.advance(30_000);
    assert.equal((await statusOf(id)).status, 'Stopped', 'a stopped run does not finish later');
    refused(await post('/cloudextraction/stop', { taskId: id }), 409, 'TaskNotRunning', /not running/);
  });

  it("starting a running task is 409 TaskAlreadyRunning; an unknown or another account's task is 404 InvalidTaskId", async () => {
    const id = tasks[7]?.taskId as string;
    await post('/cloudextraction/start', { taskId: id });
    refused(await post('/cloudextraction/start', { taskId: id }), 409, 'TaskAlreadyRunning', /already running/);
    refused(await post('/cloudextraction/start', { taskId: 'no-such-task' }), 404, 'InvalidTaskId', /taskId/);
    const linusGroups = dataOf<{ taskGroupId: string }[]>(await get('/taskGroup', sb.user('linus').apiKey));
    const linusTask = dataOf<{ taskId: string }[]>(
      await get(`/task/search?taskGroupId=${linusGroups[0]?.taskGroupId ?? ''}`, sb.user('linus').apiKey),
    )[0];
    refused(await post('/cloudextraction/stop', { taskId: linusTask?.taskId }), 404, 'InvalidTaskId', /taskId/);
    refused(await post('/cloudextraction/start', {}), 400, 'InvalidParameter.Required', /taskId: is required/);
    refused(await post('/cloudextraction/start', { taskId: 7 }), 400, 'InvalidParameter', /taskId/);
    clock.advance(30_000);
  });

  it('statuses: v1 has names; both leave out ids the account does not have; more than 100 ids is 400', async () => {
    const ran = dataOf<TaskStatusV2[]>(
      await post('/cloudextraction/statuses/v2', { taskIds: tasks.map((t) => t.taskId) }),
    ).map((s) => s.taskId);
    const ids = ran.slice(0, 3);
    assert.equal(ids.length, 3);
    const v1 = dataOf<{ taskId: string; taskName: string; status: string }[]>(
      await post('/cloudextraction/statuses', { taskIds: [...ids, 'nope'] }),
    );
    assert.deepEqual(
      v1.map((s) => s.taskId),
      ids,
    );
    assert.deepEqual(
      v1.map((s) => s.taskName),
      ids.map((id) => tasks.find((t) => t.taskId === id)?.taskName),
    );
    const v2 = dataOf<TaskStatusV2[]>(
      await post('/cloudextraction/statuses/v2', { taskIds: ['nope', ...ids, ids[0]] }),
    );
    assert.deepEqual(
      v2.map((s) => s.taskId),
      ids,
      'unknown left out, duplicates once',
    );
    assert.deepEqual(
      v2.map((s) => s.status),
      v1.map((s) => s.status),
    );
    refused(
      await post('/cloudextraction/statuses/v2', { taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }),
      400,
      'InvalidParameter',
      /taskIds: at most 100/,
    );
    refused(await post('/cloudextraction/statuses/v2', { taskIds: [] }), 400, 'InvalidParameter', /taskIds/);
  });

  it('the seeded history: past runs counted, statuses beyond the two published ones, some schedules', async () => {
    const all = dataOf<TaskStatusV2[]>(
      await post('/cloudextraction/statuses/v2', { taskIds: tasks.map((t) => t.taskId) }),
    );
    const statuses = new Set(all.map((s) => s.status));
    assert.ok(statuses.has('Finished') && statuses.has('Stopped'), [...statuses].join());
    assert.ok(all.some((s) => (s.executedTimes ?? 0) > 5));
    assert.ok(
      all.some((s) => s.nextExecuteTime !== null),
      'some tasks are scheduled',
    );
    for (const s of all.filter((x) => x.nextExecuteTime !== null))
      assert.ok((s.nextExecuteTime as string) > '2026-11-22T12:00');
    for (const s of all.filter((x) => x.executedTimes === 0)) assert.equal(s.startExecuteTime, null);
  });

  it('subtasks: paged (size up to 20), they finish one after another; stopping them all stops the run', async () => {
    const id = tasks[8]?.taskId as string;
    await post('/cloudextraction/start', { taskId: id });
    const page = async (p: number, size: number): Promise<SubtaskStatus[]> =>
      dataOf(await get(`/cloudextraction/task/subtasks?taskId=${id}&page=${p}&size=${size}`));
    const all = await page(1, 20);
    assert.ok(all.length >= 2);
    assert.ok(all.every((s) => s.status === 'Extracting'));
    assert.deepEqual([...(await page(1, 1)), ...(await page(2, 1))], all.slice(0, 2), 'pages of one');
    assert.deepEqual(await page(99, 20), []);
    refused(await get(`/cloudextraction/task/subtasks?taskId=${id}&page=1&size=21`), 400, 'InvalidParameter', /size/);
    clock.advance(30_000 / all.length + 1);
    assert.equal((await page(1, 20))[0]?.status, 'Finished', 'the first finishes first');
    const rest = all.slice(1).map((s) => s.subTaskId);
    // Both readings of the published path answer.
    assert.equal(
      (await post('/cloudextraction/subtasks:stop', { taskId: id, subTaskIds: rest.slice(0, 1) })).status,
      200,
    );
    assert.equal((await page(1, 20))[1]?.status, 'Stopped');
    assert.equal((await statusOf(id)).status, 'Extracting', 'others still run');
    assert.equal(
      (await post('/cloudextraction/subtasks/start', { taskId: id, subTaskIds: rest.slice(0, 1) })).status,
      200,
    );
    assert.equal((await page(1, 20))[1]?.status, 'Extracting', 'resumed');
    refused(
      await post('/cloudextraction/subtasks:stop', { taskId: id, subTaskIds: ['not-a-subtask'] }),
      400,
      'InvalidParameter',
      /subTaskIds/,
    );
    assert.equal((await post('/cloudextraction/subtasks:stop', { taskId: id, subTaskIds: rest })).status, 200);
    assert.equal((await statusOf(id)).status, 'Stopped', 'no subtask left running: the run stopped');
    refused(
      await post('/cloudextraction/subtasks:start', { taskId: id, subTaskIds: rest }),
      409,
      'TaskNotRunning',
      /not running/,
    );
  });

  it('plans: Standard and Free may not use cloud extraction (403 Forbidden.Plan, the plan named)', async () => {
    const ids = tasks.slice(0, 1).map((t) => t.taskId);
    for (const who of ['grace', 'fiona']) {
      const k = sb.user(who).apiKey;
      refused(
        await post('/cloudextraction/statuses/v2', { taskIds: ids }, k),
        403,
        'Forbidden.Plan',
        /Professional or Enterprise/,
      );
      refused(
        await post('/cloudextraction/start', { taskId: ids[0] }, k),
        403,
        'Forbidden.Plan',
        /(Standard|Free) plan/,
      );
      refused(
        await get(`/cloudextraction/task/subtasks?taskId=x&page=1&size=5`, k),
        403,
        'Forbidden.Plan',
        /Professional/,
      );
    }
    const linus = sb.user('linus').apiKey;
    assert.equal((await post('/cloudextraction/statuses/v2', { taskIds: ids }, linus)).status, 200, 'Enterprise may');
    const anonymous = await sb.call('/cloudextraction/start', { method: 'POST', body: { taskId: ids[0] } });
    assert.equal(anonymous.status, 401);
  });

  it('is deterministic from the seed: the same history, subtasks and run rows', async () => {
    const a = await TestSandbox.start({ now: () => T0, seed: 5 });
    const b = await TestSandbox.start({ now: () => T0, seed: 5 });
    try {
      const k = a.user('ada').apiKey;
      assert.equal(k, b.user('ada').apiKey);
      const gid =
        dataOf<{ taskGroupId: string }[]>(await a.call('/taskGroup', { headers: { 'x-api-key': k } }))[0]
          ?.taskGroupId ?? '';
      const ids = dataOf<{ taskId: string }[]>(
        await a.call(`/task/search?taskGroupId=${gid}`, { headers: { 'x-api-key': k } }),
      ).map((t) => t.taskId);
      const ask = (s: TestSandbox) =>
        s.call('/cloudextraction/statuses/v2', { headers: { 'x-api-key': k }, body: { taskIds: ids } });
      assert.deepEqual(dataOf(await ask(a)), dataOf(await ask(b)));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('--run-seconds sets how long a run takes', async () => {
    const c = new FakeClock(T0);
    const quick = await TestSandbox.start({ now: c.now, runSeconds: 2, queueSeconds: 0 });
    try {
      const k = quick.user('ada').apiKey;
      const id = tasks[3]?.taskId as string;
      await quick.call('/cloudextraction/start', { headers: { 'x-api-key': k }, body: { taskId: id } });
      c.advance(1_999);
      const ask = async () =>
        dataOf<TaskStatusV2[]>(
          await quick.call('/cloudextraction/statuses/v2', { headers: { 'x-api-key': k }, body: { taskIds: [id] } }),
        )[0];
      assert.equal((await ask())?.status, 'Extracting');
      c.advance(1);
      assert.notEqual((await ask())?.status, 'Extracting');
      assert.equal((await ask())?.endExecuteTime, '2026-11-22T12:00:02.000');
    } finally {
      await quick.close();
    }
  });
});
