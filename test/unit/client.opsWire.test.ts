/**
 * The runs, task-parameter and data operations on the wire, against a scripted server: paths,
 * query strings and bodies; lists split at 100; the v1 fallback; string and integer codes; what
 * is retried and what is not once the request may have reached the server; requests refused
 * before sending.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { kindOfCode } from '../../src/api/http/replies';
import { STATUS_V2_RETRY_MS, SUBTASK_ACTION_PATH } from '../../src/api/ops/runs';
import { fails } from './helpers/apiFailure';
import { type Answer, errorAnswer, okReply, RecordingServer, type Seen } from './helpers/recordingServer';

const KEY = 'sdk_wire_test_key_123';
const V2 = '/cloudextraction/statuses/v2';
const V1 = '/cloudextraction/statuses';

describe('client: runs, parameters and data on the wire', function () {
  const server = new RecordingServer();
  let now = Date.parse('2026-11-22T12:00:00Z');
  let client: ScrapedeckClient;

  before(() => server.start());
  beforeEach(() => {
    client = new ScrapedeckClient({
      baseUrl: server.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: KEY }),
      limiter: new UnlimitedLimiter(),
      backoffBaseMs: 1,
      random: () => 0.5,
      now: () => now,
      env: {},
    });
  });
  afterEach(() => client.close());
  after(() => server.close());

  /** v2 statuses echoing the ids asked, as the service answers. */
  const v2Echo = (s: Seen) =>
    okReply(
      (s.body as { taskIds: string[] }).taskIds.map((taskId) => ({
        taskId,
        status: 'Stopped',
        currentTotalExtractCount: 0,
        executedTimes: 1,
        subTaskCount: 0,
        startExecuteTime: null,
        endExecuteTime: null,
        nextExecuteTime: null,
      })),
    );
  const v1Echo = (s: Seen) =>
    okReply(
      (s.body as { taskIds: string[] }).taskIds.map((taskId) => ({
        taskId,
        taskName: `name ${taskId}`,
        status: 'Extracting',
      })),
    );
  const tooMany = (): Answer => ({
    status: 429,
    body: { error: { code: 'TooManyRequests', message: 'slow down' }, requestId: 'r429' },
    headers: { 'retry-after': '0' },
  });
  const ids = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  describe('task statuses', () => {
    it('splits 250 ids (duplicates sent once) into 100 + 100 + 50, keeps their order, sends the key', async () => {
      server.reset(v2Echo);
      const asked = [...ids(250), 't3', 't249'];
      const r = await client.getTaskStatuses(asked);
      assert.deepEqual(server.paths(), [`POST ${V2}`, `POST ${V2}`, `POST ${V2}`]);
      assert.deepEqual(server.seen.map((s) => (s.body as { taskIds: string[] }).taskIds.length).sort(), [100, 100, 50]);
      assert.deepEqual(
        r.data.map((s) => s.taskId),
        ids(250),
      );
      assert.equal(r.requestIds.length, 3);
      assert.ok(
        server.seen.every((s) => s.headers['x-api-key'] === KEY && s.headers['content-type'] === 'application/json'),
      );
    });

    it('no ids: no request', async () => {
      server.reset(v2Echo);
      assert.deepEqual(await client.getTaskStatuses([]), {
        data: [],
        requestId: undefined,
        requestIds: [],
        source: 'v2',
      });
      assert.equal(server.seen.length, 0);
    });

    it('v2 refused (404): v1 for every batch, v1 only for 10 minutes, then v2 again', async () => {
      let v2Works = false;
      server.reset((s) =>
        s.path === V2
          ? v2Works
            ? v2Echo(s)
            : { status: 404, body: { error: { code: 40400, message: 'No route' }, requestId: 'r404' } }
          : v1Echo(s),
      );
      const r = await client.getTaskStatuses(ids(150));
      assert.deepEqual(r.data.map((s) => [s.source, s.taskName, s.currentTotalExtractCount]).slice(0, 1), [
        ['v1', 'name t0', null],
      ]);
      assert.equal(r.data.length, 150);
      assert.equal(server.seen.filter((s) => s.path === V1).length, 2);
      server.seen.length = 0;
      v2Works = true;
      await client.getTaskStatuses(ids(3));
      assert.deepEqual(server.paths(), [`POST ${V1}`], 'v1 straight away while v2 is remembered as refused');
      now += STATUS_V2_RETRY_MS;
      server.seen.length = 0;
      const again = await client.getTaskStatuses(ids(3));
      assert.deepEqual(server.paths(), [`POST ${V2}`]);
      assert.equal(again.data[0]?.source, 'v2');
    });

    it('no fallback when v2 refuses for another reason: the plan (403), an unknown task (404 InvalidTaskId)', async () => {
      server.reset(() =>
        errorAnswer(403, 'Forbidden.Plan', 'Get Task Status V2 requires a Professional or Enterprise plan.'),
      );
      const plan = await fails(client.getTaskStatuses(['a']));
      assert.deepEqual(
        [plan.kind, plan.status, plan.code, plan.requestId],
        ['forbidden', 403, 'Forbidden.Plan', 'req-err'],
      );
      assert.match(plan.message, /Cloud extraction needs a Professional or Enterprise plan/);
      server.reset(() => errorAnswer(404, 'InvalidTaskId', 'no task a'));
      const unknown = await fails(client.getTaskStatuses(['a']));
      assert.deepEqual([unknown.kind, unknown.code], ['not-found', 'InvalidTaskId']);
      assert.deepEqual(server.paths(), [`POST ${V2}`]);
    });

    it('tolerates what the spec leaves open: extra fields, numeric strings, an unknown or numeric status, absent times', async () => {
      server.reset(() =>
        okReply([
          {
            taskId: 'a',
            status: 'Queued',
            currentTotalExtractCount: '42',
            executedTimes: 3,
            subTaskCount: null,
            startExecuteTime: '2018-04-04T18:34:20.973',
            lotNo: 'x',
            extra: { deep: true },
          },
          { taskId: 77, status: 2 },
        ]),
      );
      const [a, b] = (await client.getTaskStatuses(['a', '77'])).data;
      assert.deepEqual(a, {
        taskId: 'a',
        status: 'Queued',
        taskName: null,
        currentTotalExtractCount: 42,
        executedTimes: 3,
        subTaskCount: null,
        startExecuteTime: '2018-04-04T18:34:20.973',
        endExecuteTime: null,
        nextExecuteTime: null,
        source: 'v2',
      });
      assert.deepEqual([b?.taskId, b?.status, b?.executedTimes], ['77', '2', null]);
    });

    it('a read: retried after a 500', async () => {
      server.reset((s, i) => (i === 0 ? errorAnswer(500, 'ServerError', 'boom') : v2Echo(s)));
      assert.equal((await client.getTaskStatuses(['a'])).data.length, 1);
      assert.equal(server.seen.length, 2);
    });
  });

  describe('start, stop, subtasks', () => {
    it('start and stop: POST { taskId } to their paths', async () => {
      server.reset(() => okReply(null, 'req-start'));
      assert.deepEqual(await client.startTask('t1'), { data: null, requestId: 'req-start' });
      await client.stopTask('t1');
      assert.deepEqual(server.paths(), ['POST /cloudextraction/start', 'POST /cloudextraction/stop']);
      assert.deepEqual(
        server.seen.map((s) => s.body),
        [{ taskId: 't1' }, { taskId: 't1' }],
      );
    });

    it("start: the run's lot and status when sent (the lot kept exact, as text), null when not (issue 28 item 1)", async () => {
      const answers: [string, unknown][] = [
        [
          '{"data":{"lotNo":"7301234567890123457","status":"Waiting","extra":1},"requestId":"r1"}',
          { lotNo: '7301234567890123457', status: 'Waiting' },
        ],
        ['{"data":{"lotNo":"  42 ","status":3},"requestId":"r2"}', { lotNo: '42', status: '3' }],
        ['{"data":{"lotNo":1234},"requestId":"r3"}', { lotNo: '1234', status: null }],
        // A 19-digit number was already rounded by JSON: never a wrong lot, so none.
        [
          '{"data":{"lotNo":7301234567890123457,"status":"Extracting"},"requestId":"r4"}',
          { lotNo: null, status: 'Extracting' },
        ],
        ['{"data":{"lotNo":"","status":null},"requestId":"r5"}', { lotNo: null, status: null }],
        ['{"data":{"lotNo":{"x":1},"status":["Waiting"]},"requestId":"r6"}', { lotNo: null, status: null }],
        ['{"data":null,"requestId":"r7"}', null],
        ['{"requestId":"r8","data":"started"}', null],
      ];
      for (const [raw, expected] of answers) {
        server.reset(() => ({ status: 200, raw }));
        const r = await client.startTask('t1');
        assert.deepEqual(r.data, expected, raw);
        assert.equal(server.seen.length, 1, 'an odd data never makes a start look failed (or sent again)');
      }
    });

    for (const [what, answer] of [
      ['a 500', () => errorAnswer(500, 'ServerError', 'boom')],
      ['a dropped connection', () => 'drop' as const],
      [
        'a 2xx that is not JSON',
        () => ({ status: 200, raw: '<html>502</html>', headers: { 'content-type': 'text/html' } }),
      ],
    ] as const) {
      it(`start is not sent again after ${what}: the error says it may have been carried out`, async () => {
        server.reset(answer);
        const e = await fails(client.startTask('t1'));
        assert.equal(server.seen.length, 1, 'sent once');
        assert.equal(e.maybeApplied, true);
        assert.equal(e.retryable, false);
        assert.match(e.message, /may have been carried out/);
      });
    }

    it('start cancelled after it was sent: cancelled, and it may have been carried out', async () => {
      server.reset(() => 'hang');
      const stop = new AbortController();
      const starting = client.startTask('t1', { signal: stop.signal });
      while (server.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
      stop.abort();
      const e = await fails(starting);
      assert.deepEqual([e.kind, e.maybeApplied], ['cancelled', true]);
      assert.match(e.message, /may have been carried out/);
    });

    it('start is sent again after a 429 (refused unprocessed), and a read after a dropped connection', async () => {
      server.reset((_s, i) => (i === 0 ? tooMany() : okReply(null)));
      await client.startTask('t1');
      assert.equal(server.seen.length, 2);
      server.reset((s, i) => (i === 0 ? 'drop' : v2Echo(s)));
      await client.getTaskStatuses(['a']);
      assert.equal(server.seen.length, 2);
    });

    it('string and integer codes both reach the ApiError, with the request id', async () => {
      server.reset(() => errorAnswer(409, 'TaskAlreadyRunning', 'Task "A" is already running.', 'req-409'));
      const e = await fails(client.startTask('t1'));
      assert.deepEqual(
        [e.kind, e.status, e.code, e.requestId, e.maybeApplied],
        ['invalid-request', 409, 'TaskAlreadyRunning', 'req-409', false],
      );
      assert.match(e.message, /start task t1 .*already running/);
      server.reset(() => errorAnswer(400, 40022, 'taskId: bad'));
      const n = await fails(client.stopTask('t1'));
      assert.deepEqual([n.code, n.field], [40022, 'taskId']);
      server.reset(() => ({
        status: 200,
        body: { error: { code: 'TaskNotRunning', message: 'not running' }, requestId: 'r' },
      }));
      assert.equal(
        (await fails(client.stopTask('t1'))).kind,
        'invalid-request',
        'an error envelope on 200 is still an error',
      );
    });

    it('subtask statuses: GET with taskId, page and size in the query; size over 20 never leaves', async () => {
      server.reset(() =>
        okReply([
          { subTaskId: 's1', status: 'Extracting' },
          { subTaskId: 9, status: 'Whatever' },
        ]),
      );
      const r = await client.getSubtaskStatuses('t 1', { page: 2, size: 20 });
      assert.deepEqual(r.data, [
        { subTaskId: 's1', status: 'Extracting' },
        { subTaskId: '9', status: 'Whatever' },
      ]);
      assert.deepEqual(server.paths(), ['GET /cloudextraction/task/subtasks?taskId=t+1&page=2&size=20']);
      server.seen.length = 0;
      await assert.rejects(
        client.getSubtaskStatuses('t1', { page: 1, size: 21 }),
        (e: unknown) => e instanceof ApiError && e.kind === 'invalid-request' && e.field === 'size',
      );
      await assert.rejects(
        client.getSubtaskStatuses('t1', { page: 0, size: 5 }),
        (e: unknown) => e instanceof ApiError && e.field === 'page',
      );
      assert.equal(server.seen.length, 0);
    });

    it('start/stop subtasks: the one path constant, { taskId, subTaskIds } without duplicates, never replayed', async () => {
      server.reset(() => okReply(null));
      await client.startSubtasks('t1', ['a', 'b', 'a']);
      await client.stopSubtasks('t1', ['c']);
      assert.deepEqual(
        server.seen.map((s) => [s.path, s.body]),
        [
          [SUBTASK_ACTION_PATH.start, { taskId: 't1', subTaskIds: ['a', 'b'] }],
          [SUBTASK_ACTION_PATH.stop, { taskId: 't1', subTaskIds: ['c'] }],
        ],
      );
      server.reset(() => errorAnswer(503, 'ServerError', 'busy'));
      assert.equal((await fails(client.stopSubtasks('t1', ['c']))).maybeApplied, true);
      assert.equal(server.seen.length, 1);
      await assert.rejects(
        client.stopSubtasks('t1', []),
        (e: unknown) => e instanceof ApiError && e.field === 'subTaskIds',
      );
      await assert.rejects(
        client.stopSubtasks('t1', ids(101)),
        (e: unknown) => e instanceof ApiError && e.field === 'subTaskIds',
      );
      assert.equal(server.seen.length, 1);
    });
  });

  describe('task parameters and organisation', () => {
    it('get actions: batches of 100, LoopAction by default; tolerant of absent lists', async () => {
      server.reset((s) =>
        okReply(
          (s.body as { taskIds: string[] }).taskIds.map((taskId) => ({
            taskId,
            actions: [
              { actionType: 'LoopAction', actionId: 1, name: null, loopType: 'URLList', loopItems: ['u', 2] },
              { actionType: 'Other', actionId: 'b' },
            ],
          })),
        ),
      );
      const r = await client.getActions(ids(120));
      assert.equal(server.seen.length, 2);
      assert.deepEqual(server.seen[0]?.body, { taskIds: ids(100), actionTypes: ['LoopAction'] });
      assert.deepEqual(r.data[0]?.actions, [
        { actionType: 'LoopAction', actionId: '1', name: null, loopType: 'URLList', loopItems: ['u', '2'] },
        { actionType: 'Other', actionId: 'b', name: null, loopType: null, loopItems: null },
      ]);
      server.seen.length = 0;
      await client.getActions(['x'], ['LoopAction', 'NavigateAction']);
      assert.deepEqual(server.seen[0]?.body, { taskIds: ['x'], actionTypes: ['LoopAction', 'NavigateAction'] });
    });

    it('update loop items: the body as given; replacing is retried after a 500, appending is not', async () => {
      const input = {
        taskId: 't1',
        actionId: 'a1',
        loopType: 'URLList',
        loopItems: ['https://a.example', 'https://b.example'],
        isAppend: false,
      };
      server.reset((_s, i) => (i === 0 ? errorAnswer(500, 'ServerError', 'boom') : okReply({ message: 'success' })));
      assert.deepEqual((await client.updateLoopItems(input)).data, { message: 'success' });
      assert.equal(server.seen.length, 2);
      assert.deepEqual(server.seen[1]?.body, input);
      assert.equal(server.seen[1]?.path, '/task/updateLoopItems');
      server.reset(() => errorAnswer(500, 'ServerError', 'boom'));
      assert.equal((await fails(client.updateLoopItems({ ...input, isAppend: true }))).maybeApplied, true);
      assert.equal(server.seen.length, 1);
    });

    it('update action properties: { taskId, actions }, retried (setting values twice is the same)', async () => {
      const actions = [
        {
          actionType: 'LoopAction',
          actionId: 'a1',
          properties: [
            { name: 'name', value: 'Pages' },
            { name: 'n', value: 3 },
          ],
        },
      ];
      server.reset((_s, i) => (i === 0 ? 'drop' : okReply({ message: 'success' })));
      await client.updateActionProperties('t1', actions);
      assert.deepEqual(
        server.seen.map((s) => [s.path, s.body]),
        [
          ['/task/updateActionProperties', { taskId: 't1', actions }],
          ['/task/updateActionProperties', { taskId: 't1', actions }],
        ],
      );
    });

    it('copy and move: ids in the query, no body; a missing group is left out; never replayed', async () => {
      server.reset((s) =>
        okReply(s.path === '/task/copy' ? { taskId: 'new', taskName: 'A (copy)', extra: 1 } : { moved: true }),
      );
      assert.deepEqual((await client.copyTask('t1')).data, { taskId: 'new', taskName: 'A (copy)' });
      await client.copyTask('t1', 'g 2');
      assert.deepEqual((await client.moveTask('t1', '42')).data, { moved: true });
      assert.deepEqual(server.paths(), [
        'POST /task/copy?taskId=t1',
        'POST /task/copy?taskId=t1&taskGroupId=g+2',
        'POST /task/moveToGroup?taskId=t1&taskGroupId=42',
      ]);
      assert.ok(server.seen.every((s) => s.rawBody === '' && s.headers['content-type'] === undefined));
      server.reset(() => 'drop');
      assert.equal((await fails(client.copyTask('t1'))).maybeApplied, true);
      assert.equal((await fails(client.moveTask('t1', '42'))).maybeApplied, true);
      assert.equal(server.seen.length, 2);
    });
  });

  describe('data', () => {
    const page = { offset: 5, total: 10, restTotal: 0, data: [{ A: 'x', B: '' }] };

    it("all data and one run's data: GET with the query; bad sizes and offsets never leave", async () => {
      server.reset(() => okReply(page));
      assert.deepEqual((await client.getData('t1', { offset: 0, size: 1000 })).data, page);
      await client.getLotData('t1', 'L 7', { offset: 3, size: 1 });
      assert.deepEqual(server.paths(), [
        'GET /data/all?taskId=t1&offset=0&size=1000',
        'GET /data/lotno/all?taskId=t1&lotno=L+7&offset=3&size=1',
      ]);
      for (const bad of [
        { offset: 0, size: 0 },
        { offset: 0, size: 1001 },
        { offset: -1, size: 10 },
        { offset: 0.5, size: 10 },
      ]) {
        await assert.rejects(
          client.getData('t1', bad),
          (e: unknown) => e instanceof ApiError && e.kind === 'invalid-request',
        );
      }
      await assert.rejects(
        client.getData(' ', { offset: 0, size: 1 }),
        (e: unknown) => e instanceof ApiError && e.field === 'taskId',
      );
      assert.equal(server.seen.length, 2);
    });

    it('a nested value is not a row the spec describes: bad-response naming the field', async () => {
      server.reset(() => okReply({ ...page, data: [{ A: { nested: 1 } }] }));
      const e = await fails(client.getData('t1', { offset: 0, size: 10 }));
      assert.equal(e.kind, 'bad-response');
      assert.match(e.field ?? '', /^data\.data\.0\.A/);
    });

    it('not exported: GET with size; retried on 429 only, never after a 500 (the rows may have been handed out)', async () => {
      server.reset((_s, i) => (i === 0 ? tooMany() : okReply({ total: 3, current: 1, data: [{ A: '1' }] })));
      assert.deepEqual((await client.getNotExportedData('t1', 1)).data, { total: 3, current: 1, data: [{ A: '1' }] });
      assert.deepEqual(server.paths(), [
        'GET /data/notexported?taskId=t1&size=1',
        'GET /data/notexported?taskId=t1&size=1',
      ]);
      server.reset(() => errorAnswer(500, 'ServerError', 'boom'));
      assert.equal((await fails(client.getNotExportedData('t1', 1))).maybeApplied, true);
      assert.equal(server.seen.length, 1);
    });

    it('mark exported and remove: POST { taskId }, never replayed', async () => {
      server.reset(() => okReply(null));
      await client.markExported('t1');
      await client.removeData('t1');
      assert.deepEqual(
        server.seen.map((s) => [s.path, s.body]),
        [
          ['/data/markexported', { taskId: 't1' }],
          ['/data/remove', { taskId: 't1' }],
        ],
      );
      server.reset(() => errorAnswer(502, 'ServerError', 'gateway'));
      const e = await fails(client.removeData('t1'));
      assert.deepEqual([e.kind, e.maybeApplied, server.seen.length], ['server', true, 1]);
      assert.match(e.message, /remove the data of task t1/);
    });
  });

  it('codes that name a conflict are request errors, not server errors, even on a 2xx', () => {
    assert.equal(kindOfCode('TaskAlreadyRunning'), 'invalid-request');
    assert.equal(kindOfCode('TaskNotRunning'), 'invalid-request');
    assert.equal(kindOfCode('Forbidden.Plan'), 'forbidden');
    assert.equal(kindOfCode('InvalidLotNo'), 'invalid-request');
  });
});
