/**
 * One test per operation of the service's published document, against its own examples (issue 28
 * item 7; the examples are copied verbatim in test/fixtures/published-examples.json):
 *
 * - the client: each operation is answered with its published success example, which it must
 *   parse (the values as the client hands them on), and with its published error example, which
 *   must become an ApiError with the example's code, message and request id. The request it sends
 *   must use the document's method, path and parameter or field names, and carry the values the
 *   call was given (every query parameter, the whole body).
 * - the sandbox: each operation's answers (a success and an error) must have the examples' field
 *   names and JSON types, compared structurally, so the sandbox cannot drift from the document.
 *
 * All 21 operations are listed; the one the extension does not send (Update Task URLs) is pinned
 * as such, so adding it later means adding its case here.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError, type ApiErrorKind } from '../../src/api/errors/errors';
import { SecretSet } from '../../src/api/errors/redact';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { errorFromReply, parseReply } from '../../src/api/http/replies';
import { nullDataResponseSchema } from '../../src/api/schemas/opsSchemas';
import { SUBTASK_ACTION_PATHS } from '../../src/api/schemas/runSchemas';
import { errorAnswer, RecordingServer, type Seen } from './helpers/recordingServer';
import { dataOf, FakeClock, type Reply, TestSandbox } from './helpers/sandbox';

// tsc puts this file in out/test/unit; the fixture stays in test/fixtures.
const FIXTURE = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'published-examples.json');

interface Parameter {
  name: string;
  in: string;
  required: boolean;
}
interface ErrorExample {
  error: { code: string; message: string };
  requestId: string;
}
interface Operation {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  parameters: Parameter[];
  requestBody: { fields: Record<string, unknown> | null; required: string[] | null };
  responseExamples: { '200': { data: unknown; requestId: string }; '400': ErrorExample };
}

const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { operations: Operation[] };
const op = (id: string): Operation => {
  const found = doc.operations.find((o) => o.operationId === id);
  assert.ok(found, `operation ${id} in the published document`);
  return found;
};

/** What the client hands on for each success example (ids the document shows as numbers become text, counts numbers). */
interface ClientCase {
  call: (c: ScrapedeckClient) => Promise<{ data: unknown }>;
  expected: (example: unknown) => unknown;
  /** The kind the published error example must become. */
  errorKind: ApiErrorKind;
  /** What the request carries, by value: its query (every parameter) or its JSON body (whole). */
  sent: { query: Record<string, string> } | { body: unknown };
}

const same = (example: unknown): unknown => example;
const TASK = 'a3b9bdf7-9aaa-22f6-9ccf-b32790f6df8f';
const GROUP = '23894';
const LOT = '7301234567890123457';
const LOOP = { actionType: 'LoopAction', actionId: 'ce1wg4nytr', properties: [{ name: 'name', value: 'Loop URLs' }] };
const LOOP_ITEMS = {
  taskId: TASK,
  actionId: 'ce1wg4nytr',
  loopType: 'URLList' as const,
  loopItems: ['http://www.octoparse'],
  isAppend: false,
};
const asV1 = (s: { taskId: string; taskName: string; status: string }) => ({
  ...s,
  currentTotalExtractCount: null,
  executedTimes: null,
  subTaskCount: null,
  startExecuteTime: null,
  endExecuteTime: null,
  nextExecuteTime: null,
  source: 'v1',
});

const CLIENT: Record<string, ClientCase> = {
  getToken: {
    call: (c) => c.obtainToken('ada', 'secret-password'),
    expected: (e) => ({ ...(e as object), expires_in: Number((e as { expires_in: string }).expires_in) }),
    errorKind: 'auth',
    sent: { body: { username: 'ada', password: 'secret-password', grant_type: 'password' } },
  },
  SubtasksStatus: {
    call: (c) => c.getSubtaskStatuses(TASK, { page: 1, size: 20 }),
    expected: same,
    errorKind: 'server',
    sent: { query: { taskId: TASK, page: '1', size: '20' } },
  },
  TaskStatus: {
    call: (c) => c.getTaskStatuses([TASK]),
    expected: (e) => (e as Parameters<typeof asV1>[0][]).map(asV1),
    errorKind: 'server',
    sent: { body: { taskIds: [TASK] } },
  },
  TaskStatusV2: {
    call: (c) => c.getTaskStatuses([TASK]),
    expected: (e) => (e as object[]).map((s) => ({ ...s, taskName: null, source: 'v2' })),
    errorKind: 'server',
    sent: { body: { taskIds: [TASK] } },
  },
  cloudextractionStart: {
    call: (c) => c.startTask(TASK),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskId: TASK } },
  },
  cloudextractionStop: {
    call: (c) => c.stopTask(TASK),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskId: TASK } },
  },
  cloudextractionSubtasksStart: {
    call: (c) => c.startSubtasks(TASK, ['s1']),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskId: TASK, subTaskIds: ['s1'] } },
  },
  cloudextractionSubtasksStop: {
    call: (c) => c.stopSubtasks(TASK, ['s1']),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskId: TASK, subTaskIds: ['s1'] } },
  },
  all: {
    call: (c) => c.getData(TASK, { offset: 0, size: 4 }),
    expected: same,
    errorKind: 'server',
    sent: { query: { taskId: TASK, offset: '0', size: '4' } },
  },
  lotnoAll: {
    call: (c) => c.getLotData(TASK, LOT, { offset: 0, size: 4 }),
    expected: same,
    errorKind: 'server',
    sent: { query: { taskId: TASK, lotno: LOT, offset: '0', size: '4' } },
  },
  markexported: {
    call: (c) => c.markExported(TASK),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskId: TASK } },
  },
  notexported: {
    call: (c) => c.getNotExportedData(TASK, 4),
    expected: same,
    errorKind: 'server',
    sent: { query: { taskId: TASK, size: '4' } },
  },
  remove: { call: (c) => c.removeData(TASK), expected: same, errorKind: 'server', sent: { body: { taskId: TASK } } },
  Copy: {
    call: (c) => c.copyTask(TASK, GROUP),
    expected: same,
    errorKind: 'not-found',
    sent: { query: { taskId: TASK, taskGroupId: GROUP } },
  },
  MoveToGroup: {
    call: (c) => c.moveTask(TASK, GROUP),
    expected: same,
    errorKind: 'not-found',
    sent: { query: { taskId: TASK, taskGroupId: GROUP } },
  },
  Search: {
    call: (c) => c.searchTasks(GROUP),
    expected: same,
    errorKind: 'invalid-request',
    sent: { query: { taskGroupId: GROUP } },
  },
  taskGroup: {
    call: (c) => c.listTaskGroups(),
    expected: (e) =>
      (e as { taskGroupId: number; taskGroupName: string }[]).map((g) => ({
        ...g,
        taskGroupId: String(g.taskGroupId),
      })),
    errorKind: 'server',
    sent: { query: {} },
  },
  getActions: {
    call: (c) => c.getActions([TASK], ['LoopAction']),
    expected: same,
    errorKind: 'server',
    sent: { body: { taskIds: [TASK], actionTypes: ['LoopAction'] } },
  },
  updateActionProperties: {
    call: (c) => c.updateActionProperties(TASK, [LOOP]),
    expected: same,
    errorKind: 'invalid-request',
    sent: { body: { taskId: TASK, actions: [LOOP] } },
  },
  updateLoopItems: {
    call: (c) => c.updateLoopItems(LOOP_ITEMS),
    expected: same,
    errorKind: 'invalid-request',
    sent: { body: LOOP_ITEMS },
  },
};

/** Operations of the document the extension does not send; their replies still parse with the shared schemas. */
const NOT_SENT: Record<string, string> = {
  UpdateUrls:
    'Update Task URLs uploads a file whose format the document does not show; Scrapedeck edits URL lists with updateLoopItems instead.',
};

/** `subtasks{start}` is written with braces in the document; either published spelling matches it. */
function pathMatches(example: string, sent: string): boolean {
  const m = /^\/cloudextraction\/subtasks\{(start|stop)\}$/.exec(example);
  if (m) return Object.values(SUBTASK_ACTION_PATHS).some((p) => p[m[1] as 'start' | 'stop'] === sent);
  return example === sent;
}

/** The request the client sent uses the document's method, path, and its parameter and field names, with the values the call was given. */
function checkRequest(o: Operation, seen: Seen, sent: ClientCase['sent']): void {
  if ('query' in sent)
    assert.deepEqual(Object.fromEntries(seen.query), sent.query, `${o.operationId}: the query's values`);
  else assert.deepEqual(seen.body, sent.body, `${o.operationId}: the body's values`);
  assert.equal(seen.method, o.method, `${o.operationId}: method`);
  assert.ok(pathMatches(o.path, seen.path), `${o.operationId}: path ${seen.path} for ${o.path}`);
  const query = o.parameters.filter((p) => p.in === 'query');
  const sentNames = [...seen.query.keys()];
  for (const name of sentNames)
    assert.ok(
      query.some((p) => p.name === name),
      `${o.operationId}: query parameter ${name} is the document's`,
    );
  for (const p of query.filter((q) => q.required && !(o.operationId === 'Copy' && q.name === 'taskGroupId')))
    assert.ok(sentNames.includes(p.name), `${o.operationId}: sends ${p.name}`);
  const fields = o.requestBody.fields;
  if (fields === null) {
    assert.equal(seen.rawBody, '', `${o.operationId}: no body`);
    return;
  }
  const body = seen.body as Record<string, unknown>;
  for (const key of Object.keys(body))
    assert.ok(key in fields, `${o.operationId}: body field ${key} is the document's`);
  for (const key of o.requestBody.required ?? []) assert.ok(key in body, `${o.operationId}: sends ${key}`);
}

describe("published examples: the client parses every operation's examples", function () {
  const server = new RecordingServer();
  let client: ScrapedeckClient;
  before(() => server.start());
  beforeEach(() => {
    client = new ScrapedeckClient({
      baseUrl: server.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_published_examples' }),
      limiter: new UnlimitedLimiter(),
      env: {},
      maxRetries: 0,
    });
  });
  afterEach(() => client.close());
  after(() => server.close());

  it('covers all 21 operations of the document: 20 sent by the client, 1 not sent (and why)', () => {
    const ids = doc.operations.map((o) => o.operationId).sort();
    assert.equal(ids.length, 21);
    assert.deepEqual([...Object.keys(CLIENT), ...Object.keys(NOT_SENT)].sort(), ids);
  });

  /** Answers the operation's example (and, for the v1 status call, refuses v2 first as a v1-only service does). */
  const answer = (o: Operation, status: 200 | 400) => (seen: Seen) => {
    if (o.operationId === 'TaskStatus' && seen.path === '/cloudextraction/statuses/v2')
      return errorAnswer(404, 40400, 'No route');
    if (!pathMatches(o.path, seen.path)) return errorAnswer(404, 40400, `unexpected ${seen.path}`);
    return { status, body: o.responseExamples[String(status) as '200' | '400'] };
  };

  for (const [id, c] of Object.entries(CLIENT)) {
    it(`${id}: its success example parses, its request is the document's; its error example is an ApiError with its code`, async () => {
      const o = op(id);
      server.reset(answer(o, 200));
      const r = await c.call(client);
      assert.deepEqual(r.data, c.expected(o.responseExamples['200'].data));
      checkRequest(o, server.seen.at(-1) as Seen, c.sent);

      server.reset(answer(o, 400));
      const example = o.responseExamples['400'];
      const e = await c.call(client).then(
        () => assert.fail('the error example was taken as a success'),
        (err: unknown) => err,
      );
      assert.ok(e instanceof ApiError, String(e));
      assert.deepEqual(
        [e.kind, e.status, e.code, e.requestId],
        [c.errorKind, 400, example.error.code, example.requestId],
      );
      assert.ok(e.message.includes(example.error.message), e.message);
    });
  }

  it('UpdateUrls (not sent): its examples parse with the shared envelope and error shapes', () => {
    const o = op('UpdateUrls');
    const ctx = { surface: 'main' as const, operation: 'update task URLs', secrets: new SecretSet() };
    const reply = (status: number, body: unknown) => ({
      status,
      headers: {},
      body,
      bodyError: undefined,
      requestId: (body as { requestId: string }).requestId,
      retries: 0,
    });
    assert.equal(parseReply(reply(200, o.responseExamples['200']), nullDataResponseSchema, ctx).data, null);
    const e = errorFromReply(reply(400, o.responseExamples['400']), ctx);
    assert.deepEqual(
      [e.kind, e.code, e.requestId],
      ['not-found', 'InvalidTaskId', o.responseExamples['400'].requestId],
    );
  });
});

// ---- the sandbox, compared structurally ---------------------------------------------------------

type Shape =
  'string' | 'number' | 'boolean' | 'null' | 'row' | { array: Shape | undefined } | { object: Record<string, Shape> };

/** Paths whose items are data rows: the task's own field names (not known in advance), every value a string. */
const ROW_PATHS = new Set(['data.data[]']);

function shapeOf(value: unknown, path: string): Shape {
  if (ROW_PATHS.has(path)) return 'row';
  if (value === null) return 'null';
  if (Array.isArray(value)) return { array: value.length === 0 ? undefined : shapeOf(value[0], `${path}[]`) };
  if (typeof value === 'object')
    return { object: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v, `${path}.${k}`)])) };
  return typeof value as 'string' | 'number' | 'boolean';
}

/** Compares an answer with a shape; records which paths were seen with a value, so "always null" shows. */
class Comparison {
  readonly problems: string[] = [];
  private readonly valued = new Set<string>();
  private readonly expectedValued = new Set<string>();

  check(actual: unknown, shape: Shape, path = 'data'): void {
    if (shape === 'row') {
      const ok =
        typeof actual === 'object' &&
        actual !== null &&
        !Array.isArray(actual) &&
        Object.values(actual).every((v) => typeof v === 'string');
      if (!ok) this.problems.push(`${path}: a row of string values, got ${JSON.stringify(actual)?.slice(0, 80)}`);
      else this.valued.add(path);
      this.expectedValued.add(path);
      return;
    }
    if (shape === 'null') {
      if (actual !== null)
        this.problems.push(`${path}: null in the document, got ${JSON.stringify(actual)?.slice(0, 80)}`);
      return;
    }
    if (typeof shape === 'string') {
      this.expectedValued.add(path);
      if (actual === null) return; // not known (yet): allowed, but it must show a value somewhere
      if (typeof actual !== shape) this.problems.push(`${path}: ${shape} in the document, got ${typeof actual}`);
      else this.valued.add(path);
      return;
    }
    if ('array' in shape) {
      if (!Array.isArray(actual)) return void this.problems.push(`${path}: an array in the document`);
      this.expectedValued.add(path);
      if (actual.length > 0) this.valued.add(path);
      if (shape.array !== undefined) for (const item of actual) this.check(item, shape.array, `${path}[]`);
      return;
    }
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return void this.problems.push(`${path}: an object in the document`);
    const expected = Object.keys(shape.object).sort();
    const got = Object.keys(actual).sort();
    if (JSON.stringify(expected) !== JSON.stringify(got))
      this.problems.push(`${path}: fields ${got.join(', ')}; the document has ${expected.join(', ')}`);
    for (const key of expected)
      this.check((actual as Record<string, unknown>)[key], shape.object[key] as Shape, `${path}.${key}`);
  }

  /** Every field the document shows with a value was seen with one (a field always null has drifted). */
  neverValued(): string[] {
    return [...this.expectedValued].filter((p) => !this.valued.has(p));
  }
}

interface SandboxCtx {
  sb: TestSandbox;
  get(path: string, key?: string): Promise<Reply>;
  post(path: string, body?: unknown, key?: string): Promise<Reply>;
  ada: string;
  fiona: string;
  tasks: { taskId: string; taskName: string }[];
  groupId: string;
  otherGroupId: string;
  running: string;
  runningLot: string;
  stoppable: string;
  withNew: string;
}

interface SandboxCase {
  success: (x: SandboxCtx) => Promise<Reply>;
  error: (x: SandboxCtx) => Promise<Reply>;
  /** Another published reading of the success data (more-endpoints.md, public clients), accepted beside the example. */
  alternative?: unknown;
}

const SANDBOX: Record<string, SandboxCase> = {
  getToken: {
    success: (x) => x.sb.token({ username: 'ada', password: 'sandbox-ada', grant_type: 'password' }),
    error: (x) => x.sb.token({ username: 'ada', password: 'wrong', grant_type: 'password' }),
  },
  SubtasksStatus: {
    success: (x) => x.get(`/cloudextraction/task/subtasks?taskId=${x.running}&page=1&size=20`),
    error: (x) => x.get('/cloudextraction/task/subtasks?taskId=no-such-task&page=1&size=20'),
  },
  TaskStatus: {
    success: (x) => x.post('/cloudextraction/statuses', { taskIds: x.tasks.map((t) => t.taskId) }),
    error: (x) => x.post('/cloudextraction/statuses', {}),
  },
  TaskStatusV2: {
    success: (x) => x.post('/cloudextraction/statuses/v2', { taskIds: x.tasks.map((t) => t.taskId) }),
    error: (x) => x.post('/cloudextraction/statuses/v2', {}),
  },
  cloudextractionStart: {
    success: (x) => x.post('/cloudextraction/start', { taskId: (x.tasks[9] as { taskId: string }).taskId }),
    error: (x) => x.post('/cloudextraction/start', { taskId: 'no-such-task' }),
    // Two public clients read the run's lot and status here (the document shows null).
    alternative: { lotNo: '7301234567890123457', status: 'Waiting' },
  },
  cloudextractionStop: {
    success: (x) => x.post('/cloudextraction/stop', { taskId: x.stoppable }),
    error: (x) => x.post('/cloudextraction/stop', { taskId: 'no-such-task' }),
  },
  cloudextractionSubtasksStart: {
    success: async (x) =>
      x.post(SUBTASK_ACTION_PATHS.colon.start, { taskId: x.running, subTaskIds: [await firstSubtask(x)] }),
    error: (x) => x.post(SUBTASK_ACTION_PATHS.colon.start, { taskId: 'no-such-task', subTaskIds: ['s'] }),
  },
  cloudextractionSubtasksStop: {
    success: async (x) =>
      x.post(SUBTASK_ACTION_PATHS.slash.stop, { taskId: x.running, subTaskIds: [await firstSubtask(x)] }),
    error: (x) => x.post(SUBTASK_ACTION_PATHS.slash.stop, { taskId: 'no-such-task', subTaskIds: ['s'] }),
  },
  all: {
    success: (x) => x.get(`/data/all?taskId=${x.withNew}&offset=0&size=4`),
    error: (x) => x.get('/data/all?taskId=no-such-task&offset=0&size=4'),
  },
  lotnoAll: {
    success: (x) => x.get(`/data/lotno/all?taskId=${x.running}&lotno=${x.runningLot}&offset=0&size=4`),
    error: (x) => x.get(`/data/lotno/all?taskId=${x.running}&lotno=1&offset=0&size=4`),
  },
  notexported: {
    success: (x) => x.get(`/data/notexported?taskId=${x.withNew}&size=4`),
    error: (x) => x.get('/data/notexported?taskId=no-such-task&size=4'),
  },
  markexported: {
    success: (x) => x.post('/data/markexported', { taskId: x.withNew }),
    error: (x) => x.post('/data/markexported', { taskId: 'no-such-task' }),
  },
  remove: {
    success: (x) => x.post('/data/remove', { taskId: (x.tasks[8] as { taskId: string }).taskId }),
    error: (x) => x.post('/data/remove', { taskId: 'no-such-task' }),
  },
  Copy: {
    success: (x) => x.post(`/task/copy?taskGroupId=${x.groupId}&taskId=${(x.tasks[0] as { taskId: string }).taskId}`),
    error: (x) => x.post(`/task/copy?taskGroupId=${x.groupId}&taskId=no-such-task`),
  },
  MoveToGroup: {
    success: (x) =>
      x.post(`/task/moveToGroup?taskGroupId=${x.otherGroupId}&taskId=${(x.tasks[7] as { taskId: string }).taskId}`),
    error: (x) => x.post(`/task/moveToGroup?taskGroupId=${x.otherGroupId}&taskId=no-such-task`),
  },
  Search: { success: (x) => x.get(`/task/search?taskGroupId=${x.groupId}`), error: (x) => x.get('/task/search') },
  taskGroup: { success: (x) => x.get('/taskGroup'), error: (x) => x.get('/taskGroup', x.fiona) },
  getActions: {
    success: (x) => x.post('/task/getActions', { taskIds: x.tasks.map((t) => t.taskId), actionTypes: ['LoopAction'] }),
    error: (x) => x.post('/task/getActions', {}),
  },
  updateActionProperties: {
    success: async (x) => {
      const a = await firstAction(x);
      return x.post('/task/updateActionProperties', {
        taskId: a.taskId,
        actions: [
          { actionType: 'LoopAction', actionId: a.actionId, properties: [{ name: 'name', value: 'Start pages' }] },
        ],
      });
    },
    error: (x) => x.post('/task/updateActionProperties', { actions: [] }),
  },
  updateLoopItems: {
    success: async (x) => {
      const a = await firstAction(x);
      const items = a.loopType === 'URLList' ? ['https://example.com/a'] : ['a'];
      return x.post('/task/updateLoopItems', {
        taskId: a.taskId,
        actionId: a.actionId,
        loopType: a.loopType,
        loopItems: items,
        isAppend: true,
      });
    },
    error: async (x) =>
      x.post('/task/updateLoopItems', {
        taskId: (await firstAction(x)).taskId,
        actionId: 'nope',
        loopType: 'URLList',
        loopItems: ['https://example.com/a'],
        isAppend: true,
      }),
  },
};

async function firstSubtask(x: SandboxCtx): Promise<string> {
  return (
    dataOf<{ subTaskId: string }[]>(await x.get(`/cloudextraction/task/subtasks?taskId=${x.running}&page=1&size=20`))[0]
      ?.subTaskId ?? ''
  );
}

async function firstAction(x: SandboxCtx): Promise<{ taskId: string; actionId: string; loopType: string }> {
  const task = (x.tasks[5] as { taskId: string }).taskId;
  const action = dataOf<{ actions: { actionId: string; loopType: string }[] }[]>(
    await x.post('/task/getActions', { taskIds: [task], actionTypes: ['LoopAction'] }),
  )[0]?.actions[0];
  assert.ok(action);
  return { taskId: task, ...action };
}

describe("published examples: every sandbox answer has the examples' field names and types", function () {
  const clock = new FakeClock(Date.parse('2026-11-22T12:00:00Z'));
  let x: SandboxCtx;

  before(async () => {
    const sb = await TestSandbox.start({ now: clock.now, queueSeconds: 0, runSeconds: 60 });
    const ada = sb.user('ada').apiKey;
    const get = (path: string, key = ada) => sb.call(path, { headers: { 'x-api-key': key } });
    const post = (path: string, body: unknown = undefined, key = ada) =>
      sb.call(path, { method: 'POST', headers: { 'x-api-key': key }, ...(body === undefined ? {} : { body }) });
    const groups = dataOf<{ taskGroupId: number }[]>(await get('/taskGroup'));
    const [groupId, otherGroupId] = [String(groups[0]?.taskGroupId), String(groups[1]?.taskGroupId)];
    const tasks = dataOf<{ taskId: string; taskName: string }[]>(await get(`/task/search?taskGroupId=${groupId}`));
    const runs = new Set(
      dataOf<{ taskId: string }[]>(
        await post('/cloudextraction/statuses/v2', { taskIds: tasks.map((t) => t.taskId) }),
      ).map((s) => s.taskId),
    );
    const ran = tasks.filter((t) => runs.has(t.taskId));
    const [running, stoppable, withNew] = [ran[1], ran[2], ran[3]].map((t) => (t as { taskId: string }).taskId) as [
      string,
      string,
      string,
    ];
    const runningLot = dataOf<{ lotNo: string }>(await post('/cloudextraction/start', { taskId: running })).lotNo;
    await post('/cloudextraction/start', { taskId: stoppable });
    clock.advance(5_000);
    x = {
      sb,
      get,
      post,
      ada,
      fiona: sb.user('fiona').apiKey,
      tasks,
      groupId,
      otherGroupId,
      running,
      runningLot,
      stoppable,
      withNew,
    };
  });
  after(() => x.sb.close());

  it('covers the same 21 operations; the one not sent is not answered either (an unknown route)', async () => {
    assert.deepEqual(
      [...Object.keys(SANDBOX), ...Object.keys(NOT_SENT)].sort(),
      doc.operations.map((o) => o.operationId).sort(),
    );
    const r = await x.sb.call(`/task/urls?taskId=${x.running}`, {
      method: 'POST',
      headers: { 'x-api-key': x.ada },
      body: { file: 'x' },
    });
    assert.equal(r.status, 404);
  });

  it('the comparison sees drift: a type changed, a field added or missing, a field always null, a row with a number', () => {
    const groups = shapeOf(op('taskGroup').responseExamples['200'].data, 'data');
    const drift = (value: unknown, shape: Shape = groups): string[] => {
      const c = new Comparison();
      c.check(value, shape);
      return [...c.problems, ...c.neverValued().map((p) => `never valued: ${p}`)];
    };
    assert.deepEqual(drift([{ taskGroupId: 1, taskGroupName: 'A' }]), []);
    assert.match(
      drift([{ taskGroupId: '1', taskGroupName: 'A' }]).join(),
      /taskGroupId: number in the document, got string/,
    );
    assert.match(
      drift([{ taskGroupId: 1, taskGroupName: 'A', extra: true }]).join(),
      /fields extra, taskGroupId, taskGroupName/,
    );
    assert.match(drift([{ taskGroupId: 1 }]).join(), /the document has taskGroupId, taskGroupName/);
    assert.match(drift([{ taskGroupId: 1, taskGroupName: null }]).join(), /never valued: data\[\]\.taskGroupName/);
    assert.match(drift([]).join(), /never valued: data/);
    const page = shapeOf(op('all').responseExamples['200'].data, 'data');
    assert.match(
      drift({ offset: 1, total: 1, restTotal: 0, data: [{ A: 1 }] }, page).join(),
      /data\.data\[\]: a row of string values/,
    );
  });

  for (const [id, c] of Object.entries(SANDBOX)) {
    it(`${id}: its success and its error have the published field names and types`, async () => {
      const o = op(id);
      const ok = await c.success(x);
      assert.equal(ok.status, 200, ok.text);
      assert.equal(typeof ok.json?.requestId, 'string');
      const data = ok.json?.data;
      const published = new Comparison();
      published.check(data, shapeOf(o.responseExamples['200'].data, 'data'));
      let result = published;
      if (c.alternative !== undefined && published.problems.length > 0) {
        result = new Comparison();
        result.check(data, shapeOf(c.alternative, 'data'));
      }
      assert.deepEqual(result.problems, [], `${id}: ${JSON.stringify(data)?.slice(0, 300)}`);
      assert.deepEqual(
        result.neverValued(),
        [],
        `${id}: fields the document shows with a value, always null or empty here`,
      );

      const bad = await c.error(x);
      assert.ok(bad.status >= 400, bad.text);
      const err = new Comparison();
      const { requestId, ...rest } = bad.json ?? {};
      err.check(rest, shapeOf({ error: o.responseExamples['400'].error }, 'body'), 'body');
      assert.deepEqual(err.problems, [], `${id} error: ${bad.text}`);
      assert.equal(typeof requestId, 'string');
    });
  }
});
