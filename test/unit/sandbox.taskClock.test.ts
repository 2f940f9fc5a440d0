/**
 * A sandbox run's clock per task (`clockByTask`, `--task-clock NAME=Q/S`): the named task's runs
 * wait and extract for their own seconds, every other task's for `queueSeconds` and `runSeconds`.
 * The end-to-end harness gives the runs it watches from queued to finished a short clock this way.
 */
import * as assert from 'node:assert/strict';

import type { TaskStatusV2 } from '../../src/api/schemas/runSchemas';
import { dataOf, FakeClock, type Reply, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');

describe('sandbox: a run clock of its own for a named task', function () {
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let key: string;
  let tasks: { taskId: string; taskName: string }[];

  before(async () => {
    // Which names the seed gives is read from a first sandbox of the same seed.
    const probe = await TestSandbox.start({ now: clock.now, seed: 5 });
    const probeKey = probe.user('ada').apiKey;
    const groups = dataOf<{ taskGroupId: string }[]>(
      await probe.call('/taskGroup', { headers: { 'x-api-key': probeKey } }),
    );
    tasks = dataOf(
      await probe.call(`/task/search?taskGroupId=${groups[2]?.taskGroupId ?? ''}`, {
        headers: { 'x-api-key': probeKey },
      }),
    );
    await probe.close();
    assert.ok(tasks.length > 3);
    sb = await TestSandbox.start({
      now: clock.now,
      seed: 5,
      runSeconds: 30,
      queueSeconds: 0,
      clockByTask: { [tasks[1]?.taskName as string]: { queueSeconds: 2, runSeconds: 5 } },
    });
    key = sb.user('ada').apiKey;
  });
  after(() => sb?.close());

  const post = (path: string, body: unknown): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': key }, body });
  const statusOf = async (taskId: string): Promise<string> =>
    (dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: [taskId] }))[0]?.status ??
      'none') as string;

  it("the named task waits and extracts for its own seconds; another task keeps the sandbox's", async () => {
    const own = tasks[1] as { taskId: string; taskName: string };
    const other = tasks[2] as { taskId: string; taskName: string };
    assert.equal((await post('/cloudextraction/start', { taskId: own.taskId })).status, 200);
    assert.equal((await post('/cloudextraction/start', { taskId: other.taskId })).status, 200);
    const at = async (ms: number, task: { taskId: string }, status: RegExp, why: string): Promise<void> => {
      clock.ms = T0 + ms;
      assert.match(await statusOf(task.taskId), status, why);
    };
    await at(1_900, own, /^Waiting$/, 'queued for its own 2 s');
    await at(1_900, other, /^Extracting$/, 'no queue: the sandbox has none');
    await at(2_100, own, /^Extracting$/, 'then extracting');
    await at(6_900, own, /^Extracting$/, 'still, just before its 5 s');
    await at(7_100, own, /^(Finished|Failed)$/, 'ended after its own 5 s');
    await at(7_100, other, /^Extracting$/, "the sandbox's 30 s");
    await at(29_900, other, /^Extracting$/, 'still, just before the 30 s');
    await at(30_100, other, /^(Finished|Failed)$/, 'ended after 30 s');
  });
});
