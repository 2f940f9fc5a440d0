/**
 * The sandbox plays what public clients show of the service beyond the published document (issue
 * 28 items 1 to 3): a start answers the run's lot (19 digits, as text) and status; a started run
 * waits `Waiting` for a cloud node before it extracts; tasks that never ran in the cloud are left
 * out of statuses v2 (or, asked for, answered Stopped with 0 runs).
 */
import * as assert from 'node:assert/strict';

import type { DataPage } from '../../src/api/schemas/dataSchemas';
import type { SubtaskStatus, TaskStatusV2 } from '../../src/api/schemas/runSchemas';
import { dataOf, FakeClock, type Reply, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');

describe("sandbox: queued runs, the run's lot, never-run tasks", function () {
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let key: string;
  let tasks: { taskId: string; taskName: string }[];

  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, runSeconds: 30, queueSeconds: 5 });
    key = sb.user('ada').apiKey;
    const groups = dataOf<{ taskGroupId: string }[]>(await get('/taskGroup'));
    tasks = [];
    for (const g of groups)
      tasks.push(
        ...dataOf<{ taskId: string; taskName: string }[]>(await get(`/task/search?taskGroupId=${g.taskGroupId}`)),
      );
  });
  after(() => sb.close());

  function get(path: string): Promise<Reply> {
    return sb.call(path, { headers: { 'x-api-key': key } });
  }
  const post = (path: string, body: unknown): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': key }, body });
  const v2 = async (ids: string[]): Promise<TaskStatusV2[]> =>
    dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: ids }));

  it('a start answers { lotNo, status }: 19 digits as text, Waiting; the run waits 5 s with no rows, then extracts and finishes', async () => {
    const ran = new Set((await v2(tasks.slice(0, 100).map((t) => t.taskId))).map((s) => s.taskId));
    const id = tasks.slice(0, 100).find((t) => ran.has(t.taskId))?.taskId as string;
    const before = (await v2([id]))[0] as TaskStatusV2;
    const start = await post('/cloudextraction/start', { taskId: id });
    assert.equal(start.status, 200, start.text);
    const lot = /"lotNo":"(\d+)"/.exec(start.text)?.[1] ?? '';
    assert.match(lot, /^[1-9]\d{18}$/, 'the lot travels as a string of 19 digits');
    assert.ok(BigInt(lot) > BigInt(Number.MAX_SAFE_INTEGER), 'more than a JSON number holds exactly');
    assert.deepEqual(dataOf(start), { lotNo: lot, status: 'Waiting' });

    const queued = (await v2([id]))[0] as TaskStatusV2;
    assert.deepEqual(
      [queued.status, queued.currentTotalExtractCount, queued.startExecuteTime, queued.executedTimes],
      ['Waiting', 0, null, (before.executedTimes ?? 0) + 1],
    );
    const subtasks = dataOf<SubtaskStatus[]>(await get(`/cloudextraction/task/subtasks?taskId=${id}&page=1&size=20`));
    assert.ok(subtasks.length >= 2 && subtasks.every((s) => s.status === 'Waiting'), 'its subtasks wait too');
    const again = await post('/cloudextraction/start', { taskId: id });
    assert.equal(again.status, 409, 'a queued run is under way: no second start');

    clock.advance(5_000);
    const started = (await v2([id]))[0] as TaskStatusV2;
    assert.deepEqual([started.status, started.startExecuteTime], ['Extracting', '2026-11-22T12:00:05.000']);
    clock.advance(10_000);
    assert.ok(((await v2([id]))[0]?.currentTotalExtractCount ?? 0) > 0, 'rows once extracting');
    clock.advance(20_000);
    const done = (await v2([id]))[0] as TaskStatusV2;
    assert.match(done.status, /^(Finished|Failed)$/, 'ended on its own');
    assert.equal(done.endExecuteTime, '2026-11-22T12:00:35.000');
    const rows = dataOf<DataPage>(await get(`/data/lotno/all?taskId=${id}&lotno=${lot}&offset=0&size=1000`));
    assert.equal(rows.total, done.currentTotalExtractCount, "the lot holds the run's rows");
  });

  it('a queued run can be stopped: Stopped, no rows', async () => {
    const id = tasks[40]?.taskId as string;
    assert.equal((await post('/cloudextraction/start', { taskId: id })).status, 200);
    clock.advance(1_000);
    assert.equal((await post('/cloudextraction/stop', { taskId: id })).status, 200);
    const s = (await v2([id]))[0] as TaskStatusV2;
    assert.deepEqual([s.status, s.currentTotalExtractCount], ['Stopped', 0]);
    clock.advance(60_000);
    assert.equal((await v2([id]))[0]?.status, 'Stopped', 'it does not start later');
  });

  it('tasks that never ran in the cloud are left out of statuses v2 (published behaviour), kept by v1; once started they show', async () => {
    const ids = tasks.map((t) => t.taskId);
    const answered = new Set<string>();
    for (let i = 0; i < ids.length; i += 100) for (const s of await v2(ids.slice(i, i + 100))) answered.add(s.taskId);
    const never = ids.filter((id) => !answered.has(id));
    assert.ok(never.length > 0, 'some tasks never ran in the cloud');
    const v1 = dataOf<{ taskId: string; status: string }[]>(
      await post('/cloudextraction/statuses', { taskIds: never.slice(0, 5) }),
    );
    assert.deepEqual(
      v1.map((s) => [s.taskId, s.status]),
      never.slice(0, 5).map((id) => [id, 'Stopped']),
    );
    const id = never[0] as string;
    await post('/cloudextraction/start', { taskId: id });
    assert.deepEqual(
      (await v2([id])).map((s) => [s.status, s.executedTimes]),
      [['Waiting', 1]],
    );
    clock.advance(60_000);
  });

  it('neverRun: stopped answers them in v2 as Stopped with 0 runs and no times (the other reading)', async () => {
    const other = await TestSandbox.start({ now: clock.now, neverRun: 'stopped' });
    try {
      const k = other.user('ada').apiKey;
      const ids = tasks.map((t) => t.taskId).slice(0, 100);
      const all = dataOf<TaskStatusV2[]>(
        await other.call('/cloudextraction/statuses/v2', {
          method: 'POST',
          headers: { 'x-api-key': k },
          body: { taskIds: ids },
        }),
      );
      assert.equal(all.length, ids.length);
      const never = all.filter((s) => s.executedTimes === 0);
      assert.ok(never.length > 0);
      for (const s of never)
        assert.deepEqual(
          [s.status, s.currentTotalExtractCount, s.startExecuteTime, s.endExecuteTime],
          ['Stopped', 0, null, null],
        );
    } finally {
      await other.close();
    }
  });
});
