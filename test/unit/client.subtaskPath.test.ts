/**
 * Start/stop subtasks at a service whose spelling of `subtasks{start}` is not the one tried first
 * (issue 28 item 4): a route 404 (not an error envelope naming the task) tries the other published
 * spelling once, and the one that answered is remembered per service address.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { ServiceRoutes } from '../../src/api/ops/serviceRoutes';
import { SUBTASK_ACTION_PATHS } from '../../src/api/schemas/runSchemas';
import { errorAnswer, okReply, RecordingServer, type Seen } from './helpers/recordingServer';
import { dataOf, FakeClock, TestSandbox } from './helpers/sandbox';

const KEY = 'sdk_subtask_path_key';
const noRoute = () => errorAnswer(404, 40400, 'No route');
const answersOnly = (spelling: 'colon' | 'slash') => (s: Seen) =>
  s.path === SUBTASK_ACTION_PATHS[spelling].start || s.path === SUBTASK_ACTION_PATHS[spelling].stop
    ? okReply(null, `req-${spelling}`)
    : noRoute();

describe('client: the spelling of start/stop subtasks', function () {
  const a = new RecordingServer();
  const b = new RecordingServer();
  const clients: ScrapedeckClient[] = [];
  const make = (baseUrl: string, routes?: ServiceRoutes): ScrapedeckClient => {
    const c = new ScrapedeckClient({
      baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: KEY }),
      limiter: new UnlimitedLimiter(),
      env: {},
      routes,
    });
    clients.push(c);
    return c;
  };

  before(async () => {
    await a.start();
    await b.start();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  it('a service that knows only subtasks/start: one 404, the other spelling once, then that spelling straight away', async () => {
    a.reset(answersOnly('slash'));
    const client = make(a.baseUrl);
    const r = await client.startSubtasks('t1', ['s1']);
    assert.equal(r.requestId, 'req-slash');
    assert.deepEqual(a.paths(), ['POST /cloudextraction/subtasks:start', 'POST /cloudextraction/subtasks/start']);
    assert.deepEqual(
      a.seen.map((s) => s.body),
      [
        { taskId: 't1', subTaskIds: ['s1'] },
        { taskId: 't1', subTaskIds: ['s1'] },
      ],
    );
    a.seen.length = 0;
    await client.stopSubtasks('t1', ['s1']);
    await client.startSubtasks('t1', ['s2']);
    assert.deepEqual(
      a.paths(),
      ['POST /cloudextraction/subtasks/stop', 'POST /cloudextraction/subtasks/start'],
      'remembered: no 404 again',
    );
  });

  it('remembered per service address: another address is asked from the start, a new client of the same address is not', async () => {
    const routes = new ServiceRoutes();
    a.reset(answersOnly('slash'));
    b.reset(answersOnly('colon'));
    await make(a.baseUrl, routes).stopSubtasks('t1', ['s1']);
    await make(b.baseUrl, routes).stopSubtasks('t1', ['s1']);
    assert.deepEqual(
      b.paths(),
      ['POST /cloudextraction/subtasks:stop'],
      'the other address keeps the spelling tried first',
    );
    assert.equal(routes.subtaskSpelling(a.baseUrl), 'slash');
    assert.equal(routes.subtaskSpelling(b.baseUrl), 'colon');
    a.seen.length = 0;
    await make(a.baseUrl, routes).startSubtasks('t1', ['s1']);
    assert.deepEqual(
      a.paths(),
      ['POST /cloudextraction/subtasks/start'],
      'a new client (a new sign-in) of the same address',
    );
  });

  it('a 404 whose envelope names the task is about the task: no other spelling is tried', async () => {
    a.reset(() => errorAnswer(404, 'InvalidTaskId', 'taskId: no task "t1"'));
    const client = make(a.baseUrl);
    await assert.rejects(
      client.startSubtasks('t1', ['s1']),
      (e: unknown) => e instanceof ApiError && e.kind === 'not-found' && e.code === 'InvalidTaskId',
    );
    assert.deepEqual(a.paths(), ['POST /cloudextraction/subtasks:start']);
  });

  it("neither spelling answers: the other is tried once only, the error is the service's, nothing is remembered", async () => {
    const routes = new ServiceRoutes();
    a.reset(noRoute);
    await assert.rejects(
      make(a.baseUrl, routes).stopSubtasks('t1', ['s1']),
      (e: unknown) => e instanceof ApiError && e.status === 404,
    );
    assert.equal(a.seen.length, 2);
    assert.equal(routes.subtaskSpelling(a.baseUrl), undefined);
  });

  it("against a sandbox that answers only subtasks/start (--subtask-path slash), stopping a running task's subtasks works", async () => {
    const clock = new FakeClock(Date.parse('2026-11-22T12:00:00Z'));
    const sb = await TestSandbox.start({ now: clock.now, subtaskSpelling: 'slash' });
    try {
      const key = sb.user('ada').apiKey;
      const groups = dataOf<{ taskGroupId: string }[]>(await sb.call('/taskGroup', { headers: { 'x-api-key': key } }));
      const tasks = dataOf<{ taskId: string }[]>(
        await sb.call(`/task/search?taskGroupId=${groups[1]?.taskGroupId ?? ''}`, { headers: { 'x-api-key': key } }),
      );
      const client = new ScrapedeckClient({
        baseUrl: sb.info.baseUrl,
        credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: key }),
        limiter: new UnlimitedLimiter(),
        env: {},
      });
      clients.push(client);
      const statuses = (await client.getTaskStatuses(tasks.map((t) => t.taskId))).data;
      const idle = tasks.find((t) => statuses.find((s) => s.taskId === t.taskId)?.status !== 'Extracting') as {
        taskId: string;
      };
      await client.startTask(idle.taskId);
      clock.advance(1_000);
      const subtasks = (await client.getSubtaskStatuses(idle.taskId, { page: 1, size: 20 })).data;
      const before = sb.stats.byStatus['404'] ?? 0;
      const statusOf = async () =>
        new Map(
          (await client.getSubtaskStatuses(idle.taskId, { page: 1, size: 20 })).data.map((s) => [
            s.subTaskId,
            s.status,
          ]),
        );
      assert.ok(subtasks.length >= 2, 'a task with two subtasks or more');
      assert.ok(
        subtasks.every((s) => s.status !== 'Stopped'),
        'all running before',
      );
      await client.stopSubtasks(idle.taskId, [subtasks[0]?.subTaskId ?? '']);
      assert.equal((sb.stats.byStatus['404'] ?? 0) - before, 1, 'one route 404, then the slash spelling');
      const afterFirst = await statusOf();
      assert.deepEqual(
        subtasks.map((s) => afterFirst.get(s.subTaskId) === 'Stopped'),
        subtasks.map((_, i) => i === 0),
        'the first stop stopped the first subtask only',
      );
      const second = await client.stopSubtasks(
        idle.taskId,
        subtasks.slice(1).map((s) => s.subTaskId),
      );
      assert.equal(second.data, null);
      assert.ok(second.requestId, 'the second stop was answered');
      assert.equal((sb.stats.byStatus['404'] ?? 0) - before, 1, 'no second 404');
      const afterSecond = await statusOf();
      assert.deepEqual(
        subtasks.map((s) => afterSecond.get(s.subTaskId)),
        subtasks.map(() => 'Stopped'),
        'the second stop stopped the rest',
      );
    } finally {
      await sb.close();
    }
  });
});
