/**
 * A sandbox run's length per task (`runSecondsByTask`, `--task-run-seconds NAME=S`): the named task's
 * runs end at its own time, every other task's at `runSeconds`. The end-to-end harness gives the
 * runs it watches to their end a short clock this way, and keeps the long one for a run a step stops.
 */
import * as assert from 'node:assert/strict';

import type { TaskStatusV2 } from '../../src/api/schemas/runSchemas';
import { dataOf, FakeClock, type Reply, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');

describe('sandbox: a run length of its own for a named task', function () {
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
      queueSeconds: 2,
      runSecondsByTask: { [tasks[1]?.taskName as string]: 5 },
    });
    key = sb.user('ada').apiKey;
  });
  after(() => sb?.close());

  const post = (path: string, body: unknown): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': key }, body });
  const statusOf = async (taskId: string): Promise<string> =>
    (dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: [taskId] }))[0]?.status ??
      'none') as string;

  it('the named task ends after its own seconds (after the queue); another task runs the sandbox-wide length', async () => {
    const brief = tasks[1] as { taskId: string; taskName: string };
    const other = tasks[2] as { taskId: string; taskName: string };
    assert.equal((await post('/cloudextraction/start', { taskId: brief.taskId })).status, 200);
    assert.equal((await post('/cloudextraction/start', { taskId: other.taskId })).status, 200);
    clock.advance(2_000 + 4_900);
    assert.equal(await statusOf(brief.taskId), 'Extracting', 'still running just before its 5 s');
    clock.advance(200);
    assert.match(await statusOf(brief.taskId), /^(Finished|Failed)$/, 'ended at its own 5 s');
    assert.equal(await statusOf(other.taskId), 'Extracting');
    clock.advance(24_800); // 31.9 s after the start: the queue, then 29.9 s of its 30
    assert.equal(await statusOf(other.taskId), 'Extracting', 'still running just before the 30 s');
    clock.advance(200);
    assert.match(await statusOf(other.taskId), /^(Finished|Failed)$/);
  });
});
