import * as assert from 'node:assert/strict';

import type { QuickPickItem, QuickPickOptions } from 'vscode';

import { MessageRouter } from '../../src/analytics/host/messages';
import { buildItems, type TaskListing } from '../../src/analytics/host/pickTasks';
import type { AnalyticsClient, MessageRouterDeps } from '../../src/analytics/host/routerDeps';
import { defaultForm } from '../../src/analytics/model/formModel';
import { type HostMessage, hostMessageSchema, type PageState } from '../../src/analytics/protocol';
import { ApiError } from '../../src/api/errors/errors';
import type { AnalyticsQuery, AnalyticsRecord } from '../../src/api/schemas/schemas';
import { blankRecord, oneSuccessfulRun, WEEK_47 } from '../shared/analyticsRecords';

const query: AnalyticsQuery = { start: '2026-11-16', end: '2026-11-22', timeGranularity: 'Week' };
const rec: AnalyticsRecord = blankRecord({
  taskId: 't1',
  userId: 'u1',
  taskName: 'Prices',
  ...WEEK_47,
  dataVolumeMetrics: { totalCollected: 10, deduplicatedVolume: 9 },
  executionMetrics: oneSuccessfulRun(2),
  resourceUsageMetrics: { captchaCount: 0, simpleTemplateCount: 0, proxyIpCount: 0, balance: 0 },
});
const tasks: TaskListing[] = [
  { taskId: 't1', taskName: 'Prices', taskGroupName: 'Shop' },
  { taskId: 't2', taskName: 'Reviews', taskGroupName: 'Shop' },
];

/** A page state holding a saved result of one row with these records. */
const savedResult = (records: unknown[]): unknown => ({
  type: 'state',
  state: { version: 2, result: { query, total: 1, records, requestIds: [], fetchedAt: 'now' } },
});

/** A promise that rejects with the client's own 'cancelled' error when the signal fires. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (): void => reject(new ApiError({ kind: 'cancelled', message: 'cancelled' }));
    if (signal?.aborted) fail();
    signal?.addEventListener('abort', fail, { once: true });
  });
}

interface Harness {
  router: MessageRouter;
  posted: HostMessage[];
  warnings: string[];
  logged: string[];
  deps: MessageRouterDeps;
  signals: AbortSignal[];
}

function harness(overrides: Partial<MessageRouterDeps> = {}, client: Partial<AnalyticsClient> = {}): Harness {
  const posted: HostMessage[] = [];
  const warnings: string[] = [];
  const logged: string[] = [];
  const signals: AbortSignal[] = [];
  let state: PageState | undefined;
  const fake: AnalyticsClient = {
    queryTaskAnalytics: async (_q, o) => {
      if (o?.signal) signals.push(o.signal);
      return { data: { total: 1, data: [rec] }, requestId: 'req-1' };
    },
    ...client,
  };
  const deps: MessageRouterDeps = {
    getClient: () => fake,
    listTasks: async () => tasks,
    ui: { showQuickPick: async () => undefined },
    exportRecords: async () => '/tmp/out.csv',
    writeClipboard: async () => undefined,
    log: {
      info: (m: string) => void logged.push(m),
      warn: (m: string) => void warnings.push(m),
      error: (m: string) => void logged.push(`E ${m}`),
    },
    post: (m) => {
      // Everything the host sends must parse on the page's side.
      assert.ok(hostMessageSchema.safeParse(m).success, `host message parses: ${JSON.stringify(m).slice(0, 200)}`);
      posted.push(m);
    },
    today: () => '2026-11-22',
    initial: () => ({ preset: { taskIds: ['t1'], label: 'Prices' }, state }),
    onState: (s) => {
      state = s;
    },
    isSignedIn: () => true,
    autoFetchRows: () => 10_000,
    ...overrides,
  };
  return { router: new MessageRouter(deps), posted, warnings, logged, deps, signals };
}

describe('analytics panel messages', () => {
  it('answers ready with init (today, preset, saved state) and the sign-in state', async () => {
    const h = harness();
    const state: PageState = { version: 2, sort: { column: 'dayKey', direction: 'desc' } };
    await h.router.handle({ type: 'state', state });
    await h.router.handle({ type: 'ready' });
    assert.deepEqual(h.posted, [
      // The one-task preset's label names its chip (no task cache in this harness).
      {
        type: 'init',
        today: '2026-11-22',
        preset: { taskIds: ['t1'], label: 'Prices' },
        state,
        taskNames: [{ taskId: 't1', taskName: 'Prices' }],
      },
      { type: 'signedIn', signedIn: true },
    ]);
  });

  it('logs and ignores malformed messages, never throws, never answers', async () => {
    const h = harness();
    const junk: unknown[] = [
      null,
      42,
      'ready',
      {},
      { type: 'nope' },
      { type: 'query', id: 'q' },
      { type: 'query', id: '', query },
      { type: 'export', id: 'e', format: 'xlsx', query, records: [] },
      { type: 'copy', text: 'x'.repeat(1001) },
      [1, 2],
    ];
    let seed = 7;
    const rnd = (): number => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const pieces: unknown[] = [
      undefined,
      null,
      true,
      -1,
      Number.POSITIVE_INFINITY,
      '',
      'query',
      'fetchAll',
      { start: 1 },
      [],
      query,
      'x'.repeat(70),
    ];
    for (let i = 0; i < 500; i++) {
      const msg: Record<string, unknown> = {};
      for (const key of ['type', 'id', 'query', 'records', 'format', 'selected', 'text', 'level', 'message', 'state']) {
        if (rnd() < 0.4) msg[key] = pieces[Math.floor(rnd() * pieces.length)];
      }
      junk.push(msg);
    }
    for (const m of junk) await h.router.handle(m);
    // A random message may happen to be valid (e.g. a well-formed query): only those may be answered.
    assert.ok(h.warnings.length >= junk.length - h.posted.length - 5);
    assert.ok(h.warnings.every((w) => w.startsWith('analytics:')));
    assert.ok(h.warnings.slice(0, 10).every((w) => /malformed/.test(w)));
  });

  it('refuses, with a log line, a message with any item over its limit; stores nothing of it', async () => {
    const h = harness();
    // The form as it opens on 2026-11-22, over three weeks.
    const form = { ...defaultForm('2026-11-22'), start: '2026-11-01' };
    const over: unknown[] = [
      { type: 'pickTasks', id: 'p1', selected: ['t'.repeat(10_000)] },
      { type: 'state', state: { version: 1, form: { ...form, taskIds: ['x'.repeat(129)] } } },
      { type: 'state', state: { version: 1, form: { ...form, memberNames: 'm'.repeat(100 * 257 + 1) } } },
      { type: 'state', state: { version: 1, form: { ...form, taskLabels: ['l'.repeat(301)] } } },
      { type: 'state', state: { version: 1, sort: { column: 'c'.repeat(65), direction: 'asc' } } },
      {
        type: 'state',
        state: {
          version: 1,
          result: {
            mode: 'page',
            query,
            total: 0,
            records: [],
            requestIds: Array.from({ length: 1_002 }, () => 'r'),
            fetchedAt: 'now',
          },
        },
      },
      { type: 'query', id: 'q', query: { ...query, taskIds: ['t'.repeat(129)] } },
      { type: 'log', level: 'info', message: 'x'.repeat(4_001) },
      // Saved results: every string of a record and every array has a maximum.
      ...(['taskId', 'userId', 'dayKey'] as const).map((key) => savedResult([{ ...rec, [key]: 'k'.repeat(129) }])),
      savedResult([{ ...rec, taskName: 'n'.repeat(1_000_000) }]),
      savedResult(Array.from({ length: 100_001 }, () => rec)),
      {
        type: 'state',
        state: {
          version: 2,
          result: { query, total: 1, records: [rec], requestIds: ['r'.repeat(129)], fetchedAt: 'now' },
        },
      },
      { type: 'state', state: { version: 2, preset: { taskIds: Array.from({ length: 101 }, () => 't') } } },
      { type: 'state', state: { version: 2, preset: { label: 'l'.repeat(201) } } },
      { type: 'pickTasks', id: 'p2', selected: Array.from({ length: 101 }, () => 't') },
      { type: 'export', id: 'e'.repeat(65), format: 'csv', resultId: 'r' },
      { type: 'export', id: 'e', format: 'csv', resultId: 'r'.repeat(65) },
    ];
    const before = h.deps.initial();
    for (const m of over) await h.router.handle(m);
    assert.equal(h.warnings.length, over.length, h.warnings.join('\n'));
    assert.ok(h.warnings.every((w) => /malformed/.test(w) && w.length < 300));
    assert.deepEqual(h.posted, [], 'nothing answered');
    assert.deepEqual(h.deps.initial(), before, 'no state stored');
  });

  it('writes a page log message on one line, without control characters or escapes, and short', async () => {
    const h = harness();
    await h.router.handle({
      type: 'log',
      level: 'info',
      message: `ok\r\n2026-11-23 [error] forged line\u001b[31m red ${'y'.repeat(3_000)}`,
    });
    const line = h.logged.find((l) => l.startsWith('analytics page:'));
    assert.ok(line);
    assert.ok(!/[\r\n]/.test(line) && !line.includes(String.fromCharCode(27)), line);
    assert.ok(line.length <= 520, `${line.length} characters`);
    assert.match(line, /^analytics page: ok 2026-11-23 \[error\] forged line red y+…$/);
  });

  it('query → queryResult under the same id', async () => {
    const h = harness();
    await h.router.handle({ type: 'query', id: 'q1', query });
    assert.deepEqual(h.posted, [
      {
        type: 'queryResult',
        id: 'q1',
        resultId: 'result-1',
        query,
        page: { total: 1, data: [rec] },
        requestId: 'req-1',
      },
    ]);
    assert.equal(h.router.pending, 0);
  });

  it('an ApiError becomes a wire error with kind, status, code, requestId and field', async () => {
    const refusal = {
      kind: 'invalid-request',
      status: 400,
      code: 4001,
      message: 'end is after today',
      requestId: 'r-9',
      field: 'end',
    } as const;
    const h = harness(
      {},
      {
        queryTaskAnalytics: async () => {
          throw new ApiError(refusal);
        },
      },
    );
    await h.router.handle({ type: 'query', id: 'q2', query });
    assert.deepEqual(h.posted, [{ type: 'error', id: 'q2', error: refusal }]);
  });

  it('signed out: the query is answered with an auth error, nothing is sent', async () => {
    const h = harness({ getClient: () => undefined });
    await h.router.handle({ type: 'query', id: 'q3', query });
    const [reply] = h.posted;
    assert.equal(reply?.type, 'error');
    assert.equal(reply?.type === 'error' && reply.error.kind, 'auth');
  });

  it('an unexpected failure is an internal error, not a crash', async () => {
    const h = harness(
      {},
      {
        queryTaskAnalytics: async () => {
          throw new TypeError('boom');
        },
      },
    );
    await h.router.handle({ type: 'query', id: 'q4', query });
    assert.deepEqual(h.posted, [
      { type: 'error', id: 'q4', error: { kind: 'internal', message: 'Something went wrong in Scrapedeck: boom' } },
    ]);
  });

  it('fetchAll reports progress then the result, all under its id; the rows come with the progress', async () => {
    const h = harness();
    await h.router.handle({ type: 'fetchAll', id: 'f1', query });
    assert.deepEqual(h.posted, [
      { type: 'fetchAllProgress', id: 'f1', fetched: 1, total: 1, at: 0, records: [rec] },
      {
        type: 'fetchAllResult',
        id: 'f1',
        resultId: 'result-1',
        query: { ...query, page: 1, pageSize: 100 },
        total: 1,
        records: [],
        streamed: 1,
        requestIds: ['req-1'],
      },
    ]);
  });

  it('cancel aborts that request only and settles it as cancelled', async () => {
    const h = harness(
      {},
      {
        queryTaskAnalytics: async (q, o) => {
          if (q.pageSize === 100) return untilAborted(o?.signal); // the fetch
          await new Promise((r) => setTimeout(r, 5));
          return { data: { total: o?.signal?.aborted ? -1 : 0, data: [] }, requestId: undefined };
        },
      },
    );
    const fetching = h.router.handle({ type: 'fetchAll', id: 'f2', query });
    const querying = h.router.handle({ type: 'query', id: 'q5', query });
    assert.equal(h.router.pending, 2);
    await h.router.handle({ type: 'cancel', id: 'f2' });
    await Promise.all([fetching, querying]);
    assert.deepEqual(h.posted, [
      { type: 'error', id: 'f2', error: { kind: 'cancelled', message: 'cancelled' } },
      {
        type: 'queryResult',
        id: 'q5',
        resultId: 'result-1',
        query,
        page: { total: 0, data: [] },
        requestId: undefined,
      },
    ]);
    assert.deepEqual(h.warnings, [], 'a cancel is not worth a warning');
  });

  it('dispose aborts everything in flight and posts nothing more', async () => {
    const seen: AbortSignal[] = [];
    const h = harness(
      {},
      {
        queryTaskAnalytics: (_q, o) => {
          if (o?.signal) seen.push(o.signal);
          return untilAborted(o?.signal);
        },
      },
    );
    const a = h.router.handle({ type: 'fetchAll', id: 'a', query });
    const b = h.router.handle({ type: 'fetchAll', id: 'b', query });
    h.router.dispose();
    await Promise.all([a, b]);
    assert.equal(seen.length, 2);
    assert.ok(seen.every((s) => s.aborted));
    assert.deepEqual(h.posted, []);
  });

  it('pickTasks pre-picks the current selection and answers ids with labels', async () => {
    let offered: readonly { label: string; picked?: boolean }[] = [];
    let canPickMany: boolean | undefined;
    const h = harness({
      ui: {
        showQuickPick: async <T extends QuickPickItem>(
          items: readonly T[] | Thenable<readonly T[]>,
          options: QuickPickOptions,
        ) => {
          const all = await items;
          offered = all;
          canPickMany = options.canPickMany;
          // With canPickMany VS Code resolves to an array; the seam's type is the single-pick one.
          return [all[1], all[2]] as unknown as T;
        },
      },
    });
    await h.router.handle({ type: 'pickTasks', id: 'p1', selected: ['t2', 'gone'] });
    assert.equal(canPickMany, true);
    assert.deepEqual(
      offered.map((i) => [i.label, i.picked]),
      [
        ['Prices', false],
        ['Reviews', true],
        ['gone', true],
      ],
    );
    assert.deepEqual(h.posted, [
      { type: 'tasksPicked', id: 'p1', taskIds: ['t2', 'gone'], taskLabels: ['Reviews', 'gone'] },
    ]);
  });

  it('pickTasks dismissed → cancelled; more than 100 → an invalid-request error on taskIds', async () => {
    const h = harness();
    await h.router.handle({ type: 'pickTasks', id: 'p2', selected: [] });
    assert.deepEqual(h.posted, [{ type: 'error', id: 'p2', error: { kind: 'cancelled', message: 'Cancelled.' } }]);

    const many = Array.from({ length: 101 }, (_, i) => ({ taskId: `t${i}`, taskName: `T${i}`, taskGroupName: 'G' }));
    const h2 = harness({
      listTasks: async () => many,
      ui: { showQuickPick: async (items) => (await items) as unknown as never },
    });
    await h2.router.handle({ type: 'pickTasks', id: 'p3', selected: [] });
    const [reply] = h2.posted;
    assert.ok(reply?.type === 'error' && reply.error.kind === 'invalid-request' && reply.error.field === 'taskIds');
  });

  it('export: saves the result the host kept under its id; exportDone with the path, or cancelled when dismissed', async () => {
    const calls: unknown[][] = [];
    let answer: string | undefined = '/home/u/a.csv';
    const h = harness({
      exportRecords: async (format, result) => {
        calls.push([format, result]);
        return answer;
      },
    });
    await h.router.handle({ type: 'query', id: 'q1', query });
    await h.router.handle({ type: 'fetchAll', id: 'f1', query });
    const ids = h.posted.flatMap((m) => ('resultId' in m ? [m.resultId] : []));
    assert.deepEqual(ids, ['result-1', 'result-2'], 'each result is kept under an id of its own');
    h.posted.length = 0;
    await h.router.handle({ type: 'export', id: 'e1', format: 'csv', resultId: 'result-1' });
    answer = undefined;
    await h.router.handle({ type: 'export', id: 'e2', format: 'json', resultId: 'result-2' });
    assert.deepEqual(
      calls,
      [
        ['csv', { query, total: 1, records: [rec], requestIds: ['req-1'] }],
        ['json', { query: { ...query, page: 1, pageSize: 100 }, total: 1, records: [rec], requestIds: ['req-1'] }],
      ],
      'the rows come from the host, not the message',
    );
    assert.deepEqual(h.posted, [
      { type: 'exportDone', id: 'e1', path: '/home/u/a.csv' },
      { type: 'error', id: 'e2', error: { kind: 'cancelled', message: 'Cancelled.' } },
    ]);
  });

  it("export: the result stops being the panel's to write when the account changes while the save dialog is open", async () => {
    const seen: boolean[] = [];
    const box: { router?: MessageRouter } = {};
    let changeAccountDuringDialog = false;
    const h = harness({
      exportRecords: async (_format, _result, stillHeld) => {
        seen.push(stillHeld());
        if (changeAccountDuringDialog) box.router?.forgetResults(); // the user switched accounts with the dialog open
        seen.push(stillHeld());
        return stillHeld() ? '/home/u/a.csv' : undefined;
      },
    });
    box.router = h.router;
    await h.router.handle({ type: 'query', id: 'q1', query });
    await h.router.handle({ type: 'export', id: 'e1', format: 'csv', resultId: 'result-1' });
    assert.deepEqual(seen, [true, true], 'nothing changed: the rows may be written');
    seen.length = 0;
    changeAccountDuringDialog = true;
    await h.router.handle({ type: 'export', id: 'e2', format: 'csv', resultId: 'result-1' });
    assert.deepEqual(seen, [true, false], 'after the account change the export is told not to write');
  });

  it('export: an unknown or no longer kept result id gets a clear error, and nothing is written', async () => {
    const calls: unknown[] = [];
    const h = harness({
      exportRecords: async (...args) => {
        calls.push(args);
        return '/x';
      },
    });
    for (let i = 1; i <= 4; i++) await h.router.handle({ type: 'query', id: `q${i}`, query });
    h.posted.length = 0;
    await h.router.handle({ type: 'export', id: 'e-old', format: 'csv', resultId: 'result-1' }); // replaced by three newer ones
    await h.router.handle({ type: 'export', id: 'e-never', format: 'csv', resultId: 'result-99' });
    assert.deepEqual(calls, []);
    assert.equal(h.posted.length, 2);
    for (const reply of h.posted) {
      assert.ok(reply.type === 'error' && reply.error.kind === 'not-found', JSON.stringify(reply));
      assert.match(reply.error.message, /no longer holds the rows of this result.*Run the query again/);
    }
    // The newest results are still there.
    await h.router.handle({ type: 'export', id: 'e-new', format: 'csv', resultId: 'result-4' });
    assert.equal(calls.length, 1);
  });

  it('copy goes to the clipboard, log to the log channel', async () => {
    const copied: string[] = [];
    const h = harness({ writeClipboard: async (t) => void copied.push(t) });
    await h.router.handle({ type: 'copy', text: 'req-1' });
    await h.router.handle({ type: 'log', level: 'info', message: 'rendered 10 rows' });
    await h.router.handle({ type: 'log', level: 'warn', message: 'chart fallback' });
    assert.deepEqual(copied, ['req-1']);
    assert.deepEqual(h.logged, ['analytics page: rendered 10 rows']);
    assert.deepEqual(h.warnings, ['analytics page: chart fallback']);
    assert.deepEqual(h.posted, []);
  });

  it('builds quick-pick items once per task, ticking the selection', () => {
    const items = buildItems([...tasks, tasks[0] as TaskListing], ['t1']);
    assert.deepEqual(
      items.map((i) => [i.taskId, i.picked, i.description]),
      [
        ['t1', true, 'Shop'],
        ['t2', false, 'Shop'],
      ],
    );
  });
});
